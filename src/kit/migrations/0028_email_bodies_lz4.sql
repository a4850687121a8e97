-- Mail bodies compressed with lz4 where the server has it (issue 13): a purchase's three mails
-- are each a little over the 2 kB at which PostgreSQL compresses a row, and pglz spent ~120 k
-- instructions a purchase compressing them (callgrind, 1.4 % of a purchase's); lz4 does the
-- same work several times faster. Servers built without lz4 (PGlite) keep pglz. Applies to
-- bodies written from now on.
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_settings
      WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE emails ALTER COLUMN text_body SET COMPRESSION lz4,
      ALTER COLUMN html_body SET COMPRESSION lz4;
  END IF;
END $$;
