-- Every checkout bumps its client's rate-limit bucket (issue 13). With `updated_at` indexed,
-- each bump wrote a new entry in both of the table's indexes; without that index, and with room
-- on the page for the row's next version, a bump is a heap-only update. The index served only
-- the pruner, which runs every 10 minutes over a table that holds the last hour's clients: a
-- sequential scan there costs less than an index entry on every request.
DROP INDEX rate_limits_updated_idx;
ALTER TABLE rate_limits SET (fillfactor = 70);
