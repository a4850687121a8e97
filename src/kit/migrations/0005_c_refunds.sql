-- Refunds (SPEC §7): requested through the API, carried out by a worker through the gateway.
-- One live refund (pending or completed) per order; a failed one may be requested again.
CREATE TABLE refunds (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  order_id uuid NOT NULL REFERENCES orders (id),
  requested_by uuid REFERENCES users (id),
  amount_cents int8 NOT NULL CHECK (amount_cents >= 0),
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
  status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
  failure_reason text,
  gateway_refund_id text,
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  last_error text,
  completed_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX refunds_live_order_key ON refunds (order_id) WHERE status IN ('pending', 'completed');
CREATE INDEX refunds_account_idx ON refunds (account_id, created_at DESC, id DESC);
CREATE INDEX refunds_due_idx ON refunds (next_attempt_at) WHERE status = 'pending';

ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_refund_fk
  FOREIGN KEY (refund_id) REFERENCES refunds (id);

-- The sandbox gateway's books of refunds, one per refund reference (so a retried call answers
-- the same), and a switch that makes a charge's refunds fail (the buyer's account is closed).
CREATE TABLE sandbox_refunds (
  id text PRIMARY KEY,
  charge_id text NOT NULL,
  amount_cents int8 NOT NULL,
  status text NOT NULL,
  failure_reason text,
  created_at timestamptz NOT NULL
);
ALTER TABLE sandbox_charges ADD COLUMN refund_failure text;
