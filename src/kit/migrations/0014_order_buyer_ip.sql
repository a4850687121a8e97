-- The buyer's IP at checkout: card gateways ask for it with every charge of the card, renewals
-- included (Asaas' remoteIp must be the buyer's, never the server's). Kept with the order.
ALTER TABLE orders ADD COLUMN buyer_ip text;
