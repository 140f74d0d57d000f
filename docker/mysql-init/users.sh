# shellcheck shell=bash
# Sourced by the MySQL image's entrypoint once, when the data volume is new. The schema owner's user (MYSQL_USER, made
# by the image), which only the schema-migration step uses, may grant what it creates: the migrations grant each role
# below, table by table, what its service's statements need (Supermarket.Database's Schema/DatabaseRoles.cs), and each
# other account has its role and nothing else. Names and passwords are quoted as SQL strings.
sql_string() { printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/''/g")"; }
owner="$(sql_string "$MYSQL_USER")@'%'"
writer="$(sql_string "$MYSQL_WRITER_USER")@'%'"
reader="$(sql_string "$MYSQL_READER_USER")@'%'"
verifier="$(sql_string "$MYSQL_VERIFIER_USER")@'%'"
docker_process_sql --database=mysql <<-EOSQL
	GRANT ALL PRIVILEGES ON \`${MYSQL_DATABASE}\`.* TO ${owner} WITH GRANT OPTION;
	CREATE USER IF NOT EXISTS ${writer} IDENTIFIED BY $(sql_string "$MYSQL_WRITER_PASSWORD");
	CREATE ROLE IF NOT EXISTS supermarket_purchases_writer;
	GRANT supermarket_purchases_writer TO ${writer};
	SET DEFAULT ROLE supermarket_purchases_writer FOR ${writer};
	CREATE USER IF NOT EXISTS ${verifier} IDENTIFIED BY $(sql_string "$MYSQL_VERIFIER_PASSWORD");
	CREATE ROLE IF NOT EXISTS supermarket_verifier;
	GRANT supermarket_verifier TO ${verifier};
	SET DEFAULT ROLE supermarket_verifier FOR ${verifier};
	CREATE USER IF NOT EXISTS ${reader} IDENTIFIED BY $(sql_string "$MYSQL_READER_PASSWORD");
	CREATE ROLE IF NOT EXISTS supermarket_ledger_reader;
	GRANT supermarket_ledger_reader TO ${reader};
	SET DEFAULT ROLE supermarket_ledger_reader FOR ${reader};
EOSQL
