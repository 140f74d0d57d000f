-- Ledger entries carry each line's day from this release on (SalesLedgerEntry's format 1, #73). The entries of the
-- releases before (format 0) carry none, so the aggregators could not count those sales into days, and would refuse
-- every range of days. The step that follows this script (SchemaMigration.DateEarlierSalesAsync, in C#) appends
-- dating entries (format 2): the sums of every purchase stored so far by store, item and day, which the aggregators
-- count into their days only. Before this migration no writer of this release has run, so the purchases then stored
-- are exactly those of the format 0 entries. Writers of the release before that keep writing during a rolling upgrade
-- leave sales undated for good, and the ranges refused (docs/operations.md, "Dating old sales").
DO 0;
