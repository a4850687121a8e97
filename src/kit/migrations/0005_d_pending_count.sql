-- An affiliate's pending_count is counted from its pending commissions (few: an unpaid order
-- expires within days) instead of a counter on its balance row. Checkouts and expiries then no
-- longer lock that row: a batch of expiries can never deadlock with another on affiliates taken
-- in a different order, and a popular affiliate's checkouts do not queue on one row.
CREATE INDEX order_shares_pending_idx ON order_shares (kind, user_id) WHERE status = 'pending';

DROP VIEW affiliate_balance_view;
ALTER TABLE affiliate_balances DROP COLUMN pending_count;

-- Every user has an affiliate balance (zeros until they earn), so the pending count of someone
-- who has never been paid still shows.
CREATE VIEW affiliate_balance_view AS
  SELECT u.id AS user_id,
    COALESCE(b.paid_cents, 0) AS paid_total,
    COALESCE(b.rejected_cents, 0) AS rejected_total,
    (SELECT COUNT(*) FROM order_shares s
      WHERE s.kind = 'commission' AND s.user_id = u.id AND s.status = 'pending') AS pending_count,
    COALESCE(b.withdrawn_cents, 0) AS withdrawn,
    COALESCE(b.paid_cents - b.withdrawn_cents, 0) AS available
  FROM users u LEFT JOIN affiliate_balances b ON b.user_id = u.id;
