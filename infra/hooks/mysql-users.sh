#!/bin/sh
# azd's postprovision hook: the database's users, as docker/mysql-init/users.sh makes them in compose (Bicep cannot
# run SQL). The schema owner's user, which only the schema-migration job uses, may grant on the schema: the migrations
# grant each role below, table by table, what its service's statements need (Supermarket.Database's
# Schema/DatabaseRoles.cs), and each other account has its role and nothing else. Run as MySQL's administrator,
# over TLS (Azure's server requires it), by whoever runs `azd up`: infra/ lets them read the vault's secrets.
# Passwords come from Key Vault, reach mysql in an option file, never on a command line, quoted as SQL strings.
# MySQL 8 syntax (SET DEFAULT ROLE ... TO), where MariaDB's is SET DEFAULT ROLE ... FOR.
set -eu
secret() { az keyvault secret show --vault-name "$AZURE_KEY_VAULT_NAME" --name "$1" --query value -o tsv; }
sql_string() { printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/''/g")"; }
options=$(mktemp)
trap 'rm -f "$options"' EXIT
chmod 600 "$options"
printf '[client]\nuser=%s\npassword="%s"\nhost=%s\nssl-mode=VERIFY_IDENTITY\n' \
  "$AZURE_MYSQL_ADMIN_USER" "$(secret mysql-admin-password)" "$AZURE_MYSQL_HOST" >"$options"
mysql --defaults-extra-file="$options" <<EOSQL
CREATE USER IF NOT EXISTS 'supermarket_owner'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-owner-password)");
ALTER USER 'supermarket_owner'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-owner-password)");
GRANT ALL PRIVILEGES ON \`supermarket\`.* TO 'supermarket_owner'@'%' WITH GRANT OPTION;
CREATE USER IF NOT EXISTS 'supermarket'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-writer-password)");
ALTER USER 'supermarket'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-writer-password)");
REVOKE ALL PRIVILEGES, GRANT OPTION FROM 'supermarket'@'%';
CREATE ROLE IF NOT EXISTS supermarket_purchases_writer;
GRANT supermarket_purchases_writer TO 'supermarket'@'%';
SET DEFAULT ROLE supermarket_purchases_writer TO 'supermarket'@'%';
CREATE ROLE IF NOT EXISTS supermarket_ledger_reader;
CREATE USER IF NOT EXISTS 'supermarket_reader'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-reader-password)");
ALTER USER 'supermarket_reader'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-reader-password)");
GRANT supermarket_ledger_reader TO 'supermarket_reader'@'%';
SET DEFAULT ROLE supermarket_ledger_reader TO 'supermarket_reader'@'%';
-- Every role a migration grants to, held by no account here (no load test runs in Azure): MySQL 8 refuses a grant to
-- a role that does not exist (error 1410), which would stop the schema-migration job at migration 0007.
CREATE ROLE IF NOT EXISTS supermarket_verifier;
EOSQL
echo "MySQL users in place: supermarket_owner (the schema-migration job), supermarket (the writers: rows only) and supermarket_reader (the sales ledger only)"
