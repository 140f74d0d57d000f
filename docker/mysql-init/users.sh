# shellcheck shell=bash
# Sourced by the MySQL image's entrypoint once, when the data volume is new. The schema owner's user (MYSQL_USER, made
# by the image), which only the schema-migration step uses, may grant what it creates: migration 0005 grants the sales
# ledger to the role supermarket_ledger_reader, the only privilege of the aggregator's user. The running writers' user
# reads and writes rows and nothing else, the load test's verifier only reads them (README, "Security"). Names and passwords are quoted as SQL strings.
sql_string() { printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/''/g")"; }
owner="$(sql_string "$MYSQL_USER")@'%'"
writer="$(sql_string "$MYSQL_WRITER_USER")@'%'"
reader="$(sql_string "$MYSQL_READER_USER")@'%'"
verifier="$(sql_string "$MYSQL_VERIFIER_USER")@'%'"
docker_process_sql --database=mysql <<-EOSQL
	GRANT ALL PRIVILEGES ON \`${MYSQL_DATABASE}\`.* TO ${owner} WITH GRANT OPTION;
	CREATE USER IF NOT EXISTS ${writer} IDENTIFIED BY $(sql_string "$MYSQL_WRITER_PASSWORD");
	GRANT SELECT, INSERT, UPDATE, DELETE ON \`${MYSQL_DATABASE}\`.* TO ${writer};
	CREATE USER IF NOT EXISTS ${verifier} IDENTIFIED BY $(sql_string "$MYSQL_VERIFIER_PASSWORD");
	GRANT SELECT ON \`${MYSQL_DATABASE}\`.* TO ${verifier};
	CREATE ROLE IF NOT EXISTS supermarket_ledger_reader;
	CREATE USER IF NOT EXISTS ${reader} IDENTIFIED BY $(sql_string "$MYSQL_READER_PASSWORD");
	GRANT supermarket_ledger_reader TO ${reader};
	SET DEFAULT ROLE supermarket_ledger_reader FOR ${reader};
EOSQL
