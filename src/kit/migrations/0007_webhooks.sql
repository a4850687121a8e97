-- Webhooks, production grade (issue 5): secret rotation with a 24 h overlap, automatic
-- disabling (410, or failing for 24 h straight), manual retries, per-endpoint concurrency.
ALTER TABLE webhook_endpoints
  ADD COLUMN previous_secret_sealed text,
  ADD COLUMN previous_secret_expires_at timestamptz,
  -- The first failed attempt since the last success; cleared by any success.
  ADD COLUMN failing_since timestamptz,
  ADD COLUMN disabled_reason text;

-- A manual retry grants a delivery one more attempt beyond the automatic ones.
ALTER TABLE webhook_deliveries ADD COLUMN max_attempts int NOT NULL DEFAULT 5;

-- The claim walks the endpoints with pending work and takes a few due deliveries of each.
CREATE INDEX webhook_deliveries_queue_idx ON webhook_deliveries (endpoint_id, next_attempt_at)
  WHERE status = 'pending';
-- Deliveries in flight (leased) per endpoint, for the concurrency cap.
CREATE INDEX webhook_deliveries_inflight_idx ON webhook_deliveries (endpoint_id, locked_until)
  WHERE status = 'pending' AND locked_until IS NOT NULL;
