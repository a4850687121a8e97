-- Tenant keys through the parent (issue 13): a row that names both a parent and the account
-- checked each against its own table — the parent's id, then the account's id — in two
-- foreign-key checks, and nothing proved the two agree (an order of account A for a product
-- of account B, a delivery of A to B's endpoint, an order for another product's plan). A
-- composite key checks parent and tenant in one lookup and proves they agree; the account
-- still exists because the parent's own key says so.
--
-- Fewer checks a purchase: its order makes three instead of four, its access grant three
-- instead of four, each webhook delivery two instead of three (a purchase notifying one
-- endpoint of four events: six fewer). Each parent gets a unique index on (id, tenant):
-- products, plans and endpoints are few and seldom written, so no purchase pays for it.
--
-- Adding a key reads its table once to validate it (and fails, naming the rows' key, where
-- existing rows disagree: a row pointing at another tenant's parent was a bug to fix first).
-- The migration's transaction holds each table against writes meanwhile: on a large install,
-- run it when sales are quiet, or add the keys NOT VALID and VALIDATE them apart.

ALTER TABLE products ADD CONSTRAINT products_id_account_key UNIQUE (id, account_id);
ALTER TABLE plans ADD CONSTRAINT plans_id_product_key UNIQUE (id, product_id);
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_id_account_key
  UNIQUE (id, account_id);

ALTER TABLE orders
  DROP CONSTRAINT orders_account_id_fkey,
  DROP CONSTRAINT orders_product_id_fkey,
  DROP CONSTRAINT orders_plan_id_fkey,
  ADD CONSTRAINT orders_product_fkey FOREIGN KEY (product_id, account_id)
    REFERENCES products (id, account_id),
  ADD CONSTRAINT orders_plan_fkey FOREIGN KEY (plan_id, product_id)
    REFERENCES plans (id, product_id);

ALTER TABLE subscriptions
  DROP CONSTRAINT subscriptions_account_id_fkey,
  DROP CONSTRAINT subscriptions_product_id_fkey,
  DROP CONSTRAINT subscriptions_plan_id_fkey,
  ADD CONSTRAINT subscriptions_product_fkey FOREIGN KEY (product_id, account_id)
    REFERENCES products (id, account_id),
  ADD CONSTRAINT subscriptions_plan_fkey FOREIGN KEY (plan_id, product_id)
    REFERENCES plans (id, product_id);

ALTER TABLE access_grants
  DROP CONSTRAINT access_grants_account_id_fkey,
  DROP CONSTRAINT access_grants_product_id_fkey,
  ADD CONSTRAINT access_grants_product_fkey FOREIGN KEY (product_id, account_id)
    REFERENCES products (id, account_id);

ALTER TABLE order_shares
  DROP CONSTRAINT order_shares_account_id_fkey,
  DROP CONSTRAINT order_shares_product_id_fkey,
  ADD CONSTRAINT order_shares_product_fkey FOREIGN KEY (product_id, account_id)
    REFERENCES products (id, account_id);

ALTER TABLE webhook_deliveries
  DROP CONSTRAINT webhook_deliveries_account_id_fkey,
  DROP CONSTRAINT webhook_deliveries_endpoint_id_fkey,
  ADD CONSTRAINT webhook_deliveries_endpoint_fkey FOREIGN KEY (endpoint_id, account_id)
    REFERENCES webhook_endpoints (id, account_id);
