-- Sliding-log rate limits: one row per bucket holding the instants of its accepted hits in
-- the last window, so "30 a minute" holds over any 60 s, not per clock minute (a fixed window
-- let 60 through across a minute boundary).
DROP TABLE rate_limit_windows;
CREATE TABLE rate_limits (
  bucket text PRIMARY KEY,
  hits timestamptz[] NOT NULL,
  -- Whether the latest hit was let through (set by the same statement that records it).
  allowed boolean NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_updated_idx ON rate_limits (updated_at);
