-- Striped affiliate and co-producer balances (issue 13, "no hot row"), as 0013 did creators:
-- one balance row per holder made every sale through one affiliate's link (or of a product
-- with a co-producer) queue on it during a launch. Now a holder has 16 slot rows (user_id,
-- slot) and its balance is their sum (still O(1) to read). A sale adds to one random slot and
-- locks only that one; a change that checks the holder's available or moves its shares'
-- allocations (withdrawals, refunds, chargebacks) locks all 16 in slot order and writes slot 0.
--
-- Unlike creators, a holder gets its 16 rows at once (here for existing holders, then at its
-- first change): holder rows also guard the allocation of withdrawals to shares, so "every
-- slot locked" must exclude every sale of that holder, including one that would otherwise be
-- creating a new slot row meanwhile (a row nobody could have locked).
--
-- A slot's own counters may go below zero (a refund lands in another slot than its sale); the
-- seed's rules are checked over the holder's sum at every commit instead of per row (the
-- deferred formula triggers of 0005_b stay; their functions now sum the slots).

ALTER TABLE affiliate_balances ADD COLUMN slot smallint NOT NULL DEFAULT 0
  CHECK (slot BETWEEN 0 AND 15);
ALTER TABLE affiliate_balances DROP CONSTRAINT affiliate_balances_pkey;
ALTER TABLE affiliate_balances ADD PRIMARY KEY (user_id, slot);
ALTER TABLE affiliate_balances DROP CONSTRAINT affiliate_balances_paid_cents_check;
ALTER TABLE affiliate_balances DROP CONSTRAINT affiliate_balances_rejected_cents_check;
ALTER TABLE affiliate_balances DROP CONSTRAINT affiliate_balances_withdrawn_cents_check;

ALTER TABLE coproducer_balances ADD COLUMN slot smallint NOT NULL DEFAULT 0
  CHECK (slot BETWEEN 0 AND 15);
ALTER TABLE coproducer_balances DROP CONSTRAINT coproducer_balances_pkey;
ALTER TABLE coproducer_balances ADD PRIMARY KEY (user_id, slot);
ALTER TABLE coproducer_balances DROP CONSTRAINT coproducer_balances_earned_cents_check;
ALTER TABLE coproducer_balances DROP CONSTRAINT coproducer_balances_refunded_cents_check;
ALTER TABLE coproducer_balances DROP CONSTRAINT coproducer_balances_withdrawn_cents_check;

INSERT INTO affiliate_balances (user_id, slot)
  SELECT b.user_id, s FROM affiliate_balances b, generate_series(1, 15) AS s;
INSERT INTO coproducer_balances (user_id, slot)
  SELECT b.user_id, s FROM coproducer_balances b, generate_series(1, 15) AS s;

-- An entry of a holder's book moves that holder's slot NEW.slot and the same slot of the
-- creator account that owes it (a change writes one slot number everywhere).
CREATE OR REPLACE FUNCTION ledger_apply_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.book = 'creator' THEN
    UPDATE creator_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE account_id = NEW.holder_id AND slot = NEW.slot;
  ELSIF NEW.book = 'affiliate' THEN
    UPDATE affiliate_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE user_id = NEW.holder_id AND slot = NEW.slot;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'no affiliate balance row for % slot %', NEW.holder_id, NEW.slot;
    END IF;
    UPDATE creator_balances SET affiliate_owed_cents = affiliate_owed_cents + NEW.amount_cents
      WHERE account_id = NEW.account_id AND slot = NEW.slot;
  ELSIF NEW.book = 'coproducer' THEN
    UPDATE coproducer_balances SET available_cents = available_cents + NEW.amount_cents
      WHERE user_id = NEW.holder_id AND slot = NEW.slot;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'no coproducer balance row for % slot %', NEW.holder_id, NEW.slot;
    END IF;
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

CREATE OR REPLACE FUNCTION affiliate_balance_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE paid int8; rejected int8; withdrawn int8; available int8;
BEGIN
  SELECT SUM(b.paid_cents), SUM(b.rejected_cents), SUM(b.withdrawn_cents), SUM(b.available_cents)
    INTO paid, rejected, withdrawn, available
    FROM affiliate_balances b WHERE b.user_id = NEW.user_id;
  IF paid < 0 OR rejected < 0 OR withdrawn < 0 THEN
    RAISE EXCEPTION 'affiliate balance of % has a negative total (paid %, rejected %, withdrawn %)',
      NEW.user_id, paid, rejected, withdrawn;
  END IF;
  IF available <> paid - withdrawn THEN
    RAISE EXCEPTION 'affiliate balance of % breaks available = paid - withdrawn', NEW.user_id;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION coproducer_balance_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE earned int8; refunded int8; withdrawn int8; available int8;
BEGIN
  SELECT SUM(b.earned_cents), SUM(b.refunded_cents), SUM(b.withdrawn_cents),
      SUM(b.available_cents)
    INTO earned, refunded, withdrawn, available
    FROM coproducer_balances b WHERE b.user_id = NEW.user_id;
  IF earned < 0 OR refunded < 0 OR withdrawn < 0 THEN
    RAISE EXCEPTION 'coproducer balance of % has a negative total (earned %, refunded %, withdrawn %)',
      NEW.user_id, earned, refunded, withdrawn;
  END IF;
  IF available <> earned - refunded - withdrawn THEN
    RAISE EXCEPTION 'coproducer balance of % breaks available = earned - refunded - withdrawn',
      NEW.user_id;
  END IF;
  RETURN NULL;
END $$;

-- The seed's balance objects: sums of the holder's slots (a WHERE on user_id reaches the
-- grouped rows, so one holder reads its own 16 rows).
DROP VIEW coproducer_balance_view;
CREATE VIEW coproducer_balance_view AS
  SELECT user_id, SUM(earned_cents)::int8 AS earned_total,
    SUM(refunded_cents)::int8 AS refunded_total,
    SUM(withdrawn_cents)::int8 AS withdrawn,
    SUM(earned_cents - refunded_cents - withdrawn_cents)::int8 AS available
  FROM coproducer_balances
  GROUP BY user_id;

-- Every user still has an affiliate balance (zeros until they earn), as 0005_d made it.
DROP VIEW affiliate_balance_view;
CREATE VIEW affiliate_balance_view AS
  SELECT u.id AS user_id,
    COALESCE(b.paid_total, 0)::int8 AS paid_total,
    COALESCE(b.rejected_total, 0)::int8 AS rejected_total,
    (SELECT COUNT(*) FROM order_shares s
      WHERE s.kind = 'commission' AND s.user_id = u.id AND s.status = 'pending') AS pending_count,
    COALESCE(b.withdrawn, 0)::int8 AS withdrawn,
    COALESCE(b.paid_total - b.withdrawn, 0)::int8 AS available
  FROM users u LEFT JOIN LATERAL (
    SELECT SUM(paid_cents) AS paid_total, SUM(rejected_cents) AS rejected_total,
      SUM(withdrawn_cents) AS withdrawn
    FROM affiliate_balances a WHERE a.user_id = u.id
  ) b ON true;
