-- Manual payouts (PAYOUT_PROVIDER=manual, SPEC §5a): the admin sends the PIX by hand and records
-- the end-to-end id the bank gave it (E + ISPB + date and time + sequence, 32 characters); a
-- PIX has one, so one id never pays two withdrawals.
ALTER TABLE withdrawals ADD COLUMN end_to_end_id text;
CREATE UNIQUE INDEX withdrawals_end_to_end_id_key ON withdrawals (end_to_end_id)
  WHERE end_to_end_id IS NOT NULL;

-- The sandbox's slow bank: a transfer to a test key at @processando.example answers `pending`
-- until this time, as a real transfer does while the bank processes it.
ALTER TABLE sandbox_transfers ADD COLUMN settles_at timestamptz;
