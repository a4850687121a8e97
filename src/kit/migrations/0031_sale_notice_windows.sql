-- Sale notices coalesced (issue 13, launch day): the owner is e-mailed at once for a sale after
-- a quiet spell, and the rest of the next minute's sales come in one summary. Gmail refuses an
-- account's mail for about a day past 60 messages a minute; a launch sells hundreds a second.
--
-- `sale_notice_until`: the end of the account's latest notice window. Written only by the sale
-- that opens a window (a conditional UPDATE the sales inside it never run: they read it when the
-- order is marked paid), so sales of one account do not meet on this row. Windows tile time: each
-- one starts where the one before it ended (`sale_notice_from`: where the latest starts), so every
-- sale falls in exactly one. Accounts that sold before this start counting now; new accounts
-- from their creation.
ALTER TABLE accounts ADD COLUMN sale_notice_until timestamptz DEFAULT now();
ALTER TABLE accounts ALTER COLUMN sale_notice_until DROP DEFAULT;
ALTER TABLE accounts ADD COLUMN sale_notice_from timestamptz;

-- A window waiting for its summary of the sales in it but its opener's (told on its own): its
-- span and its opener. Summarized a margin after it ends, so late commits are counted, and
-- deleted in the transaction that queues the summary: the mails keep what was told.
CREATE TABLE sale_notice_windows (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  opened_by uuid NOT NULL REFERENCES orders (id),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL
);
CREATE INDEX sale_notice_windows_ends_idx ON sale_notice_windows (ends_at);
