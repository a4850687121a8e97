-- Subscriptions of recurring products (issue 3). The first paid order creates one; each period
-- end brings a renewal order (card charged automatically, PIX/boleto charge e-mailed ahead).
-- `next_action_at` is when the renewal worker must look at the row next, whatever it will do.
CREATE TABLE subscriptions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  product_id uuid NOT NULL REFERENCES products (id),
  plan_id uuid NOT NULL REFERENCES plans (id),
  buyer_id uuid NOT NULL REFERENCES users (id),
  buyer_email text NOT NULL,
  first_order_id uuid NOT NULL REFERENCES orders (id),
  status text NOT NULL CHECK (status IN ('active', 'past_due', 'canceled')),
  payment_method text NOT NULL CHECK (payment_method IN ('pix', 'card', 'boleto')),
  -- The gateway's reusable card reference (never a card number), for automatic renewals.
  card_reference text,
  -- What every renewal charges: the plan's price when the buyer subscribed.
  amount_cents int8 NOT NULL CHECK (amount_cents >= 0),
  interval text NOT NULL CHECK (interval IN ('month', 'year')),
  interval_count int NOT NULL CHECK (interval_count >= 1),
  current_period_start timestamptz NOT NULL,
  current_period_end timestamptz NOT NULL,
  renewal_order_id uuid REFERENCES orders (id),
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  past_due_since timestamptz,
  canceled_at timestamptz,
  cancel_reason text,
  next_action_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (payment_method <> 'card' OR card_reference IS NOT NULL),
  CHECK ((status = 'canceled') = (next_action_at IS NULL))
);
CREATE UNIQUE INDEX subscriptions_first_order_key ON subscriptions (first_order_id);
CREATE INDEX subscriptions_account_idx ON subscriptions (account_id, created_at DESC, id DESC);
CREATE INDEX subscriptions_due_idx ON subscriptions (next_action_at) WHERE status <> 'canceled';

-- A renewal order belongs to its subscription (the first order is linked when it is paid).
ALTER TABLE orders ADD CONSTRAINT orders_subscription_fkey
  FOREIGN KEY (subscription_id) REFERENCES subscriptions (id);

-- The gateway's reusable card reference from an approved card charge (subscriptions renew with it).
ALTER TABLE charges ADD COLUMN saved_card text;

-- The sandbox gateway keeps one charge per reference (our order id), as a real gateway's
-- idempotency key does: a retried charge call answers the first charge.
CREATE UNIQUE INDEX sandbox_charges_reference_key ON sandbox_charges (reference);
