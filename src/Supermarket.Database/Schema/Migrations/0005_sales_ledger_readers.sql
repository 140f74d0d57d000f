-- The sales ledger is the writer's contract with the aggregator (SalesLedgerAppend), and all of it the aggregator may
-- read: its database user has this role and nothing else (docs/security.md), so it cannot read purchases, customers
-- or idempotency keys. Granted here because MySQL grants SELECT on a table only once the table exists; whoever
-- provisions the database creates the role and gives it to the aggregator's user (scripts/services.sh, docker/).
GRANT SELECT ON sales_ledger TO supermarket_ledger_reader;
GRANT SELECT ON ledger_identity TO supermarket_ledger_reader;
