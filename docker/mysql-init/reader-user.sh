# Sourced by the MySQL image's entrypoint once, when the data volume is new. The writer's user (MYSQL_USER, made by the
# image) may grant what it creates: its migration 0005 grants the sales ledger to the role supermarket_ledger_reader,
# the only privilege of the aggregator's user (README, "Security"). Names and passwords are quoted as SQL strings.
sql_string() { printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/''/g")"; }
writer="$(sql_string "$MYSQL_USER")@'%'"
reader="$(sql_string "$MYSQL_READER_USER")@'%'"
docker_process_sql --database=mysql <<-EOSQL
	GRANT ALL PRIVILEGES ON \`${MYSQL_DATABASE}\`.* TO ${writer} WITH GRANT OPTION;
	CREATE ROLE IF NOT EXISTS supermarket_ledger_reader;
	CREATE USER IF NOT EXISTS ${reader} IDENTIFIED BY $(sql_string "$MYSQL_READER_PASSWORD");
	GRANT supermarket_ledger_reader TO ${reader};
	SET DEFAULT ROLE supermarket_ledger_reader FOR ${reader};
EOSQL
