-- Sale notifications (issue 12): the account's owner gets an e-mail for every paid order unless
-- the account turned it off. Read by the statement that marks the order paid, so the setting
-- costs a purchase no statement of its own.
ALTER TABLE accounts ADD COLUMN sale_notifications boolean NOT NULL DEFAULT true;
