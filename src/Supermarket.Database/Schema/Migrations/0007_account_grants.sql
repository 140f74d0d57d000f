-- Each service's database account may run its own statements and no others (#57), granted here table by table, once
-- for every way the system is provisioned: the AppHost (Services/MariaDb.cs), docker/mysql-init/users.sh and
-- infra/hooks/mysql-users.sh only make the roles and give each account its own, as they do for migration 0005's
-- supermarket_ledger_reader.
--
-- The running writers store purchases with their ledger entry (PurchaseStore, SalesLedgerAppend), claim idempotency
-- keys (IdempotencyKeyStore), move and repair the ledger's head, read purchase history, and check the schema's version
-- (SchemaIsCurrent). What is stored they may not rewrite or delete: no purchase, no counted ledger entry, no claim
-- deleted; nor move ledger_identity (a hole declared filled would be skipped for good) nor record a migration.
GRANT SELECT, INSERT ON purchases TO supermarket_purchases_writer;
GRANT SELECT, INSERT ON sales_ledger TO supermarket_purchases_writer;
-- UPDATE on the table, not its column: MySQL 8 asks it of SELECT ... FOR UPDATE, which takes the head's lock.
GRANT SELECT, INSERT, UPDATE ON ledger_head TO supermarket_purchases_writer;
-- UPDATE on the table: MariaDB asks it, of every column inserted, of a claim's INSERT ... ON DUPLICATE KEY UPDATE
-- (which rewrites nothing). No DELETE: a claim, once made, stays.
GRANT SELECT, INSERT, UPDATE ON idempotency_keys TO supermarket_purchases_writer;
GRANT SELECT ON schema_versions TO supermarket_purchases_writer;

-- The load test's verifier reads what was stored and counted (Supermarket.Database.LoadTest's StoredSales).
GRANT SELECT ON purchases TO supermarket_verifier;
GRANT SELECT ON sales_ledger TO supermarket_verifier;
GRANT SELECT ON ledger_head TO supermarket_verifier;
