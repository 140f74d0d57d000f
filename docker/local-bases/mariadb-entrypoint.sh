#!/bin/bash
# The official mariadb image's entrypoint, for what docker/compose.yaml uses: on an empty data volume, the database
# MYSQL_DATABASE, the user MYSQL_USER with all privileges on it, root's password, then /docker-entrypoint-initdb.d/*.sh
# sourced with docker_process_sql; then the server. Names and passwords are quoted as SQL strings, sent on stdin.
set -euo pipefail
if [ "${1:0:1}" = '-' ]; then
  set -- mariadbd "$@"
fi

# The first start's server listens on a socket of its own, so the health check (the default socket) fails until the
# real server runs.
INIT_SOCKET=/run/mysqld/init.sock
docker_process_sql() { mariadb --protocol=socket --socket="$INIT_SOCKET" -uroot "$@"; }
sql_string() { printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/''/g")"; }

if [ "$1" = mariadbd ] && [ ! -d /var/lib/mysql/mysql ]; then
  mariadb-install-db --user=mysql --datadir=/var/lib/mysql --skip-test-db >/dev/null
  mariadbd --user=mysql --skip-networking --socket="$INIT_SOCKET" &
  init_pid=$!
  for _ in $(seq 60); do
    mariadb-admin --socket="$INIT_SOCKET" ping >/dev/null 2>&1 && break
    sleep 1
  done
  docker_process_sql --database=mysql <<-EOSQL
	CREATE DATABASE IF NOT EXISTS \`${MYSQL_DATABASE}\`;
	CREATE USER $(sql_string "$MYSQL_USER")@'%' IDENTIFIED BY $(sql_string "$MYSQL_PASSWORD");
	GRANT ALL PRIVILEGES ON \`${MYSQL_DATABASE}\`.* TO $(sql_string "$MYSQL_USER")@'%';
	ALTER USER root@localhost IDENTIFIED VIA mysql_native_password USING PASSWORD($(sql_string "$MYSQL_ROOT_PASSWORD")) OR unix_socket;
EOSQL
  for script in /docker-entrypoint-initdb.d/*.sh; do
    [ -e "$script" ] || continue
    # shellcheck source=/dev/null
    . "$script"
  done
  mariadb-admin --socket="$INIT_SOCKET" shutdown
  wait "$init_pid"
fi

if [ "$1" = mariadbd ]; then
  exec "$@" --user=mysql
fi
exec "$@"
