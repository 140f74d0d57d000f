#!/bin/sh
# azd's postprovision hook: the database's users, as docker/mysql-init/reader-user.sh makes them in compose (Bicep
# cannot run SQL). The writer's user owns the schema and may grant on it: its migration 0005 grants the sales ledger
# to the role supermarket_ledger_reader, the only privilege of the aggregator's user. Run as MySQL's administrator,
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
CREATE USER IF NOT EXISTS 'supermarket'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-writer-password)");
ALTER USER 'supermarket'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-writer-password)");
GRANT ALL PRIVILEGES ON \`supermarket\`.* TO 'supermarket'@'%' WITH GRANT OPTION;
CREATE ROLE IF NOT EXISTS supermarket_ledger_reader;
CREATE USER IF NOT EXISTS 'supermarket_reader'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-reader-password)");
ALTER USER 'supermarket_reader'@'%' IDENTIFIED BY $(sql_string "$(secret mysql-reader-password)");
GRANT supermarket_ledger_reader TO 'supermarket_reader'@'%';
SET DEFAULT ROLE supermarket_ledger_reader TO 'supermarket_reader'@'%';
EOSQL
echo "MySQL users in place: supermarket (the writer) and supermarket_reader (the sales ledger only)"
