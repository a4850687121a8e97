-- The same anonymous request under the same key (the same key and body from another IP) is one
-- request: made unique, so that two of them arriving together cannot both claim the key and
-- both run (0032's index only served a look before the insert). Any such pair already kept
-- keeps its first.
DELETE FROM idempotency_keys later USING idempotency_keys first
WHERE later.owner LIKE 'ip:%' AND first.owner LIKE 'ip:%'
  AND later.key = first.key AND later.request_hash = first.request_hash
  AND (later.created_at, later.owner) > (first.created_at, first.owner);
DROP INDEX idempotency_keys_anonymous_idx;
CREATE UNIQUE INDEX idempotency_keys_anonymous_key ON idempotency_keys (key, request_hash)
  WHERE owner LIKE 'ip:%';
