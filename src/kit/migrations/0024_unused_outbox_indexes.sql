-- Two indexes no query reads, each written on every purchase (issue 13):
-- - emails_to_idx served only the dev mailbox's filter by recipient (GET /api/dev/emails, never
--   in production); it took an entry for each mail and another for each of its non-HOT updates
--   (six per purchase). The dev mailbox holds few mails: a scan reads them.
-- - webhook_deliveries_due_idx predates the per-endpoint queue (0007): the claim walks
--   webhook_deliveries_queue_idx, and nothing else looks for due deliveries across endpoints.
DROP INDEX emails_to_idx;
DROP INDEX webhook_deliveries_due_idx;
