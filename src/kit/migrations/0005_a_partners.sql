-- Affiliates and co-producers of a product (SPEC §3). Percentages are basis points; each order
-- snapshots them (order_shares), so a later change affects only new orders.

CREATE TABLE affiliates (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id),
  code text NOT NULL CHECK (code ~ '^[a-z0-9]{4,32}$'),
  commission_bps int NOT NULL CHECK (commission_bps BETWEEN 1 AND 10000),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX affiliates_code_key ON affiliates (code);
CREATE UNIQUE INDEX affiliates_product_user_key ON affiliates (product_id, user_id);
CREATE INDEX affiliates_product_idx ON affiliates (product_id, created_at DESC, id DESC);

CREATE TABLE coproducers (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id),
  split_bps int NOT NULL CHECK (split_bps BETWEEN 1 AND 10000),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX coproducers_product_user_key ON coproducers (product_id, user_id);
CREATE INDEX coproducers_product_idx ON coproducers (product_id, created_at DESC, id DESC);
