-- Gateway answers we never got (SPEC §5, §7, §9). An order is written before its charge, so a
-- lost answer leaves something to look up at the gateway by our reference: the charge of an
-- order, the PIX transfer of a withdrawal, a refund failed while its answer was unknown. Each
-- such reference has a row here until the reconciliation worker (or the request itself)
-- settles it; rows are kept afterwards, with what settled them.
CREATE TABLE gateway_checks (
  -- Our reference at the gateway: an order id, a refund id or a withdrawal id.
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('charge', 'refund', 'transfer')),
  status text NOT NULL CHECK (status IN ('pending', 'settled')),
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  attempts int NOT NULL DEFAULT 0,
  last_error text,
  note text,
  created_at timestamptz NOT NULL,
  settled_at timestamptz
);
CREATE INDEX gateway_checks_due_idx ON gateway_checks (next_attempt_at) WHERE status = 'pending';

-- A charge the gateway canceled before we recorded it (our view of it follows the gateway's).
ALTER TABLE charges DROP CONSTRAINT charges_status_check;
ALTER TABLE charges ADD CONSTRAINT charges_status_check CHECK (status IN ('pending', 'paid',
  'failed', 'expired', 'refunded', 'chargeback', 'canceled'));

-- Refunds whose outcome is unknown stay pending (their money reserved) and are flagged for a
-- person after the attempts that used to fail them. A refund the gateway carried out after we
-- had failed it (a chargeback came first, or an admin settled it as failed), or one whose
-- order was charged back after it completed, paid the buyer twice: recorded, and flagged.
ALTER TABLE refunds ADD COLUMN needs_attention_since timestamptz;
ALTER TABLE refunds ADD COLUMN completed_after_failure_at timestamptz;
ALTER TABLE refunds ADD COLUMN charged_back_at timestamptz;
ALTER TABLE refunds ADD COLUMN admin_note text;
CREATE INDEX refunds_attention_idx ON refunds (created_at DESC, id DESC)
  WHERE needs_attention_since IS NOT NULL;

-- The platform's money paid out a second time for one refund: gateway cash against a
-- receivable (recovered by contesting the chargeback with the refund's proof).
ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_kind_check;
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_kind_check CHECK (kind IN ('sale',
  'chargeback', 'refund_reserved', 'refund_paid', 'refund_released', 'refund_completed_late',
  'refund_charged_back', 'withdrawal_held', 'withdrawal_released', 'withdrawal_settled'));
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_book_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_book_check CHECK (book IN ('creator',
  'affiliate', 'coproducer', 'gateway', 'refunds_payable', 'payouts_payable',
  'platform_receivable'));

-- The sandbox keeps what a real gateway returns on a lookup, and a switch that loses the
-- answers of a charge's refund calls (the refund is made, the answer never arrives).
ALTER TABLE sandbox_charges ADD COLUMN expires_at timestamptz;
ALTER TABLE sandbox_charges ADD COLUMN saved_card text;
ALTER TABLE sandbox_charges ADD COLUMN refund_answers_lost boolean NOT NULL DEFAULT false;
