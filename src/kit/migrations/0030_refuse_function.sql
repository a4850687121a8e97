-- A statement's own assertion (issue 13): `refuse(message)` raises an error with that message,
-- so a statement can fail itself on what it found instead of the service checking its answer
-- afterwards. A statement that commits its transaction with it (kit/db.ts ENDS_TRANSACTION)
-- has no afterwards: a check of its answer would run after the COMMIT. Volatile (the default),
-- so PostgreSQL never evaluates it ahead of the CASE branch that calls it.
CREATE FUNCTION refuse(message text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', message;
END
$$;
