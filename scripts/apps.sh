# The system's own processes (the API replicas and the two workers), for run.sh and faults.sh to source.
# Each runs in the background with its log in .local/logs/<name>.log and its PID in .local/pids/<name>.pid;
# the names are Api (or Api-1..Api-N behind nginx), SalesAggregator, PurchasesWriter (and PurchasesWriter-2..-M).
# Each serves /health/live, /health/ready, /metrics and /about on a port of its own (app_url): for an API its
# management port (its appsettings.json's Management:Url, the next ones for Api-N), never the public one nginx serves.
# shellcheck shell=bash

ROOT=${ROOT:?}
STATE=${SUPERMARKET_STATE_DIR:-$ROOT/.local}
LOGS=$STATE/logs
PIDS=$STATE/pids
CONFIGURATION=${CONFIGURATION:-Release}
log() { printf '[run] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
# The ports each project's appsettings.json gives it (its Urls, or the API's Management:Url): written there once, read
# with jq (installed here on a fresh machine, before anything else needs it).
command -v jq >/dev/null || "$ROOT/scripts/services.sh" install jq
configured_port() { # project key
  jq -er --arg key "$2" 'getpath($key | split(".")) | capture(":(?<port>[0-9]+)/?$").port' "$ROOT/src/Supermarket.$1/appsettings.json" \
    || die "src/Supermarket.$1/appsettings.json gives no port in $2"
}
API_PORT=${API_PORT:-$(configured_port Api Urls)}
API_URL=${API_URL:-http://127.0.0.1:$API_PORT}
# Idle .NET thread-pool workers spin before they sleep; on two cores shared by five busy processes that spinning
# takes CPU from the others (measured: docs/performance.md). Overridable like any setting.
export DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=${DOTNET_ThreadPool_UnfairSemaphoreSpinLimit:-0}

# How many of each: set by the --api-replicas, --writers and --broker-nodes options (see take_topology_options), which
# export them for scripts/faults.sh.
API_REPLICAS=${API_REPLICAS:-0} # 0: one API straight on $API_PORT; N: N APIs on the next ports, nginx on $API_PORT
WRITERS=${WRITERS:-1}
BROKER_NODES=${BROKER_NODES:-1} # 1: one RabbitMQ node; N: a cluster of N nodes (scripts/services.sh)

# The key local credentials are signed with (Auth:SigningKey): made once per machine with the rest of the local state.
# Only the API checks credentials, so of the system's processes only the API gets it (use_accounts); the commands that
# issue credentials (the load test, `./run.sh credential`) get it through with_signing_key. In the environment, never
# on a command line.
SIGNING_KEY_FILE=$STATE/auth/signing-key
if [ ! -s "$SIGNING_KEY_FILE" ]; then
  mkdir -p "$(dirname "$SIGNING_KEY_FILE")"
  (umask 077 && head -c 48 /dev/urandom | base64 -w0 >"$SIGNING_KEY_FILE")
fi
with_signing_key() { Auth__SigningKey=$(<"$SIGNING_KEY_FILE") "$@"; }

# Each process runs as its own broker and database users (README, "Security"), from the accounts scripts/services.sh
# made on this machine, given in its environment: never on a command line.
ACCOUNTS=$STATE/accounts.json
use_accounts() { # project
  local broker="" database=""
  # Inherited from a command that issues credentials (the chaos run restarts workers through scripts/faults.sh).
  unset Auth__SigningKey
  case $1 in
    Api)
      broker="broker-api"
      export Auth__SigningKey
      Auth__SigningKey=$(<"$SIGNING_KEY_FILE")
      ;;
    PurchasesWriter) broker="broker-writer" database="database-writer" ;;
    SchemaMigration) database="database-owner" ;;
    # The writer of the release before the newest migration (the chaos run's rolling-upgrade): it migrated at its own
    # start, as the schema's owner, as the deployments of its day ran it.
    PreviousPurchasesWriter) broker="broker-writer" database="database-owner" ;;
    SalesAggregator) broker="broker-aggregator" database="database-reader" ;;
  esac
  if [ -n "$broker" ]; then
    export Broker__Username Broker__Password
    Broker__Username=$(jq -er --arg k "$broker" '.[$k].user' "$ACCOUNTS")
    Broker__Password=$(jq -er --arg k "$broker" '.[$k].password' "$ACCOUNTS")
  fi
  if [ -n "$database" ]; then
    export Database__User Database__Password
    Database__User=$(jq -er --arg k "$database" '.[$k].user' "$ACCOUNTS")
    Database__Password=$(jq -er --arg k "$database" '.[$k].password' "$ACCOUNTS")
  fi
}


# PID 1 here does not reap orphans, so `kill -0` is true for a zombie: look at the state too.
alive() {
  local stat
  [ -n "${1:-}" ] || return 1
  stat=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ $stat != Z* ]]
}
pid_of_app() { cat "$PIDS/$1.pid" 2>/dev/null || true; }
running_apps() { local f; for f in "$PIDS"/*.pid; do [ -e "$f" ] && basename "$f" .pid; done; }

# Sets API_REPLICAS and WRITERS from the options it knows and leaves the others in OTHER_ARGS.
take_topology_options() {
  OTHER_ARGS=()
  while [ $# -gt 0 ]; do
    case $1 in
      --api-replicas) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--api-replicas takes a positive number"; API_REPLICAS=$2; shift 2 ;;
      --writers) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--writers takes a positive number"; WRITERS=$2; shift 2 ;;
      --broker-nodes) [[ ${2:-} =~ ^[13]$ ]] || die "--broker-nodes takes 1 or 3"; BROKER_NODES=$2; shift 2 ;;
      *) OTHER_ARGS+=("$1"); shift ;;
    esac
  done
  export API_REPLICAS WRITERS
  use_broker_nodes
}

# services.sh starts that many nodes; every process is given all of them, and the workers' queues are quorum queues
# replicated on each (BrokerOptions).
use_broker_nodes() {
  export BROKER_NODES
  if ((BROKER_NODES > 1)); then
    export Broker__ClusterNodes
    Broker__ClusterNodes=$("$ROOT/scripts/services.sh" rabbit-nodes)
    export Broker__QuorumQueues=true
  fi
}

api_names() {
  if ((API_REPLICAS == 0)); then echo Api; else for ((i = 1; i <= API_REPLICAS; i++)); do echo "Api-$i"; done; fi
}
api_port() { [ "$1" = Api ] && echo "$API_PORT" || echo $((API_PORT + ${1#Api-})); }
writer_names() { echo PurchasesWriter; for ((i = 2; i <= WRITERS; i++)); do echo "PurchasesWriter-$i"; done; }
project_of() { echo "${1%%-*}"; } # PurchasesWriter-2 -> PurchasesWriter
# The management ports: the configured ones for the API, the aggregator and the first writer; the other replicas the
# next ones.
app_port() { # name
  case $1 in
    Api) configured_port Api Management.Url ;;
    Api-*) echo $(($(configured_port Api Management.Url) + ${1#Api-})) ;;
    SalesAggregator) configured_port SalesAggregator Urls ;;
    PurchasesWriter) configured_port PurchasesWriter Urls ;;
    PurchasesWriter-*) echo $(($(configured_port PurchasesWriter Urls) + ${1#PurchasesWriter-} - 1)) ;;
  esac
}
app_url() { echo "http://127.0.0.1:$(app_port "$1")"; }

build() {
  mkdir -p "$LOGS" "$PIDS"
  log "building ($CONFIGURATION)"
  dotnet build "$ROOT/Supermarket.sln" -c "$CONFIGURATION" -v q -nologo -clp:ErrorsOnly >"$LOGS/build.log" 2>&1 \
    || { cat "$LOGS/build.log" >&2; die "build failed"; }
}

start_app() { # name
  local name=$1 project pidfile=$PIDS/$1.pid args=()
  if alive "$(pid_of_app "$name")"; then
    log "$name already running (pid $(pid_of_app "$name"))"
    return
  fi
  project=$(project_of "$name")
  args=(--urls "$(app_url "$name")")
  [ "$project" = Api ] && args=(--urls "http://127.0.0.1:$(api_port "$name")" --Management:Url "$(app_url "$name")")
  # The aggregator's checkpoint lives with the rest of the local state, beside the database it was taken from.
  [ "$project" = SalesAggregator ] && args+=(--Aggregator:CheckpointDirectory "$STATE/store")
  local bin=$ROOT/src/Supermarket.$project/bin/$CONFIGURATION/net10.0
  # The content root is the output folder, where appsettings.json is copied.
  (use_accounts "$project" && cd "$bin" && exec setsid dotnet "Supermarket.$project.dll" "${args[@]}" >>"$LOGS/$name.log" 2>&1 </dev/null) &
  echo $! >"$pidfile"
  log "$name started (pid $!, log $LOGS/$name.log)"
}

stop_app() { # name [signal]
  local name=$1 signal=${2:-TERM} pid
  pid=$(pid_of_app "$name")
  if alive "$pid"; then
    kill "-$signal" "$pid"
    local deadline=$((SECONDS + 20))
    while alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
    if alive "$pid"; then kill -KILL "$pid" || true; fi
    log "$name stopped with SIG$signal (pid $pid)"
  fi
  rm -f "$PIDS/$name.pid"
}

require_running() { # names...
  local name
  for name in "$@"; do alive "$(pid_of_app "$name")" || die "$name exited; see $LOGS/$name.log"; done
}

wait_ready() { # seconds url names...
  local seconds=$1 url=$2 deadline=$((SECONDS + $1)); shift 2
  until curl -fsS "$url/health/ready" >/dev/null 2>&1; do
    require_running "$@"
    ((SECONDS < deadline)) || die "$url was not ready within $seconds s; see $LOGS/"
    sleep 0.5
  done
}

# The schema is migrated first, by a step of its own with the schema owner's account (the writers' account may only
# read and write rows); on a long history a migration that builds an index takes minutes. The writers are ready once
# they consume (WRITER_READY_SECONDS). The APIs start after them: only a writer declares their queue, and a purchase
# posted before it exists gets a 503. Nothing waits on the aggregator, whose rebuild on a long history may take a
# while: questions wait for it.
migrate_schema() {
  log "migrating the schema (Supermarket.PurchasesWriter migrate, as the schema owner)"
  (use_accounts SchemaMigration && cd "$ROOT/src/Supermarket.PurchasesWriter/bin/$CONFIGURATION/net10.0" \
    && exec dotnet Supermarket.PurchasesWriter.dll migrate >>"$LOGS/schema-migration.log" 2>&1 </dev/null) \
    || die "the schema migration failed; see $LOGS/schema-migration.log"
}

start_workers() {
  local name
  migrate_schema
  for name in $(writer_names) SalesAggregator; do start_app "$name"; done
  for name in $(writer_names); do wait_ready "${WRITER_READY_SECONDS:-1800}" "$(app_url "$name")" "$name"; done
}

start_apis() {
  local name ports=()
  for name in $(api_names); do start_app "$name"; done
  for name in $(api_names); do
    wait_ready 90 "$(app_url "$name")" "$name"
    ports+=("$(api_port "$name")")
  done
  if ((API_REPLICAS > 0)); then
    # nginx waits for an answer as long as the API says a proxy must (its request deadline and a margin), read from
    # the first replica's /about.
    local read_timeout
    read_timeout=$(curl -fsS "$(app_url Api-1)/about" | jq -er '.settings.Ingest.proxyReadTimeoutSeconds') \
      || die "could not read Ingest.proxyReadTimeoutSeconds from the API's /about"
    "$ROOT/scripts/services.sh" nginx-up "$API_PORT" "$read_timeout" "${ports[@]}"
  fi
  log "system ready: $API_URL (Swagger UI at $API_URL/swagger)"
}

stop_apps() {
  local name
  # The APIs (and nginx in front of them) first, so nothing new is accepted; what is queued stays in RabbitMQ.
  "$ROOT/scripts/services.sh" nginx-down
  for name in $(running_apps | grep '^Api'); do stop_app "$name"; done
  for name in $(running_apps); do stop_app "$name"; done
}
