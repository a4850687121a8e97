-- An anonymous caller's key found again from another IP with the same request (a buyer whose
-- phone moved from Wi-Fi to 4G after losing an answer): looked up by key and request at every
-- anonymous claim (kit/http/idempotency.ts), so it has an index of its own, only over those keys.
CREATE INDEX idempotency_keys_anonymous_idx ON idempotency_keys (key, request_hash)
  WHERE owner LIKE 'ip:%';
