-- The money ledger (SPEC §8, DESIGN 6). Every movement is a posting of signed entries in
-- integer centavos that sums to zero; entries are append-only. Balance rows are running sums
-- kept by a trigger on the entries (never a scan of orders); the seed's counters live beside
-- them and a deferred check holds them to the seed's formulas at every commit.
--
-- Books (ledger_entries.book): creator (an account's own money), affiliate and coproducer (a
-- user's earnings, every line tagged with the creator account that owes it), and the
-- platform's gateway (cash, negative = money held), refunds_payable and payouts_payable.

-- What each affiliate and co-producer earns from one order, snapshotted at checkout.
-- allocated_cents: how much of it withdrawals have taken (oldest earnings first). On a
-- rejected share it is a debt the holder's next earnings absorb.
CREATE TABLE order_shares (
  id uuid PRIMARY KEY,
  order_id uuid NOT NULL REFERENCES orders (id),
  account_id uuid NOT NULL REFERENCES accounts (id),
  product_id uuid NOT NULL REFERENCES products (id),
  kind text NOT NULL CHECK (kind IN ('commission', 'split')),
  user_id uuid NOT NULL REFERENCES users (id),
  affiliate_id uuid REFERENCES affiliates (id),
  coproducer_id uuid REFERENCES coproducers (id),
  bps int NOT NULL CHECK (bps BETWEEN 0 AND 10000),
  amount_cents int8 NOT NULL CHECK (amount_cents >= 0),
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'rejected', 'canceled')),
  allocated_cents int8 NOT NULL DEFAULT 0 CHECK (allocated_cents BETWEEN 0 AND amount_cents),
  earned_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((kind = 'commission') = (affiliate_id IS NOT NULL)),
  CHECK ((kind = 'split') = (coproducer_id IS NOT NULL)),
  CHECK (status IN ('paid', 'rejected') OR allocated_cents = 0)
);
CREATE UNIQUE INDEX order_shares_order_key ON order_shares (order_id, kind, user_id);
CREATE INDEX order_shares_free_idx ON order_shares (kind, user_id, earned_at, id)
  WHERE status = 'paid' AND allocated_cents < amount_cents;
CREATE INDEX order_shares_debt_idx ON order_shares (kind, user_id, earned_at, id)
  WHERE status = 'rejected' AND allocated_cents > 0;

-- Running balances, one row per holder, locked FOR UPDATE in a fixed order by every money
-- change: affiliates, then co-producers, then creators, each by id.
CREATE TABLE creator_balances (
  account_id uuid PRIMARY KEY REFERENCES accounts (id),
  paid_cents int8 NOT NULL DEFAULT 0 CHECK (paid_cents >= 0),
  refunded_cents int8 NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
  withdrawn_cents int8 NOT NULL DEFAULT 0 CHECK (withdrawn_cents >= 0),
  coproducer_owed_cents int8 NOT NULL DEFAULT 0,
  affiliate_owed_cents int8 NOT NULL DEFAULT 0,
  available_cents int8 NOT NULL DEFAULT 0
);
CREATE TABLE affiliate_balances (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  paid_cents int8 NOT NULL DEFAULT 0 CHECK (paid_cents >= 0),
  rejected_cents int8 NOT NULL DEFAULT 0 CHECK (rejected_cents >= 0),
  pending_count int NOT NULL DEFAULT 0 CHECK (pending_count >= 0),
  withdrawn_cents int8 NOT NULL DEFAULT 0 CHECK (withdrawn_cents >= 0),
  available_cents int8 NOT NULL DEFAULT 0
);
CREATE TABLE coproducer_balances (
  user_id uuid PRIMARY KEY REFERENCES users (id),
  earned_cents int8 NOT NULL DEFAULT 0 CHECK (earned_cents >= 0),
  refunded_cents int8 NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
  withdrawn_cents int8 NOT NULL DEFAULT 0 CHECK (withdrawn_cents >= 0),
  available_cents int8 NOT NULL DEFAULT 0
);

-- One posting per business fact (the unique index makes a repeat impossible).
CREATE TABLE ledger_postings (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('sale', 'chargeback', 'refund_reserved', 'refund_paid',
    'refund_released', 'withdrawal_held', 'withdrawal_released', 'withdrawal_settled')),
  account_id uuid REFERENCES accounts (id),
  order_id uuid REFERENCES orders (id),
  refund_id uuid,
  withdrawal_id uuid,
  created_at timestamptz NOT NULL,
  CHECK (CASE
    WHEN kind IN ('sale', 'chargeback') THEN order_id IS NOT NULL
    WHEN kind LIKE 'refund_%' THEN refund_id IS NOT NULL
    ELSE withdrawal_id IS NOT NULL END)
);
CREATE UNIQUE INDEX ledger_postings_fact_key
  ON ledger_postings (kind, (CASE WHEN kind LIKE 'refund_%' THEN refund_id
    WHEN kind LIKE 'withdrawal_%' THEN withdrawal_id ELSE order_id END));
CREATE INDEX ledger_postings_order_idx ON ledger_postings (order_id);

CREATE TABLE ledger_entries (
  id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  posting_id uuid NOT NULL REFERENCES ledger_postings (id),
  book text NOT NULL CHECK (book IN ('creator', 'affiliate', 'coproducer', 'gateway',
    'refunds_payable', 'payouts_payable')),
  holder_id uuid,
  account_id uuid NOT NULL REFERENCES accounts (id),
  amount_cents int8 NOT NULL CHECK (amount_cents <> 0),
  created_at timestamptz NOT NULL,
  CHECK ((book IN ('creator', 'affiliate', 'coproducer')) = (holder_id IS NOT NULL)),
  CHECK (book <> 'creator' OR holder_id = account_id)
);
CREATE INDEX ledger_entries_posting_idx ON ledger_entries (posting_id);
CREATE INDEX ledger_entries_holder_idx ON ledger_entries (book, holder_id);

-- The ledger's own record of each withdrawal (keyed by the payouts module's withdrawal id) and
-- where a co-producer's or affiliate's withdrawal was charged: which shares, which accounts.
CREATE TABLE ledger_withdrawals (
  withdrawal_id uuid PRIMARY KEY,
  holder_kind text NOT NULL CHECK (holder_kind IN ('creator', 'affiliate', 'coproducer')),
  holder_id uuid NOT NULL,
  amount_cents int8 NOT NULL CHECK (amount_cents > 0),
  status text NOT NULL CHECK (status IN ('held', 'released', 'settled')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE withdrawal_allocations (
  withdrawal_id uuid NOT NULL REFERENCES ledger_withdrawals (withdrawal_id),
  share_id uuid NOT NULL REFERENCES order_shares (id),
  account_id uuid NOT NULL REFERENCES accounts (id),
  amount_cents int8 NOT NULL CHECK (amount_cents > 0),
  PRIMARY KEY (withdrawal_id, share_id)
);
CREATE INDEX withdrawal_allocations_share_idx ON withdrawal_allocations (share_id);

-- Append-only: no UPDATE, DELETE or TRUNCATE of postings or entries.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END $$;
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_postings_no_truncate BEFORE TRUNCATE ON ledger_postings
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

-- Double entry: at commit, every posting that received entries sums to zero.
CREATE FUNCTION ledger_posting_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total int8;
BEGIN
  SELECT COALESCE(SUM(amount_cents), 0) INTO total FROM ledger_entries
    WHERE posting_id = NEW.posting_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger posting % does not balance (sum %)', NEW.posting_id, total;
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_posting_balanced();

-- Running balances follow the entries: available per holder, and per creator account what it
-- owes its affiliates and co-producers (their lines are tagged with the account).
CREATE FUNCTION ledger_apply_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.book = 'creator' THEN
    UPDATE creator_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE account_id = NEW.holder_id;
  ELSIF NEW.book = 'affiliate' THEN
    UPDATE affiliate_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE user_id = NEW.holder_id;
    IF NOT FOUND THEN RAISE EXCEPTION 'no affiliate balance row for %', NEW.holder_id; END IF;
    UPDATE creator_balances SET affiliate_owed_cents = affiliate_owed_cents + NEW.amount_cents
      WHERE account_id = NEW.account_id;
  ELSIF NEW.book = 'coproducer' THEN
    UPDATE coproducer_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE user_id = NEW.holder_id;
    IF NOT FOUND THEN RAISE EXCEPTION 'no coproducer balance row for %', NEW.holder_id; END IF;
    UPDATE creator_balances SET coproducer_owed_cents = coproducer_owed_cents + NEW.amount_cents
      WHERE account_id = NEW.account_id;
  ELSE
    RETURN NULL;
  END IF;
  IF NOT FOUND THEN RAISE EXCEPTION 'no creator balance row for %', NEW.account_id; END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_entries_apply AFTER INSERT ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_apply_entry();

-- The seed's formulas hold on every balance row at every commit.
CREATE FUNCTION creator_balance_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE b creator_balances;
BEGIN
  SELECT * INTO b FROM creator_balances WHERE account_id = NEW.account_id;
  IF b.available_cents <> b.paid_cents - b.refunded_cents - b.withdrawn_cents
      - b.coproducer_owed_cents - b.affiliate_owed_cents THEN
    RAISE EXCEPTION 'creator balance of % breaks available = paid - refunded - withdrawn - owed',
      NEW.account_id;
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER creator_balances_formula AFTER INSERT OR UPDATE ON creator_balances
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION creator_balance_check();

CREATE FUNCTION affiliate_balance_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE b affiliate_balances;
BEGIN
  SELECT * INTO b FROM affiliate_balances WHERE user_id = NEW.user_id;
  IF b.available_cents <> b.paid_cents - b.withdrawn_cents THEN
    RAISE EXCEPTION 'affiliate balance of % breaks available = paid - withdrawn', NEW.user_id;
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER affiliate_balances_formula AFTER INSERT OR UPDATE ON affiliate_balances
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION affiliate_balance_check();

CREATE FUNCTION coproducer_balance_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE b coproducer_balances;
BEGIN
  SELECT * INTO b FROM coproducer_balances WHERE user_id = NEW.user_id;
  IF b.available_cents <> b.earned_cents - b.refunded_cents - b.withdrawn_cents THEN
    RAISE EXCEPTION 'coproducer balance of % breaks available = earned - refunded - withdrawn',
      NEW.user_id;
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER coproducer_balances_formula AFTER INSERT OR UPDATE ON coproducer_balances
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION coproducer_balance_check();

-- The seed's balance objects, field for field (centavos), computed by the seed's formulas.
CREATE VIEW creator_balance_view AS
  SELECT account_id, paid_cents AS paid_total, refunded_cents AS refunded_total,
    withdrawn_cents AS withdrawn_total, coproducer_owed_cents AS coproducer_owed,
    affiliate_owed_cents AS affiliate_owed,
    paid_cents - refunded_cents - withdrawn_cents - coproducer_owed_cents - affiliate_owed_cents
      AS available
  FROM creator_balances;
CREATE VIEW coproducer_balance_view AS
  SELECT user_id, earned_cents AS earned_total, refunded_cents AS refunded_total,
    withdrawn_cents AS withdrawn, earned_cents - refunded_cents - withdrawn_cents AS available
  FROM coproducer_balances;
CREATE VIEW affiliate_balance_view AS
  SELECT user_id, paid_cents AS paid_total, rejected_cents AS rejected_total, pending_count,
    withdrawn_cents AS withdrawn, paid_cents - withdrawn_cents AS available
  FROM affiliate_balances;
