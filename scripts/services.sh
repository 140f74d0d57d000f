#!/usr/bin/env bash
# Starts the real RabbitMQ and MariaDB the system needs, as plain background processes
# (this machine kind has neither Docker nor systemd), with all their state under .local/.
#
#   scripts/services.sh up       install if missing, start, wait until both answer, create users
#   scripts/services.sh down     stop what `up` (or nginx-up) started, by PID
#   scripts/services.sh status   say what runs
#   scripts/services.sh nginx-up PORT READ_TIMEOUT_SECONDS UPSTREAM_PORT...   nginx on PORT in front of API replicas
#                                             (./run.sh --api-replicas), waiting that long for an answer
#   scripts/services.sh rabbit-down|rabbit-up|db-down|db-up|db-pause|db-resume|nginx-down   one service (the chaos run and tests use these)
#   scripts/services.sh replay-unstorable [VHOST]   purchases MySQL refused, set aside by the writer, back to it
#   scripts/services.sh install PACKAGE...   install Debian packages if missing (test.sh: the browser of the report test)
#   BROKER_NODES=3 scripts/services.sh up   a RabbitMQ cluster of three nodes instead of one (./run.sh --broker-nodes 3)
#   scripts/services.sh rabbit-node-down N [KILL] | rabbit-node-up N | rabbit-node-pause N | rabbit-node-resume N
#                                             one node of the cluster; rabbit-leader QUEUE says which node leads a queue
#
# Every setting below can be overridden from the environment.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=${SUPERMARKET_STATE_DIR:-$ROOT/.local}

RABBIT_PORT=${RABBITMQ_PORT:-5672}
RABBIT_MGMT_PORT=${RABBITMQ_MANAGEMENT_PORT:-15672}
DB_PORT=${MYSQL_PORT:-3306}
DB_NAME=${MYSQL_DATABASE:-supermarket}
# The writer grants its sales ledger (sales_ledger, ledger_identity) to this role and nothing else (its migration
# 0005); the aggregator's user has this role only.
DB_LEDGER_ROLE=supermarket_ledger_reader

RABBIT_DIR=$STATE/rabbitmq
DB_DIR=$STATE/mariadb
NGINX_DIR=$STATE/nginx
DB_CNF=$DB_DIR/my.cnf

log() { printf '[services] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# PID 1 here does not reap orphans, so `kill -0` is true for a zombie: look at the state too.
alive() {
  local pid=$1 stat
  [ -n "$pid" ] || return 1
  stat=$(ps -o stat= -p "$pid" 2>/dev/null) || return 1
  [[ $stat != Z* ]]
}
pid_of() { if [ -f "$1" ]; then cat "$1"; fi; }

# Sends SIGTERM (to the process group when it leads one), waits up to 30 s, then SIGKILL.
stop_pid() { # name pid
  local name=$1 pid=$2
  alive "$pid" || return 0
  log "stopping $name (pid $pid)"
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
  local deadline=$((SECONDS + 30))
  while alive "$pid" && ((SECONDS < deadline)); do sleep 0.3; done
  if alive "$pid"; then kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" || true; fi
}
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() { # seconds, description, command...
  local limit=$1 what=$2; shift 2
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "$what did not answer within ${limit}s"
    sleep 0.5
  done
}

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

install_missing() { # packages (default: the broker, the database and the tools this script calls)
  local missing=()
  [ $# -gt 0 ] || set -- rabbitmq-server mariadb-server mariadb-client curl procps acl jq
  for pkg in "$@"; do
    installed "$pkg" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}; run as root or install them with apt-get"
  log "installing ${missing[*]} from Debian's packages"
  # Keep the packages' post-install from starting default instances on our ports.
  local guard=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    guard=/usr/sbin/policy-rc.d
  fi
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  [ -z "$guard" ] || rm -f "$guard"
}

# ---------------------------------------------------------------- accounts

# Who may do what (README, "Security"): a broker user per service, each allowed only what its service needs; a
# monitoring user that reads queue depths and nothing else; an administrator for the scripts' and tests' resets; the
# writer's database user (its schema) and the aggregator's (the sales ledger only). Their passwords are made at random
# once per machine and kept in $ACCOUNTS (mode 600), where scripts/apps.sh, the load test and the tests read them: no
# password is known beyond this machine, so none can be left at a default in a deployment. RABBITMQ_<ACCOUNT>_USER,
# RABBITMQ_<ACCOUNT>_PASSWORD, MYSQL_USER, MYSQL_PASSWORD, MYSQL_READER_USER and MYSQL_READER_PASSWORD override them.
ACCOUNTS=$STATE/accounts.json

# Keeps an account's password across runs unless one is given; never on a command line (jq reads it from its
# environment).
account() { # key user [password]
  local password=${3:-}
  [ -n "$password" ] || password=$(jq -r --arg k "$1" '.[$k].password // empty' "$ACCOUNTS")
  [ -n "$password" ] || password=$(head -c 600 /dev/urandom | tr -dc 'A-Za-z0-9' | head -c 32)
  (umask 077 && ACCOUNT_PASSWORD=$password jq --arg k "$1" --arg u "$2" '.[$k] = {user: $u, password: $ENV.ACCOUNT_PASSWORD}' \
    "$ACCOUNTS" >"$ACCOUNTS.new")
  mv "$ACCOUNTS.new" "$ACCOUNTS"
}

accounts_ensure() {
  mkdir -p "$STATE"
  [ -s "$ACCOUNTS" ] || (umask 077 && echo '{}' >"$ACCOUNTS")
  account broker-api "${RABBITMQ_API_USER:-supermarket_api}" "${RABBITMQ_API_PASSWORD:-}"
  account broker-writer "${RABBITMQ_WRITER_USER:-supermarket_writer}" "${RABBITMQ_WRITER_PASSWORD:-}"
  account broker-aggregator "${RABBITMQ_AGGREGATOR_USER:-supermarket_aggregator}" "${RABBITMQ_AGGREGATOR_PASSWORD:-}"
  account broker-monitor "${RABBITMQ_MONITOR_USER:-supermarket_monitor}" "${RABBITMQ_MONITOR_PASSWORD:-}"
  account broker-admin "${RABBITMQ_ADMIN_USER:-supermarket_admin}" "${RABBITMQ_ADMIN_PASSWORD:-}"
  account database-owner "${MYSQL_OWNER_USER:-supermarket_owner}" "${MYSQL_OWNER_PASSWORD:-}"
  account database-writer "${MYSQL_USER:-supermarket}" "${MYSQL_PASSWORD:-}"
  account database-reader "${MYSQL_READER_USER:-supermarket_reader}" "${MYSQL_READER_PASSWORD:-}"
  account database-verifier "${MYSQL_VERIFIER_USER:-supermarket_verifier}" "${MYSQL_VERIFIER_PASSWORD:-}"
}

account_user() { jq -er --arg k "$1" '.[$k].user' "$ACCOUNTS"; }

# A string literal for SQL: whatever a name or password holds stays data.
sql_string() { local s=${1//\\/\\\\}; printf "'%s'" "${s//\'/\'\'}"; }

# ---------------------------------------------------------------- RabbitMQ

# One node (BROKER_NODES=1, the default): rabbit@localhost, state in .local/rabbitmq. A cluster (BROKER_NODES=3):
# rabbit1..rabbitN@localhost, node N on AMQP port 5672+N-1, management 15672+N-1 and Erlang distribution
# 25672+N-1 (RabbitMQ's default, AMQP + 20000), state in .local/rabbitmq-cluster/nodeN. Both use the same ports
# for their first node, so only one of them runs at a time.
BROKER_NODES=${BROKER_NODES:-1}
CLUSTER_DIR=$STATE/rabbitmq-cluster
[[ $BROKER_NODES =~ ^[1-9]$ ]] || die "BROKER_NODES must be 1 to 9"

broker_nodes() { if ((BROKER_NODES == 1)); then echo 0; else seq 1 "$BROKER_NODES"; fi; }

# Sets NODE_* for node N (0: the single node).
rabbit_node() {
  NODE=$1
  if ((NODE == 0)); then
    NODE_DIR=$RABBIT_DIR NODE_HOME=$RABBIT_DIR NODE_NAME=rabbit@localhost
    NODE_PORT=$RABBIT_PORT NODE_MGMT_PORT=$RABBIT_MGMT_PORT
  else
    NODE_DIR=$CLUSTER_DIR/node$NODE NODE_HOME=$CLUSTER_DIR NODE_NAME=rabbit$NODE@localhost
    NODE_PORT=$((RABBIT_PORT + NODE - 1)) NODE_MGMT_PORT=$((RABBIT_MGMT_PORT + NODE - 1))
  fi
}

rabbit_env() {
  export HOME=$NODE_HOME # the Erlang cookie lands here, not in /var/lib/rabbitmq; a cluster's nodes share it
  export RABBITMQ_NODENAME=$NODE_NAME
  export RABBITMQ_CONFIG_FILE=$NODE_DIR/rabbitmq.conf
  export RABBITMQ_ENABLED_PLUGINS_FILE=$NODE_DIR/enabled_plugins
  export RABBITMQ_MNESIA_BASE=$NODE_DIR/mnesia
  export RABBITMQ_LOG_BASE=$NODE_DIR/log
  export RABBITMQ_PID_FILE=$NODE_DIR/rabbitmq.pid
  export RABBITMQ_CONF_ENV_FILE=$NODE_DIR/rabbitmq-env.conf
  export RABBITMQ_DIST_PORT=$((NODE_PORT + 20000)) # RabbitMQ's own default, but from the port we listen on
  export ERL_CRASH_DUMP=$NODE_DIR/log/erl_crash.dump
  export ERL_EPMD_ADDRESS=127.0.0.1
  export RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
}

rabbitmqctl() { rabbit_env; /usr/lib/rabbitmq/bin/rabbitmqctl -n "$NODE_NAME" "$@"; }

rabbit_configure() {
  mkdir -p "$NODE_DIR/mnesia" "$NODE_DIR/log"
  : >"$NODE_DIR/rabbitmq-env.conf"
  # The shovel moves set-aside purchases back to the writer (replay-unstorable).
  echo '[rabbitmq_management,rabbitmq_shovel].' >"$NODE_DIR/enabled_plugins"
  cat >"$NODE_DIR/rabbitmq.conf" <<EOF
listeners.tcp.1 = 127.0.0.1:$NODE_PORT
management.tcp.ip = 127.0.0.1
management.tcp.port = $NODE_MGMT_PORT
# Queue depths once a second (the load test samples them), not every 5 s.
collect_statistics_interval = 1000
EOF
  if ((NODE > 0)); then
    # A dead or paused peer is noticed in about 10 s instead of 60. A node that comes back from a pause finds the
    # others have marked it partitioned; autoheal restarts it into the cluster (pause_minority leaves the mark until
    # someone restarts it by hand, as measured in the node-pause scenario). Quorum queues stay consistent either way.
    printf 'cluster_partition_handling = autoheal\nnet_ticktime = 10\n' >>"$NODE_DIR/rabbitmq.conf"
  fi
}

# Erlang's port mapper, started here rather than by a node, so that `down` stops it by its PID.
epmd_up() {
  mkdir -p "$RABBIT_DIR/log"
  alive "$(pid_of "$RABBIT_DIR/epmd.pid")" && return
  setsid epmd -address 127.0.0.1 >"$RABBIT_DIR/log/epmd.log" 2>&1 </dev/null &
  echo $! >"$RABBIT_DIR/epmd.pid"
  wait_for 10 "epmd" port_open 4369
}

rabbit_node_start() { # N
  rabbit_node "$1"
  if alive "$(pid_of "$NODE_DIR/server.pid")"; then
    log "RabbitMQ $NODE_NAME already running (pid $(cat "$NODE_DIR/server.pid"))"
    return
  fi
  port_open "$NODE_PORT" && die "port $NODE_PORT is taken by a RabbitMQ this script did not start (./run.sh down stops one it did)"
  rabbit_configure
  rabbit_env
  epmd_up
  log "starting RabbitMQ $NODE_NAME on 127.0.0.1:$NODE_PORT"
  setsid /usr/lib/rabbitmq/bin/rabbitmq-server >"$NODE_DIR/log/console.log" 2>&1 </dev/null &
  echo $! >"$NODE_DIR/server.pid"
}

rabbit_node_wait() { # N
  rabbit_node "$1"
  rabbit_env
  # rabbitmqctl fails at once before the node is up and costs ~2 s of CPU a call: poll the port first.
  wait_for 300 "RabbitMQ port $NODE_PORT" port_open "$NODE_PORT"
  wait_for 60 "RabbitMQ $NODE_NAME" /usr/lib/rabbitmq/bin/rabbitmq-diagnostics -n "$NODE_NAME" -q ping
}

rabbit_node_up() { rabbit_node_start "$1"; rabbit_node_wait "$1"; }

# Nodes 2..N join node 1 once; the membership is kept in their state, so a restarted node rejoins by itself.
rabbit_cluster_join() {
  local n
  for n in $(seq 2 "$BROKER_NODES"); do
    rabbit_node "$n"
    if ! rabbitmqctl -q cluster_status --formatter json | jq -e '.disk_nodes | index("rabbit1@localhost")' >/dev/null; then
      log "joining $NODE_NAME to rabbit1@localhost"
      rabbitmqctl -q stop_app
      rabbitmqctl -q join_cluster rabbit1@localhost
      rabbitmqctl -q start_app
    fi
  done
}

rabbit_up() {
  local n other
  # The single node and a cluster share their first ports: refuse to start one while the other runs.
  for other in $(if ((BROKER_NODES == 1)); then seq 1 9; else echo 0; fi); do
    rabbit_node "$other"
    if alive "$(pid_of "$NODE_DIR/server.pid")"; then
      die "RabbitMQ $NODE_NAME runs in the other broker topology; ./run.sh down first"
    fi
  done
  if ((BROKER_NODES > 1)) && [ ! -f "$CLUSTER_DIR/.erlang.cookie" ]; then
    mkdir -p "$CLUSTER_DIR"
    (umask 077 && head -c 300 /dev/urandom | tr -dc '[:upper:]' | head -c 20 >"$CLUSTER_DIR/.erlang.cookie")
    chmod 400 "$CLUSTER_DIR/.erlang.cookie"
  fi
  # All at once: a cluster's node that did not stop last waits at boot for the peers that stopped after it.
  for n in $(broker_nodes); do rabbit_node_start "$n"; done
  for n in $(broker_nodes); do rabbit_node_wait "$n"; done
  ((BROKER_NODES == 1)) || rabbit_cluster_join
}

rabbit_node_down() { # N [signal]: TERM stops the node cleanly, KILL as a crash
  rabbit_node "$1"
  local pid
  pid=$(pid_of "$NODE_DIR/server.pid")
  if [ "${2:-TERM}" = KILL ] && alive "$pid"; then
    log "killing RabbitMQ $NODE_NAME (pid $pid)"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
    while alive "$pid"; do sleep 0.1; done
  else
    stop_pid "RabbitMQ $NODE_NAME" "$pid"
  fi
  rm -f "$NODE_DIR/server.pid"
}

# Every node of either topology that runs, then epmd. The cluster's first node stops last, so that it may start
# first (each node waits at boot for the peers that were running when it stopped).
rabbit_down() {
  local n
  for n in 0 $(seq 9 -1 1); do
    rabbit_node "$n"
    if [ -f "$NODE_DIR/server.pid" ]; then rabbit_node_down "$n"; fi
  done
  stop_pid epmd "$(pid_of "$RABBIT_DIR/epmd.pid")"
  rm -f "$RABBIT_DIR/epmd.pid"
}

# What each broker user may configure, write and read: scripts/broker-rights/<account>.json, regular expressions over
# the names of exchanges and queues (RabbitMQ does not tell the two apart by name), shared with docker/. Topology.cs
# names the system's own; MassTransit names each process's reply endpoint <machine>_<process>_bus_<id>, the exchange
# of a message type Supermarket.Contracts.<Area>:<Type> and of its faults MassTransit:Fault--<type>--. The API may
# publish purchases and questions and read its replies, and nothing of the workers': it can neither delete, purge nor
# consume the writer's queue (README, "Security").
RIGHTS=$ROOT/scripts/broker-rights

# Users, vhosts and permissions, imported into the running cluster's metadata (once is enough for every node): the
# accounts and nothing else, so a user no longer listed (RabbitMQ's own guest, the shared user of earlier versions)
# is deleted. Passwords go from the accounts file to rabbitmqctl's standard input.
rabbit_provision() {
  rabbit_node "$( ((BROKER_NODES == 1)) && echo 0 || echo 1)"
  jq --slurpfile api "$RIGHTS/api.json" --slurpfile writer "$RIGHTS/writer.json" --slurpfile aggregator "$RIGHTS/aggregator.json" \
    --slurpfile monitor "$RIGHTS/monitor.json" --slurpfile admin "$RIGHTS/admin.json" '
    {"broker-api": $api[0], "broker-writer": $writer[0], "broker-aggregator": $aggregator[0], "broker-monitor": $monitor[0],
     "broker-admin": $admin[0]} as $rights
    | {"broker-monitor": ["monitoring"], "broker-admin": ["administrator"]} as $tags
    | [to_entries[] | select($rights[.key])] as $accounts
    | {vhosts: [{name: "/"}, {name: "supermarket-test"}],
       users: [$accounts[] | {name: .value.user, password: .value.password, tags: ($tags[.key] // [] | join(","))}],
       permissions: [$accounts[] as $a | ("/", "supermarket-test") as $vhost | {user: $a.value.user, vhost: $vhost} + $rights[$a.key]]}' \
    "$ACCOUNTS" | rabbitmqctl -q import_definitions --format json >/dev/null
  local user
  rabbitmqctl -q list_users --formatter json |
    jq -r --slurpfile accounts "$ACCOUNTS" '($accounts[0] | [to_entries[] | select(.key | startswith("broker-")) | .value.user]) as $keep | .[].user | select(. as $u | $keep | index($u) | not)' |
    while read -r user; do rabbitmqctl -q delete_user "$user" >/dev/null; log "deleted RabbitMQ user $user (not an account of this machine)"; done
}

# The management API of the first node, as the administrator.
# curl reads the credentials from its standard input (a config line, quoted), not from its command line.
rabbit_api() { # path [curl options...]
  local path=$1; shift
  [ -s "$ACCOUNTS" ] || die "no accounts on this machine yet: scripts/services.sh up makes them"
  jq -r '.["broker-admin"] | "user = \"" + ((.user + ":" + .password) | gsub("(?<c>[\\\\\"])"; "\\\(.c)")) + "\""' "$ACCOUNTS" |
    curl -fsS -K - "$@" "http://127.0.0.1:$RABBIT_MGMT_PORT/api/$path"
}

# The number of the node that leads a quorum queue of the default vhost.
rabbit_leader() { # queue
  local leader
  leader=$(rabbit_api "queues/%2F/$(jq -rn --arg q "$1" '$q|@uri')" | jq -r '.leader // .node')
  [[ $leader =~ ^rabbit([1-9])@ ]] || die "queue $1 has no leader in a cluster (its node: $leader)"
  echo "${BASH_REMATCH[1]}"
}

# Purchases MySQL refused as they were wait, each alone, in the writer's _unstorable queue (README, "Guarantees").
# Once the cause is fixed, a one-off shovel moves what the queue holds now back to the fanout the writer consumes
# from, and removes itself; one MySQL still refuses is set aside again. rabbitmqctl authenticates with the node's
# Erlang cookie, so no password is needed.
replay_unstorable() { # vhost
  local vhost=$1 queue=supermarket.purchases.writer_unstorable name=replay-unstorable definition deadline=$((SECONDS + 120))
  rabbit_node "$( ((BROKER_NODES == 1)) && echo 0 || echo 1)"
  # A shovel told to move "the queue's length" of nothing would wait for a first message without end.
  if rabbitmqctl -q list_queues -p "$vhost" name messages --formatter json |
    jq -e --arg q "$queue" 'all(.[]; .name != $q or .messages == 0)' >/dev/null; then
    log "nothing set aside in vhost $vhost"
    return
  fi
  # amqp:/// and the vhost: the local node, over a direct connection, in that vhost (plain amqp:// would be "/").
  definition=$(jq -cn --arg vhost "$vhost" --arg queue "$queue" '("amqp:///" + ($vhost | @uri)) as $uri
    | {"src-uri": $uri, "src-queue": $queue, "src-delete-after": "queue-length",
       "dest-uri": $uri, "dest-exchange": "supermarket.purchase-batch-recorded"}')
  rabbitmqctl -q set_parameter -p "$vhost" shovel "$name" "$definition"
  # The shovel deletes its own parameter once it has moved every message the queue held when it started.
  while rabbitmqctl -q list_parameters -p "$vhost" --formatter json | jq -e --arg n "$name" 'any(.[]; .name == $n)' >/dev/null; do
    ((SECONDS < deadline)) || die "the replay shovel did not finish within 120 s (rabbitmqctl shovel_status -p $vhost)"
    sleep 1
  done
  log "replayed the set-aside purchases of vhost $vhost to the writer"
}

# ---------------------------------------------------------------- MariaDB

db_configure() {
  mkdir -p "$DB_DIR/data"
  cat >"$DB_CNF" <<EOF
[mysqld]
datadir=$DB_DIR/data
socket=$DB_DIR/mysqld.sock
pid-file=$DB_DIR/mysqld.pid
log-error=$DB_DIR/error.log
port=$DB_PORT
bind-address=127.0.0.1
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_general_ci
max_connections=200
# Sized for the history the load targets hold (ten A3 days, about 7 million purchases, some 2 GB with their
# indexes) so that inserts and the verification's reads stay in memory; a larger redo log spaces out the
# checkpoints that flush dirty pages under a sustained insert load. Commits stay durable (flush at each commit).
innodb_buffer_pool_size=4G
innodb_log_file_size=1G
innodb_flush_log_at_trx_commit=1
innodb_io_capacity=2000
# A restarted server reloads the pages it held at shutdown; MariaDB's default keeps only a quarter of them, and the
# first day after a restart then reads the secondary indexes of its history from disk (docs/performance.md).
innodb_buffer_pool_dump_pct=100

[client]
socket=$DB_DIR/mysqld.sock
EOF
  # mysqld runs as `mysql` and must reach its datadir through every parent: that user alone is let through (an ACL
  # entry where it could not pass already), not everyone.
  chown -R mysql:mysql "$DB_DIR"
  local dir=$DB_DIR
  while [ "$dir" != / ]; do
    dir=$(dirname "$dir")
    runuser -u mysql -- test -x "$dir" 2>/dev/null && continue
    setfacl -m u:mysql:x "$dir" || die "cannot let the mysql user reach $DB_DIR through $dir (setfacl failed; does the file system support ACLs?)"
  done
  if [ ! -d "$DB_DIR/data/mysql" ]; then
    log "initialising MariaDB data in $DB_DIR/data"
    mariadb-install-db --defaults-file="$DB_CNF" --user=mysql --skip-test-db >"$DB_DIR/install.log" 2>&1 \
      || die "mariadb-install-db failed, see $DB_DIR/install.log"
  fi
}

# Users connect from 127.0.0.1 only (the server listens nowhere else). The schema owner's user, which only the
# migration step uses, has all of the schema with the right to grant: migration 0005 grants SELECT on the sales ledger,
# as the tables it creates, to $DB_LEDGER_ROLE, the only privilege of the aggregator's user. The running writers' user
# reads and writes rows and nothing else; the load test's verifier only reads them. The *_test% databases are the
# integration tests'.
# Names and passwords travel on the client's standard input, quoted as SQL strings.
db_provision() {
  local owner writer reader verifier owner_password writer_password reader_password verifier_password
  owner=$(sql_string "$(account_user database-owner)")@'127.0.0.1'
  writer=$(sql_string "$(account_user database-writer)")@'127.0.0.1'
  reader=$(sql_string "$(account_user database-reader)")@'127.0.0.1'
  verifier=$(sql_string "$(account_user database-verifier)")@'127.0.0.1'
  owner_password=$(sql_string "$(jq -r '.["database-owner"].password' "$ACCOUNTS")")
  writer_password=$(sql_string "$(jq -r '.["database-writer"].password' "$ACCOUNTS")")
  reader_password=$(sql_string "$(jq -r '.["database-reader"].password' "$ACCOUNTS")")
  verifier_password=$(sql_string "$(jq -r '.["database-verifier"].password' "$ACCOUNTS")")
  mariadb --defaults-file="$DB_CNF" -uroot <<EOF
CREATE DATABASE IF NOT EXISTS \`$DB_NAME\` CHARACTER SET utf8mb4;
CREATE USER IF NOT EXISTS $owner IDENTIFIED VIA mysql_native_password USING PASSWORD($owner_password);
ALTER USER $owner IDENTIFIED VIA mysql_native_password USING PASSWORD($owner_password);
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO $owner WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON \`${DB_NAME}\\_test%\`.* TO $owner WITH GRANT OPTION;
CREATE USER IF NOT EXISTS $writer IDENTIFIED VIA mysql_native_password USING PASSWORD($writer_password);
ALTER USER $writer IDENTIFIED VIA mysql_native_password USING PASSWORD($writer_password);
REVOKE ALL PRIVILEGES, GRANT OPTION FROM $writer;
GRANT SELECT, INSERT, UPDATE, DELETE ON \`$DB_NAME\`.* TO $writer;
GRANT SELECT, INSERT, UPDATE, DELETE ON \`${DB_NAME}\\_test%\`.* TO $writer;
CREATE USER IF NOT EXISTS $verifier IDENTIFIED VIA mysql_native_password USING PASSWORD($verifier_password);
ALTER USER $verifier IDENTIFIED VIA mysql_native_password USING PASSWORD($verifier_password);
REVOKE ALL PRIVILEGES, GRANT OPTION FROM $verifier;
GRANT SELECT ON \`$DB_NAME\`.* TO $verifier;
GRANT SELECT ON \`${DB_NAME}\\_test%\`.* TO $verifier;
CREATE ROLE IF NOT EXISTS $DB_LEDGER_ROLE;
CREATE USER IF NOT EXISTS $reader IDENTIFIED VIA mysql_native_password USING PASSWORD($reader_password);
ALTER USER $reader IDENTIFIED VIA mysql_native_password USING PASSWORD($reader_password);
REVOKE ALL PRIVILEGES, GRANT OPTION FROM $reader;
GRANT $DB_LEDGER_ROLE TO $reader;
SET DEFAULT ROLE $DB_LEDGER_ROLE FOR $reader;
FLUSH PRIVILEGES;
EOF
}

db_up() {
  if alive "$(pid_of "$DB_DIR/server.pid")"; then
    log "MariaDB already running (pid $(cat "$DB_DIR/server.pid"))"
    db_provision
    return
  fi
  port_open "$DB_PORT" && die "port $DB_PORT is taken by a MySQL this script did not start"
  db_configure
  log "starting MariaDB on 127.0.0.1:$DB_PORT"
  setsid mariadbd --defaults-file="$DB_CNF" --user=mysql >"$DB_DIR/console.log" 2>&1 </dev/null &
  echo $! >"$DB_DIR/server.pid"
  wait_for 60 "MariaDB" mariadb-admin --defaults-file="$DB_CNF" ping
  db_provision
}

db_down() {
  stop_pid MariaDB "$(pid_of "$DB_DIR/server.pid")"
  rm -f "$DB_DIR/server.pid"
}

# ---------------------------------------------------------------- nginx (only with several API replicas)

nginx_up() { # port read-timeout-seconds upstream-port...
  local port=$1 read_timeout=$2; shift 2
  nginx_down
  port_open "$port" && die "port $port is taken; nginx cannot listen there"
  mkdir -p "$NGINX_DIR/tmp"
  local servers="" upstream
  for upstream in "$@"; do servers+="    server 127.0.0.1:$upstream max_fails=1 fail_timeout=2s;"$'\n'; done
  sed -e "s|@STATE@|$NGINX_DIR|g" -e "s|@ROOT@|$ROOT|g" -e "s|@PORT@|$port|g" -e "s|@READ_TIMEOUT@|$read_timeout|g" \
    "$ROOT/scripts/nginx.conf.template" | awk -v servers="${servers%$'\n'}" '{ if ($0 == "@SERVERS@") print servers; else print }' \
    >"$NGINX_DIR/nginx.conf"
  nginx -t -q -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR" >/dev/null 2>&1 || { nginx -t -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR"; die "bad nginx config"; }
  log "starting nginx on 127.0.0.1:$port in front of ports $*"
  setsid nginx -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR" >"$NGINX_DIR/console.log" 2>&1 </dev/null &
  echo $! >"$NGINX_DIR/server.pid"
  wait_for 20 "nginx port $port" port_open "$port"
}

nginx_down() {
  stop_pid nginx "$(pid_of "$NGINX_DIR/server.pid")"
  rm -f "$NGINX_DIR/server.pid"
}

# ---------------------------------------------------------------- commands

# Where things are, without the passwords: this lands in run, test and CI logs.
settings() {
  cat <<EOF
RabbitMQ:  amqp://127.0.0.1:$RABBIT_PORT/  (management http://127.0.0.1:$RABBIT_MGMT_PORT/)$( ((BROKER_NODES == 1)) || echo ", a cluster of $BROKER_NODES nodes on ports $RABBIT_PORT-$((RABBIT_PORT + BROKER_NODES - 1))")
MariaDB:   127.0.0.1:$DB_PORT, database $DB_NAME
Accounts:  $ACCOUNTS (a user per service; README, "Security")
Data/logs: $STATE
EOF
}

status() {
  local rc=0
  local n pid nodes
  # The nodes of whichever topology has run last (their PID files), else those asked for.
  nodes=$(for n in 0 $(seq 1 9); do rabbit_node "$n"; [ -f "$NODE_DIR/server.pid" ] && echo "$n"; done || true)
  for n in ${nodes:-$(broker_nodes)}; do
    rabbit_node "$n"
    pid=$(pid_of "$NODE_DIR/server.pid")
    if alive "$pid"; then echo "rabbitmq $NODE_NAME: running (pid $pid)"; else echo "rabbitmq $NODE_NAME: stopped"; rc=1; fi
  done
  pid=$(pid_of "$DB_DIR/server.pid")
  if alive "$pid"; then echo "mariadb: running (pid $pid)"; else echo "mariadb: stopped"; rc=1; fi
  if alive "$(pid_of "$NGINX_DIR/server.pid")"; then echo "nginx: running (pid $(cat "$NGINX_DIR/server.pid"))"; fi
  return $rc
}

case ${1:-} in
  up)
    install_missing
    accounts_ensure
    db_up &
    db_job=$!
    rabbit_up
    rabbit_provision
    wait "$db_job" || die "MariaDB failed to start, see $DB_DIR/error.log"
    settings
    ;;
  down)
    nginx_down
    rabbit_down
    db_down
    ;;
  status) status ;;
  install) shift; install_missing "$@" ;;
  rabbit-up) install_missing; accounts_ensure; rabbit_up ;;
  rabbit-down) rabbit_down ;;
  # One node of a cluster: started again (it rejoins), stopped (KILL: as a crash), paused and resumed (SIGSTOP and
  # SIGCONT: a node that stops answering, as behind a network partition, then comes back).
  rabbit-node-up) rabbit_node_up "${2:?node number}" ;;
  rabbit-node-down) rabbit_node_down "${2:?node number}" "${3:-TERM}" ;;
  rabbit-node-pause|rabbit-node-resume)
    rabbit_node "${2:?node number}"
    signal=STOP; [ "$1" = rabbit-node-resume ] && signal=CONT
    kill "-$signal" -- "-$(pid_of "$NODE_DIR/server.pid")" ;;
  rabbit-leader) rabbit_leader "${2:?queue}" ;;
  # What the applications are given: every node's host:port, comma-separated (Broker:ClusterNodes).
  rabbit-nodes)
    for n in $(broker_nodes); do rabbit_node "$n"; echo "127.0.0.1:$NODE_PORT"; done | paste -sd, ;;
  # Succeeds once every node runs and every quorum queue of the default vhost has all its members online.
  rabbit-cluster-whole)
    rabbit_api "nodes?columns=name,running" | jq -e --argjson n "$BROKER_NODES" '[.[] | select(.running)] | length == $n' >/dev/null
    rabbit_api "queues/%2F?columns=name,type,online" |
      jq -e --argjson n "$BROKER_NODES" 'all(.[] | select(.type == "quorum"); (.online | length) == $n)' >/dev/null ;;
  # Succeeds once every queue a worker consumes from (the durable ones of the default vhost, less MassTransit's
  # _error and _skipped queues and the writer's _unstorable; the API's reply queues are temporary) has a consumer: a worker that reconnected but
  # does not consume (docs/reliability.md) does not pass.
  rabbit-consumed)
    rabbit_api "queues/%2F?columns=name,durable,consumers" |
      jq -e 'all(.[] | select(.durable and (.name | test("_(error|skipped|unstorable)$") | not)); .consumers > 0)' >/dev/null ;;
  # A memory alarm, as when the broker runs out of memory: it stops reading from every publishing connection.
  rabbit-block) rabbit_node 0; rabbitmqctl -q set_vm_memory_high_watermark 0 ;;
  rabbit-unblock) rabbit_node 0; rabbitmqctl -q set_vm_memory_high_watermark 0.4 ;;
  # Every queue of the default vhost, with what it holds: the applications declare theirs again as they start (a
  # fresh measurement, or a queue argument such as the writer's backlog limit changed).
  rabbit-delete-app-queues)
    rabbit_api "queues/%2F?columns=name" | jq -r '.[].name | @uri' | while read -r queue; do
      rabbit_api "queues/%2F/$queue" -X DELETE
    done ;;
  replay-unstorable) replay_unstorable "${2:-/}" ;;
  db-up) install_missing; accounts_ensure; db_up ;;
  db-down) db_down ;;
  # MariaDB stops answering without closing a connection (SIGSTOP), as a database stalled on its disk does, then
  # goes on (SIGCONT).
  db-pause|db-resume)
    signal=STOP; [ "$1" = db-resume ] && signal=CONT
    kill "-$signal" "$(pid_of "$DB_DIR/mysqld.pid")" ;;
  nginx-up) [ $# -ge 4 ] || die "usage: $0 nginx-up PORT READ_TIMEOUT_SECONDS UPSTREAM_PORT..."; install_missing nginx; shift; nginx_up "$@" ;;
  nginx-down) nginx_down ;;
  *) echo "usage: $0 up|down|status|rabbit-up|rabbit-down|rabbit-node-up N|rabbit-node-down N [KILL]|rabbit-node-pause N|rabbit-node-resume N|rabbit-leader QUEUE|rabbit-nodes|rabbit-cluster-whole|rabbit-consumed|rabbit-block|rabbit-unblock|rabbit-delete-app-queues|replay-unstorable [VHOST]|db-up|db-down|db-pause|db-resume|nginx-up|nginx-down" >&2; exit 2 ;;
esac
