-- PIX keys and withdrawals (SPEC §9). The money side of a withdrawal lives in the ledger
-- (ledger_withdrawals, keyed by withdrawals.id); this is the request and its review.

-- One key per user, on the profile. `pix_key` is stored normalized (digits, lower-case e-mail,
-- +55 phone, lower-case UUID) so "the same key again" compares equal whatever the mask.
CREATE TABLE pix_keys (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  pix_key text NOT NULL CHECK (length(pix_key) BETWEEN 1 AND 140),
  pix_key_type text NOT NULL CHECK (pix_key_type IN ('cpf', 'cnpj', 'email', 'phone', 'random')),
  status text NOT NULL CHECK (status IN ('pending', 'verified', 'rejected')),
  rejection_reason text,
  reviewed_by uuid REFERENCES users (id),
  reviewed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((status = 'rejected') = (rejection_reason IS NOT NULL))
);
CREATE INDEX pix_keys_status_idx ON pix_keys (status, updated_at DESC, user_id);

CREATE TABLE withdrawals (
  id uuid PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('creator', 'coproducer', 'affiliate')),
  -- The creator account charged (creator withdrawals only); co-producers and affiliates are
  -- charged over their shares, which the ledger allocates.
  account_id uuid REFERENCES accounts (id),
  user_id uuid NOT NULL REFERENCES users (id),
  amount_cents int8 NOT NULL CHECK (amount_cents >= 2000),
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'paid', 'rejected')),
  -- The verified key at request time: the transfer goes where the request said.
  pix_key text NOT NULL,
  pix_key_type text NOT NULL,
  admin_note text,
  -- Set when a pay call starts the PIX transfer: from then on it can no longer be rejected
  -- (the money may be on its way); a retried pay repeats the same idempotent transfer.
  transfer_started_at timestamptz,
  gateway_transfer_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  approved_at timestamptz,
  paid_at timestamptz,
  rejected_at timestamptz,
  CHECK ((role = 'creator') = (account_id IS NOT NULL)),
  CHECK ((status = 'rejected') = (admin_note IS NOT NULL))
);
-- One pending withdrawal per creator account and per co-producer / affiliate (SPEC §9): the
-- service checks under the balance lock; these make a second one impossible regardless.
CREATE UNIQUE INDEX withdrawals_one_pending_creator ON withdrawals (account_id)
  WHERE status = 'pending' AND role = 'creator';
CREATE UNIQUE INDEX withdrawals_one_pending_partner ON withdrawals (role, user_id)
  WHERE status = 'pending' AND role <> 'creator';
CREATE INDEX withdrawals_user_idx ON withdrawals (user_id, created_at DESC, id DESC);
CREATE INDEX withdrawals_status_idx ON withdrawals (status, created_at DESC, id DESC);

-- The sandbox gateway's books of PIX transfers: one per reference (our withdrawal id).
CREATE TABLE sandbox_transfers (
  id text PRIMARY KEY,
  reference uuid NOT NULL UNIQUE,
  pix_key text NOT NULL,
  pix_key_type text NOT NULL,
  amount_cents int8 NOT NULL,
  status text NOT NULL CHECK (status IN ('completed', 'failed')),
  failure_reason text,
  created_at timestamptz NOT NULL
);
