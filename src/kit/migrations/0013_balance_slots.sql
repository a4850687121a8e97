-- Striped creator balances (issue 13, "no hot row"). One balance row per account made every
-- sale of that account queue on it during a launch. Now an account has up to 16 slot rows
-- (account_id, slot) and its balance is their sum (16 rows at most: still O(1) to read).
-- A sale adds to one slot (picked at random), so concurrent sales of one account rarely meet.
-- A change that must check `available` (a creator's withdrawal, a refund reservation) locks
-- every slot of the account in slot order, reads the sum and writes into slot 0, which it
-- holds: every such checker locks slot 0 first, so two of them always see each other.
--
-- A slot's own counters may go below zero (a refund lands in another slot than its sale); the
-- seed's rules (counters never negative, available = paid - refunded - withdrawn - owed) are
-- checked over the account's sum at every commit instead of per row.

ALTER TABLE creator_balances ADD COLUMN slot smallint NOT NULL DEFAULT 0
  CHECK (slot BETWEEN 0 AND 15);
ALTER TABLE creator_balances DROP CONSTRAINT creator_balances_pkey;
ALTER TABLE creator_balances ADD PRIMARY KEY (account_id, slot);
ALTER TABLE creator_balances DROP CONSTRAINT creator_balances_paid_cents_check;
ALTER TABLE creator_balances DROP CONSTRAINT creator_balances_refunded_cents_check;
ALTER TABLE creator_balances DROP CONSTRAINT creator_balances_withdrawn_cents_check;

-- Which slot of the creator rows an entry moves (the trigger below follows it). Existing
-- entries were all applied to what is now slot 0.
ALTER TABLE ledger_entries ADD COLUMN slot smallint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION ledger_apply_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.book = 'creator' THEN
    UPDATE creator_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE account_id = NEW.holder_id AND slot = NEW.slot;
  ELSIF NEW.book = 'affiliate' THEN
    UPDATE affiliate_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE user_id = NEW.holder_id;
    IF NOT FOUND THEN RAISE EXCEPTION 'no affiliate balance row for %', NEW.holder_id; END IF;
    UPDATE creator_balances SET affiliate_owed_cents = affiliate_owed_cents + NEW.amount_cents
      WHERE account_id = NEW.account_id AND slot = NEW.slot;
  ELSIF NEW.book = 'coproducer' THEN
    UPDATE coproducer_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE user_id = NEW.holder_id;
    IF NOT FOUND THEN RAISE EXCEPTION 'no coproducer balance row for %', NEW.holder_id; END IF;
    UPDATE creator_balances SET coproducer_owed_cents = coproducer_owed_cents + NEW.amount_cents
      WHERE account_id = NEW.account_id AND slot = NEW.slot;
  ELSE
    RETURN NULL;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no creator balance row for % slot %', NEW.account_id, NEW.slot;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION creator_balance_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  paid int8; refunded int8; withdrawn int8; coproducer_owed int8; affiliate_owed int8;
  available int8;
BEGIN
  SELECT SUM(b.paid_cents), SUM(b.refunded_cents), SUM(b.withdrawn_cents),
      SUM(b.coproducer_owed_cents), SUM(b.affiliate_owed_cents), SUM(b.available_cents)
    INTO paid, refunded, withdrawn, coproducer_owed, affiliate_owed, available
    FROM creator_balances b WHERE b.account_id = NEW.account_id;
  IF paid < 0 OR refunded < 0 OR withdrawn < 0 THEN
    RAISE EXCEPTION 'creator balance of % has a negative total (paid %, refunded %, withdrawn %)',
      NEW.account_id, paid, refunded, withdrawn;
  END IF;
  IF available <> paid - refunded - withdrawn - coproducer_owed - affiliate_owed THEN
    RAISE EXCEPTION 'creator balance of % breaks available = paid - refunded - withdrawn - owed',
      NEW.account_id;
  END IF;
  RETURN NULL;
END $$;

-- The seed's balance object: the sum of the account's slots (a WHERE on account_id is pushed
-- below the GROUP BY, so one account reads its own ≤ 16 rows).
DROP VIEW creator_balance_view;
CREATE VIEW creator_balance_view AS
  SELECT account_id, SUM(paid_cents)::int8 AS paid_total,
    SUM(refunded_cents)::int8 AS refunded_total,
    SUM(withdrawn_cents)::int8 AS withdrawn_total,
    SUM(coproducer_owed_cents)::int8 AS coproducer_owed,
    SUM(affiliate_owed_cents)::int8 AS affiliate_owed,
    SUM(paid_cents - refunded_cents - withdrawn_cents - coproducer_owed_cents
      - affiliate_owed_cents)::int8 AS available
  FROM creator_balances
  GROUP BY account_id;
