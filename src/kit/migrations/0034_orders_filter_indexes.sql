-- The orders list's filters, each answered by an index in the list's order (issue 13, point 7:
-- every page a client may ask for). With only (account_id, created_at, id), a filter that keeps
-- few of an account's orders — a buyer's e-mail, a refunded status, one product of many, boleto
-- among PIX — walked the account's orders reading each from the table, and at 1 M orders the
-- planner scanned the whole table instead: 135–153 ms for page 1, 0.1–0.4 ms with these. A
-- sale writes two entries into each (its order is inserted, then updated when paid, and that
-- update was never heap-only: `paid_at` is indexed). Combined filters use the most selective.
CREATE INDEX orders_account_buyer_email_idx
  ON orders (account_id, buyer_email, created_at DESC, id DESC);
CREATE INDEX orders_account_status_idx ON orders (account_id, status, created_at DESC, id DESC);
CREATE INDEX orders_account_product_idx
  ON orders (account_id, product_id, created_at DESC, id DESC);
CREATE INDEX orders_account_method_idx
  ON orders (account_id, payment_method, created_at DESC, id DESC);
