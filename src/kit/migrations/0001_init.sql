-- Foundation schema. Money columns are integer centavos (*_cents, int8); percentages are
-- basis points (*_bps). Timestamps come from the application clock.

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  password_hash text,
  is_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE account_users (
  account_id uuid NOT NULL REFERENCES accounts (id),
  user_id uuid NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX account_users_user_idx ON account_users (user_id);

CREATE TABLE user_sessions (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX user_sessions_user_idx ON user_sessions (user_id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  created_by uuid NOT NULL REFERENCES users (id),
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash);
CREATE INDEX api_keys_account_idx ON api_keys (account_id, created_at DESC);

CREATE TABLE idempotency_keys (
  owner text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  response_status int,
  response_body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (owner, key)
);

CREATE TABLE products (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  slug text NOT NULL,
  billing text NOT NULL CHECK (billing IN ('one_time', 'recurring')),
  description text,
  success_url text,
  delivery_url text,
  guarantee_days int NOT NULL DEFAULT 7,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX products_slug_key ON products (slug);
CREATE INDEX products_account_idx ON products (account_id, created_at DESC, id DESC);

CREATE TABLE plans (
  id uuid PRIMARY KEY,
  product_id uuid NOT NULL REFERENCES products (id),
  name text NOT NULL,
  price_cents int8 NOT NULL CHECK (price_cents >= 0),
  interval text CHECK (interval IN ('month', 'year')),
  interval_count int CHECK (interval_count >= 1),
  position int NOT NULL,
  archived_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX plans_product_idx ON plans (product_id, position);

CREATE TABLE orders (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  product_id uuid NOT NULL REFERENCES products (id),
  plan_id uuid NOT NULL REFERENCES plans (id),
  buyer_id uuid NOT NULL REFERENCES users (id),
  buyer_email text NOT NULL,
  buyer_name text NOT NULL,
  buyer_document text NOT NULL,
  buyer_phone text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'refunded', 'chargeback', 'expired', 'failed')),
  amount_cents int8 NOT NULL CHECK (amount_cents >= 0),
  currency text NOT NULL DEFAULT 'BRL',
  payment_method text NOT NULL CHECK (payment_method IN ('pix', 'card', 'boleto')),
  coupon_code text,
  affiliate_id uuid,
  affiliate_commission_bps int,
  affiliate_commission_cents int8,
  subscription_id uuid,
  paid_at timestamptz,
  refunded_at timestamptz,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX orders_account_idx ON orders (account_id, created_at DESC, id DESC);
CREATE INDEX orders_buyer_idx ON orders (buyer_id);
CREATE INDEX orders_pending_expiry_idx ON orders (expires_at) WHERE status = 'pending';

-- Our record of a charge at a gateway; one per order attempt.
CREATE TABLE charges (
  id uuid PRIMARY KEY,
  order_id uuid NOT NULL REFERENCES orders (id),
  gateway text NOT NULL,
  gateway_charge_id text NOT NULL,
  method text NOT NULL,
  amount_cents int8 NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'failed', 'expired', 'refunded', 'chargeback')),
  pix_copy_paste text,
  pix_expires_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX charges_gateway_key ON charges (gateway, gateway_charge_id);
CREATE INDEX charges_order_idx ON charges (order_id);

-- Inbox: every authentic gateway callback, once per gateway event id.
CREATE TABLE payment_callbacks (
  id uuid PRIMARY KEY,
  gateway text NOT NULL,
  gateway_event_id text NOT NULL,
  gateway_charge_id text NOT NULL,
  action text NOT NULL,
  outcome text NOT NULL,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX payment_callbacks_event_key ON payment_callbacks (gateway, gateway_event_id);

-- The sandbox gateway's own books: what a remote gateway would keep on its side.
CREATE TABLE sandbox_charges (
  id text PRIMARY KEY,
  method text NOT NULL,
  amount_cents int8 NOT NULL,
  status text NOT NULL,
  reference text NOT NULL,
  callback_url text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE members (
  account_id uuid NOT NULL REFERENCES accounts (id),
  buyer_id uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, buyer_id)
);
CREATE INDEX members_account_idx ON members (account_id, created_at DESC, buyer_id DESC);

CREATE TABLE access_grants (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  buyer_id uuid NOT NULL REFERENCES users (id),
  product_id uuid NOT NULL REFERENCES products (id),
  order_id uuid NOT NULL REFERENCES orders (id),
  status text NOT NULL CHECK (status IN ('active', 'revoked')),
  granted_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text
);
CREATE UNIQUE INDEX access_grants_order_key ON access_grants (order_id);
CREATE INDEX access_grants_buyer_idx ON access_grants (account_id, buyer_id);

-- Outbox of domain events, written in the business transaction.
CREATE TABLE events (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX events_account_idx ON events (account_id, created_at DESC);

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  url text NOT NULL,
  events text[] NOT NULL,
  secret_sealed text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id, created_at DESC);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  event_id uuid NOT NULL REFERENCES events (id),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
  account_id uuid NOT NULL REFERENCES accounts (id),
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  last_status_code int,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX webhook_deliveries_event_endpoint_key ON webhook_deliveries (event_id, endpoint_id);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);

CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id),
  attempt int NOT NULL,
  status_code int,
  duration_ms int NOT NULL,
  error text,
  response_body text,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt);

-- Mail outbox; also the dev mailbox when no SMTP_URL is set.
CREATE TABLE emails (
  id uuid PRIMARY KEY,
  dedupe_key text,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX emails_dedupe_key ON emails (dedupe_key);
CREATE INDEX emails_due_idx ON emails (next_attempt_at) WHERE status = 'pending';
CREATE INDEX emails_to_idx ON emails (to_address, created_at DESC);

-- One-time log-in links (members area, invitations).
CREATE TABLE login_links (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
