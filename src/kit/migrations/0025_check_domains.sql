-- One-column CHECK constraints of the tables a purchase writes become domains (issue 13).
--
-- PostgreSQL reads a table's CHECK constraints back from their stored text, and prepares
-- them, in every statement that writes the table: a purchase paid for that about 30 times
-- (orders alone has five, and is written twice). A domain's constraint is read once per
-- connection (the type cache) and only prepared per statement. Counted by callgrind, one
-- INSERT of four values checked: 191 k instructions with four CHECKs, 83 k with four domains,
-- 66 k with no check at all (BENCHMARKS.md, "2026-11-26 (sixth session)").
--
-- The rules are the same ones; a value they refuse is still refused, now as "value for domain
-- … violates check constraint …". CHECKs over several columns stay CHECKs (orders' interest,
-- ledger_entries' holder rules, ledger_postings' fact), and so do the tables a purchase does
-- not write.
--
-- Each domain is created bare, the column moved onto it, then the rule added: a domain that
-- already had a constraint would make PostgreSQL rewrite the table. The column changes type
-- without a rewrite (a domain over the same type), but the indexes whose predicate or
-- expression reads it are rebuilt, and adding the rule reads the table once: on a large
-- install this migration holds each table's lock for that long.

CREATE DOMAIN order_status AS text;
CREATE DOMAIN payment_method AS text;
CREATE DOMAIN installment_count AS int4;
CREATE DOMAIN unsigned_cents AS int8;
ALTER TABLE orders
  DROP CONSTRAINT orders_status_check,
  DROP CONSTRAINT orders_payment_method_check,
  DROP CONSTRAINT orders_installments_check,
  DROP CONSTRAINT orders_amount_cents_check,
  ALTER COLUMN status TYPE order_status,
  ALTER COLUMN payment_method TYPE payment_method,
  ALTER COLUMN installments TYPE installment_count,
  ALTER COLUMN amount_cents TYPE unsigned_cents;
ALTER DOMAIN order_status ADD CONSTRAINT order_status_check
  CHECK (VALUE IN ('pending', 'paid', 'refunded', 'chargeback', 'expired', 'failed'));
ALTER DOMAIN payment_method ADD CONSTRAINT payment_method_check
  CHECK (VALUE IN ('pix', 'card', 'boleto'));
ALTER DOMAIN installment_count ADD CONSTRAINT installment_count_check
  CHECK (VALUE BETWEEN 1 AND 12);
ALTER DOMAIN unsigned_cents ADD CONSTRAINT unsigned_cents_check CHECK (VALUE >= 0);

CREATE DOMAIN charge_status AS text;
ALTER TABLE charges
  DROP CONSTRAINT charges_status_check,
  ALTER COLUMN status TYPE charge_status;
ALTER DOMAIN charge_status ADD CONSTRAINT charge_status_check
  CHECK (VALUE IN ('pending', 'paid', 'failed', 'expired', 'refunded', 'chargeback', 'canceled'));

CREATE DOMAIN gateway_check_kind AS text;
CREATE DOMAIN gateway_check_status AS text;
ALTER TABLE gateway_checks
  DROP CONSTRAINT gateway_checks_kind_check,
  DROP CONSTRAINT gateway_checks_status_check,
  ALTER COLUMN kind TYPE gateway_check_kind,
  ALTER COLUMN status TYPE gateway_check_status;
ALTER DOMAIN gateway_check_kind ADD CONSTRAINT gateway_check_kind_check
  CHECK (VALUE IN ('charge', 'refund', 'transfer'));
ALTER DOMAIN gateway_check_status ADD CONSTRAINT gateway_check_status_check
  CHECK (VALUE IN ('pending', 'settled'));

CREATE DOMAIN email_status AS text;
ALTER TABLE emails
  DROP CONSTRAINT emails_status_check,
  ALTER COLUMN status TYPE email_status;
ALTER DOMAIN email_status ADD CONSTRAINT email_status_check
  CHECK (VALUE IN ('pending', 'sent', 'failed'));

CREATE DOMAIN delivery_status AS text;
ALTER TABLE webhook_deliveries
  DROP CONSTRAINT webhook_deliveries_status_check,
  ALTER COLUMN status TYPE delivery_status;
ALTER DOMAIN delivery_status ADD CONSTRAINT delivery_status_check
  CHECK (VALUE IN ('pending', 'delivered', 'failed'));

CREATE DOMAIN grant_status AS text;
ALTER TABLE access_grants
  DROP CONSTRAINT access_grants_status_check,
  ALTER COLUMN status TYPE grant_status;
ALTER DOMAIN grant_status ADD CONSTRAINT grant_status_check
  CHECK (VALUE IN ('active', 'revoked'));

CREATE DOMAIN ledger_book AS text;
CREATE DOMAIN nonzero_cents AS int8;
ALTER TABLE ledger_entries
  DROP CONSTRAINT ledger_entries_book_check,
  DROP CONSTRAINT ledger_entries_amount_cents_check,
  ALTER COLUMN book TYPE ledger_book,
  ALTER COLUMN amount_cents TYPE nonzero_cents;
ALTER DOMAIN ledger_book ADD CONSTRAINT ledger_book_check
  CHECK (VALUE IN ('creator', 'affiliate', 'coproducer', 'gateway', 'refunds_payable',
    'payouts_payable', 'platform_receivable', 'platform_revenue'));
ALTER DOMAIN nonzero_cents ADD CONSTRAINT nonzero_cents_check CHECK (VALUE <> 0);

-- Its other CHECK (which fact a kind needs) reads two columns and stays.
CREATE DOMAIN posting_kind AS text;
ALTER TABLE ledger_postings
  DROP CONSTRAINT ledger_postings_kind_check,
  ALTER COLUMN kind TYPE posting_kind;
ALTER DOMAIN posting_kind ADD CONSTRAINT posting_kind_check
  CHECK (VALUE IN ('sale', 'chargeback', 'refund_reserved', 'refund_paid', 'refund_released',
    'refund_completed_late', 'refund_charged_back', 'withdrawal_held', 'withdrawal_released',
    'withdrawal_settled'));

CREATE DOMAIN balance_slot AS int2;
ALTER TABLE creator_balances
  DROP CONSTRAINT creator_balances_slot_check,
  ALTER COLUMN slot TYPE balance_slot;
ALTER TABLE affiliate_balances
  DROP CONSTRAINT affiliate_balances_slot_check,
  ALTER COLUMN slot TYPE balance_slot;
ALTER TABLE coproducer_balances
  DROP CONSTRAINT coproducer_balances_slot_check,
  ALTER COLUMN slot TYPE balance_slot;
ALTER DOMAIN balance_slot ADD CONSTRAINT balance_slot_check CHECK (VALUE BETWEEN 0 AND 15);
