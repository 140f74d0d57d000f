-- The sales ledger's next seq, taken by each writer transaction just before it commits (SalesLedgerAppend), instead
-- of AUTO_INCREMENT. The row stays locked from that moment to the commit, so entries commit in seq order and a
-- transaction that rolls back gives its seq back: whoever can read seq n can read every seq below it. The aggregator
-- therefore never meets a gap it would have to wait out or give up, whatever a database stall does, and no clock
-- decides anything (docs/reliability.md, "Exact without clocks").
-- Seqs before this migration came from AUTO_INCREMENT, so the ledger may hold gaps below the first value here: the
-- rollbacks of those days. Writers of the old version must be stopped before a writer of this one migrates.
CREATE TABLE IF NOT EXISTS ledger_head (
    id       TINYINT         NOT NULL,
    last_seq BIGINT UNSIGNED NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB;
INSERT IGNORE INTO ledger_head (id, last_seq) SELECT 1, COALESCE(MAX(seq), 0) FROM sales_ledger;
