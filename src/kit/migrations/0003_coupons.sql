-- Coupons per product (SPEC §3). Codes are stored uppercase; redemptions are reserved by an
-- UPDATE guarded by max_redemptions, so concurrent checkouts never exceed it.
CREATE TABLE coupons (
  id uuid PRIMARY KEY,
  product_id uuid NOT NULL REFERENCES products (id),
  code text NOT NULL,
  percent_off_bps int CHECK (percent_off_bps BETWEEN 1 AND 10000),
  amount_off_cents int8 CHECK (amount_off_cents > 0),
  expires_at timestamptz,
  max_redemptions int CHECK (max_redemptions >= 1),
  redemptions int NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  CHECK ((percent_off_bps IS NULL) <> (amount_off_cents IS NULL)),
  CHECK (max_redemptions IS NULL OR redemptions <= max_redemptions)
);
CREATE UNIQUE INDEX coupons_product_code_key ON coupons (product_id, code);
