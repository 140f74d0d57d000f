-- The purchases tables, created idempotently at start by every process that uses them.
-- Ids are UUIDv7 stored big-endian, so new rows append to the end of the primary key instead of
-- splitting random InnoDB pages (ceilings.md: almost twice the insert rate).

-- MySql.Data 8.0.16 (the connector the registry here has) fails reading the warnings MariaDB 10.11 attaches to a
-- statement: it cannot decode their utf8mb3 metadata. "Table already exists" is only a note, so switch notes off.
SET SESSION sql_notes = 0;
CREATE TABLE IF NOT EXISTS purchases (
    id            BINARY(16)  NOT NULL,
    store_id      INT         NOT NULL,
    customer_id   INT         NOT NULL,
    purchase_date DATE        NOT NULL,
    received_at   DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    KEY ix_purchases_store_date (store_id, purchase_date),
    KEY ix_purchases_customer (customer_id)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS purchase_items (
    purchase_id BINARY(16) NOT NULL,
    line_no     SMALLINT   NOT NULL,
    item_id     INT        NOT NULL,
    quantity    INT        NOT NULL,
    PRIMARY KEY (purchase_id, line_no)
) ENGINE = InnoDB;
