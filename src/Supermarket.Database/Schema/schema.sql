-- The schema of a database every migration has run on from nothing, to read: MariaDB's SHOW CREATE of each table
-- (then of each view, trigger and routine, when a migration makes one), by name. Never applied, nor embedded: the
-- numbered scripts in Migrations/ are what runs (SchemaMigration, the migration step), and this file follows them.
-- SchemaFileTests checks it against a database migrated from nothing; after a migration that changes the schema, that
-- test fails and writes what it found to .local/test-results/schema.migrated.sql, to copy over this file.
-- Left out: what varies from server to server (an AUTO_INCREMENT counter, the character set and collation a table takes
-- from the server, definers); the rows migrations 0001 and 0004 write (one each in ledger_identity and ledger_head);
-- and the accounts and grants, which each environment provisions: the roles are in DatabaseRoles.cs, what each is
-- granted in migrations 0005, 0007 and 0009.

CREATE TABLE `idempotency_keys` (
  `store_id` int(11) NOT NULL,
  `idempotency_key` varbinary(128) NOT NULL,
  `request_hash` binary(32) NOT NULL,
  `claimed_at` datetime(6) NOT NULL,
  PRIMARY KEY (`store_id`,`idempotency_key`)
) ENGINE=InnoDB;

CREATE TABLE `ledger_head` (
  `id` tinyint(4) NOT NULL,
  `last_seq` bigint(20) unsigned NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB;

CREATE TABLE `ledger_identity` (
  `id` binary(16) NOT NULL,
  `gapless_after` bigint(20) unsigned NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB;

CREATE TABLE `purchases` (
  `id` binary(16) NOT NULL,
  `store_id` int(11) NOT NULL,
  `customer_id` int(11) NOT NULL,
  `purchase_date` date NOT NULL,
  `received_at` datetime(6) NOT NULL,
  `items` text NOT NULL,
  `purchase_month` mediumint(8) unsigned GENERATED ALWAYS AS (extract(year_month from `purchase_date`)) VIRTUAL,
  PRIMARY KEY (`id`),
  KEY `ix_purchases_store_day` (`store_id`,`purchase_date`,`received_at`),
  KEY `ix_purchases_month_customer` (`purchase_month`,`customer_id`,`purchase_date`,`received_at`)
) ENGINE=InnoDB;

CREATE TABLE `sales_ledger` (
  `seq` bigint(20) unsigned NOT NULL,
  `stored_at` datetime(6) NOT NULL,
  `purchases` int(11) NOT NULL,
  `sales` mediumblob NOT NULL,
  PRIMARY KEY (`seq`)
) ENGINE=InnoDB;

CREATE TABLE `schema_versions` (
  `version` int(11) NOT NULL,
  `name` varchar(200) NOT NULL,
  `applied_at` datetime(6) NOT NULL,
  PRIMARY KEY (`version`)
) ENGINE=InnoDB;
