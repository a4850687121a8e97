-- The product's image on the hosted checkout (issue 12): an https URL the creator hosts.
ALTER TABLE products ADD COLUMN IF NOT EXISTS image_url text;
