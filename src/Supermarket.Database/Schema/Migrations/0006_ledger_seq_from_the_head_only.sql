-- The sales ledger's seq comes from ledger_head only (SalesLedgerAppend). Migration 0004 left AUTO_INCREMENT on it, so
-- a writer from before 0004 still running beside a newer one (a rolling upgrade) took seqs the head did not know of,
-- and the newer writers' next seqs collided with them. Without AUTO_INCREMENT such an INSERT is refused (no value
-- for seq): that writer fails and retries instead of writing beside the head.
ALTER TABLE sales_ledger MODIFY seq BIGINT UNSIGNED NOT NULL;

-- Seqs up to gapless_after were taken before the ledger was gapless (AUTO_INCREMENT's rolled-back values left holes
-- that will never fill); above it the ledger has no holes, and the aggregator never moves past a seq it has not read
-- (SalesLedgerFeed). Read under the head's lock, so no transaction still holds a seq below it. In ledger_identity,
-- which the aggregator's role may read.
ALTER TABLE ledger_identity ADD COLUMN IF NOT EXISTS gapless_after BIGINT UNSIGNED NOT NULL DEFAULT 0;
BEGIN;
SELECT last_seq FROM ledger_head WHERE id = 1 FOR UPDATE;
UPDATE ledger_identity SET gapless_after = COALESCE((SELECT last_seq FROM ledger_head WHERE id = 1), 0);
COMMIT;
