-- A purchase's lines move into its own row, as a JSON array of [item, quantity] pairs in line order: one row and
-- three index entries per purchase instead of six rows and eight, the largest part of MariaDB's cost per purchase
-- (docs/performance.md, "Levers in the code"). The lines stay queryable with SQL:
--   SELECT l.item_id, l.quantity FROM purchases p,
--     JSON_TABLE(p.items, '$[*]' COLUMNS (item_id INT PATH '$[0]', quantity INT PATH '$[1]')) AS l
-- Each statement can run again if the migration stopped part-way (DDL is not transactional in MariaDB).
CREATE TABLE IF NOT EXISTS purchase_items (
    purchase_id BINARY(16) NOT NULL,
    line_no     SMALLINT   NOT NULL,
    item_id     INT        NOT NULL,
    quantity    INT        NOT NULL,
    PRIMARY KEY (purchase_id, line_no)
) ENGINE = InnoDB;
ALTER TABLE purchases ADD COLUMN IF NOT EXISTS items TEXT NULL;
UPDATE purchases p
SET p.items = (SELECT JSON_ARRAYAGG(JSON_ARRAY(i.item_id, i.quantity) ORDER BY i.line_no) FROM purchase_items i WHERE i.purchase_id = p.id)
WHERE p.items IS NULL;
ALTER TABLE purchases MODIFY items TEXT NOT NULL;
DROP TABLE purchase_items;
