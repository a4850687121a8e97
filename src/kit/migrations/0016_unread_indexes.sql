-- Indexes that no query of the service reads (pg_stat_user_indexes idx_scan = 0 after a
-- launch-day bench, and no code path filters on them), each written by every sale (issue 13:
-- a purchase's PostgreSQL CPU is mostly the rows and index entries it writes):
-- - events by account: events are read only by id (their deliveries join them);
-- - ledger entries by (book, holder): balances are running rows, never a sum of entries;
-- - ledger postings by order: postings are found by their fact key (kind + order/refund/
--   withdrawal id, a unique index), and orders are never deleted or re-keyed.
-- A reader that needs one of them brings it back in its own migration.
DROP INDEX IF EXISTS events_account_idx;
DROP INDEX IF EXISTS ledger_entries_holder_idx;
DROP INDEX IF EXISTS ledger_postings_order_idx;
