-- Checkout sessions (SPEC §4): what a buyer typed, for pre-filling and cart recovery.
CREATE TABLE checkout_sessions (
  id uuid PRIMARY KEY,
  product_id uuid NOT NULL REFERENCES products (id),
  plan_id uuid REFERENCES plans (id),
  email text NOT NULL,
  name text,
  cpf text,
  phone text,
  coupon_code text,
  order_id uuid REFERENCES orders (id),
  recovery_sent_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX checkout_sessions_reuse_idx ON checkout_sessions (product_id, email, created_at DESC);
CREATE INDEX checkout_sessions_recovery_idx ON checkout_sessions (created_at)
  WHERE order_id IS NULL AND recovery_sent_at IS NULL;

-- Fixed-window request counters, shared by every API process through the database.
CREATE TABLE rate_limit_windows (
  bucket text NOT NULL,
  window_start timestamptz NOT NULL,
  hits int NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
