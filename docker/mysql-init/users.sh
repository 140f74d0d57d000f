#!/bin/sh
# Run on every `compose up` by the mariadb-users service, as MariaDB's root over the server's socket (the
# mariadb-socket volume): not by the image's /docker-entrypoint-initdb.d, which runs on a new volume only, so that a
# volume made by an earlier release ends with the grants of a new one. The schema owner's user (MYSQL_USER, made by
# the image), which only the schema-migration step uses, may grant what it creates: the migrations grant each role
# below, table by table, what its service's statements need (Supermarket.Database's Schema/DatabaseRoles.cs), and each
# other account has its role and nothing else, revoked first (an earlier release granted the writers and the verifier
# the whole schema). With `verifier` (the mariadb-verifier service, in the loadtest profile only) it makes the load
# test's account; without, it drops it: the verifier reads every purchase, so it exists only while a load test may run.
# Names and passwords are quoted as SQL strings; root's password reaches mariadb in an option file.
set -eu
sql_string() { printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/''/g")"; }
options=$(mktemp)
trap 'rm -f "$options"' EXIT
chmod 600 "$options"
printf '[client]\nuser=root\npassword="%s"\nsocket=/run/mysqld/mysqld.sock\n' \
  "$(printf '%s' "$MYSQL_ROOT_PASSWORD" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')" >"$options"
sql() { mariadb --defaults-extra-file="$options" --database=mysql; }
verifier="$(sql_string "$MYSQL_VERIFIER_USER")@'%'"
if [ "${1:-}" = verifier ]; then
  sql <<-EOSQL
	CREATE USER IF NOT EXISTS ${verifier} IDENTIFIED BY $(sql_string "$MYSQL_VERIFIER_PASSWORD");
	ALTER USER ${verifier} IDENTIFIED BY $(sql_string "$MYSQL_VERIFIER_PASSWORD");
	REVOKE ALL PRIVILEGES, GRANT OPTION FROM ${verifier};
	CREATE ROLE IF NOT EXISTS supermarket_verifier;
	GRANT supermarket_verifier TO ${verifier};
	SET DEFAULT ROLE supermarket_verifier FOR ${verifier};
EOSQL
  echo "MariaDB's load test account in place: ${MYSQL_VERIFIER_USER} (reads what was stored and counted)"
  exit 0
fi
owner="$(sql_string "$MYSQL_USER")@'%'"
writer="$(sql_string "$MYSQL_WRITER_USER")@'%'"
reader="$(sql_string "$MYSQL_READER_USER")@'%'"
sql <<-EOSQL
	GRANT ALL PRIVILEGES ON \`${MYSQL_DATABASE}\`.* TO ${owner} WITH GRANT OPTION;
	CREATE USER IF NOT EXISTS ${writer} IDENTIFIED BY $(sql_string "$MYSQL_WRITER_PASSWORD");
	ALTER USER ${writer} IDENTIFIED BY $(sql_string "$MYSQL_WRITER_PASSWORD");
	REVOKE ALL PRIVILEGES, GRANT OPTION FROM ${writer};
	CREATE ROLE IF NOT EXISTS supermarket_purchases_writer;
	GRANT supermarket_purchases_writer TO ${writer};
	SET DEFAULT ROLE supermarket_purchases_writer FOR ${writer};
	CREATE USER IF NOT EXISTS ${reader} IDENTIFIED BY $(sql_string "$MYSQL_READER_PASSWORD");
	ALTER USER ${reader} IDENTIFIED BY $(sql_string "$MYSQL_READER_PASSWORD");
	REVOKE ALL PRIVILEGES, GRANT OPTION FROM ${reader};
	CREATE ROLE IF NOT EXISTS supermarket_ledger_reader;
	GRANT supermarket_ledger_reader TO ${reader};
	SET DEFAULT ROLE supermarket_ledger_reader FOR ${reader};
	-- Migration 0007 grants to it; the mariadb-verifier service gives it to the load test's account.
	CREATE ROLE IF NOT EXISTS supermarket_verifier;
	DROP USER IF EXISTS ${verifier};
EOSQL
echo "MariaDB users in place: the writers' (rows only) and the aggregators' (the sales ledger only)"
