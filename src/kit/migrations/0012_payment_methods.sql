-- Card and boleto on one-time products (SPEC §4, issue 11). Each product says which payment
-- methods its checkout offers (the seed's defaults: PIX only for one_time, all three for
-- recurring), in how many card installments at most, and who pays their interest.
ALTER TABLE products ADD COLUMN payment_methods text[];
UPDATE products SET payment_methods = CASE billing
  WHEN 'one_time' THEN ARRAY['pix']::text[] ELSE ARRAY['pix', 'card', 'boleto']::text[] END;
ALTER TABLE products ALTER COLUMN payment_methods SET NOT NULL;
ALTER TABLE products ADD CONSTRAINT products_payment_methods_check
  CHECK (cardinality(payment_methods) >= 1
    AND payment_methods <@ ARRAY['pix', 'card', 'boleto']::text[]);
ALTER TABLE products ADD COLUMN max_installments int;
UPDATE products SET max_installments = CASE billing WHEN 'one_time' THEN 1 ELSE 12 END;
ALTER TABLE products ALTER COLUMN max_installments SET NOT NULL;
ALTER TABLE products ADD CONSTRAINT products_max_installments_check
  CHECK (max_installments BETWEEN 1 AND 12);
ALTER TABLE products ADD COLUMN installment_interest text NOT NULL DEFAULT 'seller'
  CHECK (installment_interest IN ('seller', 'buyer'));

-- An order paid by card in installments: how many, and the interest the buyer paid on top of
-- the price (in amount_cents, which is what the gateway charged). The interest is the
-- platform's (it pays the gateway's anticipation); the shares are computed on the rest.
ALTER TABLE orders ADD COLUMN installments int NOT NULL DEFAULT 1
  CHECK (installments BETWEEN 1 AND 12);
ALTER TABLE orders ADD COLUMN interest_cents int8 NOT NULL DEFAULT 0
  CHECK (interest_cents >= 0 AND interest_cents <= amount_cents);

-- The platform's revenue from installment interest.
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_book_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_book_check CHECK (book IN ('creator',
  'affiliate', 'coproducer', 'gateway', 'refunds_payable', 'payouts_payable',
  'platform_receivable', 'platform_revenue'));
