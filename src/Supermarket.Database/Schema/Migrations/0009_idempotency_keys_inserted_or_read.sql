-- A claim of an Idempotency-Key is inserted, or read when its key was claimed first (IdempotencyKeyStore): the writers'
-- role no longer updates idempotency_keys, which migration 0007 granted for the INSERT ... ON DUPLICATE KEY UPDATE a
-- claim was made with (#72). With UPDATE, a writer's account could rewrite a claim's request, and the key would then
-- stand for another purchase than the one it made.
-- Granted before it is revoked, so that the migration can run again if it stopped before it was recorded (a REVOKE
-- of what is not granted is an error, 1141 or 1147). A database migrated before ends with the grants of a new one.
-- In a rolling upgrade, the writers of the release before claim keys with that UPDATE until they are replaced: their
-- claims are refused meanwhile, and a keyed POST they would have answered is a 503 the till retries.
GRANT UPDATE ON idempotency_keys TO supermarket_purchases_writer;
REVOKE UPDATE ON idempotency_keys FROM supermarket_purchases_writer;
