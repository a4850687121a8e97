-- The sales dashboard (issue 12): hand-granted access, and the indexes of the stats API.

-- An access granted by hand (POST /api/v1/members/grant) has no order. The unique index on
-- order_id still allows one access per order: NULLs never collide.
ALTER TABLE access_grants ALTER COLUMN order_id DROP NOT NULL;

-- Revenue per day of an account: orders that became paid, by payment time, answered from the
-- index alone (the amounts ride along), however many orders the account has outside the period.
CREATE INDEX orders_account_paid_idx ON orders (account_id, paid_at)
  INCLUDE (amount_cents, interest_cents) WHERE paid_at IS NOT NULL;

-- Checkout sessions created per day, per product of the account (sessions carry no account).
CREATE INDEX checkout_sessions_product_created_idx ON checkout_sessions (product_id, created_at);
