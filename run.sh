#!/usr/bin/env bash
# The main job: bring the whole system up and run the load test against it.
#
#   ./run.sh [load test options]   services + API + workers up, then a day of purchases (small defaults)
#   ./run.sh up                    only bring the system up (services, API on 127.0.0.1:8080, both workers)
#   ./run.sh down                  stop everything this script or scripts/services.sh started
#   ./run.sh status                what runs
#
# Processes run in the background with their logs in .local/logs/ and their PIDs in .local/pids/.
# Settings reach them as environment variables (for example Broker__PersistentDelivery=false).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STATE=${SUPERMARKET_STATE_DIR:-$ROOT/.local}
LOGS=$STATE/logs
PIDS=$STATE/pids
CONFIGURATION=${CONFIGURATION:-Release}
API_URL=${API_URL:-http://127.0.0.1:8080}
APPS=(Purchases Store Api)
# Idle .NET thread-pool workers spin before they sleep; on two cores shared by five busy processes that spinning
# takes CPU from the others (measured: docs/performance.md). Overridable like any setting.
export DOTNET_ThreadPool_UnfairSemaphoreSpinLimit=${DOTNET_ThreadPool_UnfairSemaphoreSpinLimit:-0}

log() { printf '[run] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

alive() {
  local stat
  [ -n "${1:-}" ] || return 1
  stat=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  [[ $stat != Z* ]]
}

build() {
  log "building ($CONFIGURATION)"
  dotnet build "$ROOT/Supermarket.sln" -c "$CONFIGURATION" -v q -nologo -clp:ErrorsOnly >"$LOGS/build.log" 2>&1 \
    || { cat "$LOGS/build.log" >&2; die "build failed"; }
}

start_app() {
  local app=$1 pidfile=$PIDS/$1.pid
  if alive "$(cat "$pidfile" 2>/dev/null || true)"; then
    log "$app already running (pid $(cat "$pidfile"))"
    return
  fi
  local bin=$ROOT/src/Supermarket.$app/bin/$CONFIGURATION/net10.0
  # The content root is the output folder, where appsettings.json is copied.
  (cd "$bin" && exec setsid dotnet "Supermarket.$app.dll" >"$LOGS/$app.log" 2>&1 </dev/null) &
  echo $! >"$pidfile"
  log "$app started (pid $!, log $LOGS/$app.log)"
}

stop_app() {
  local app=$1 pidfile=$PIDS/$1.pid pid
  pid=$(cat "$pidfile" 2>/dev/null || true)
  if alive "$pid"; then
    kill -TERM "$pid"
    local deadline=$((SECONDS + 20))
    while alive "$pid" && ((SECONDS < deadline)); do sleep 0.2; done
    alive "$pid" && kill -KILL "$pid" || true
    log "$app stopped (pid $pid)"
  fi
  rm -f "$pidfile"
}

# The API publishes with the mandatory flag, which only proves that some queue took a purchase. So it starts only
# once both workers' queues are bound to both purchase exchanges: before that, a purchase could reach one worker
# and not the other.
wait_for_binding() { # exchange queue
  local exchange=$1 queue=$2 deadline=$((SECONDS + 120))
  local auth=${RABBITMQ_USER:-supermarket}:${RABBITMQ_PASSWORD:-supermarket-local}
  until curl -fsS -u "$auth" "http://127.0.0.1:${RABBITMQ_MANAGEMENT_PORT:-15672}/api/exchanges/%2F/$exchange/bindings/source" 2>/dev/null \
      | grep -q "\"destination\":\"$queue\""; do
    for app in Purchases Store; do
      alive "$(cat "$PIDS/$app.pid" 2>/dev/null || true)" || die "$app exited; see $LOGS/$app.log"
    done
    ((SECONDS < deadline)) || die "$queue was not bound to $exchange within 120 s; see $LOGS/"
    sleep 0.5
  done
}

wait_ready() {
  local deadline=$((SECONDS + 90))
  until curl -fsS "$API_URL/health/ready" >/dev/null 2>&1; do
    for app in "${APPS[@]}"; do
      alive "$(cat "$PIDS/$app.pid" 2>/dev/null || true)" || die "$app exited; see $LOGS/$app.log"
    done
    ((SECONDS < deadline)) || die "the API was not ready within 90 s; see $LOGS/"
    sleep 0.5
  done
  log "system ready: $API_URL (Swagger UI at $API_URL/swagger)"
}

up() {
  mkdir -p "$LOGS" "$PIDS"
  "$ROOT/scripts/services.sh" up
  build
  start_app Purchases
  start_app Store
  for exchange in supermarket.purchase-recorded supermarket.purchase-batch-recorded; do
    wait_for_binding "$exchange" supermarket.purchases.writer
    wait_for_binding "$exchange" supermarket.store.sales-counter
  done
  start_app Api
  wait_ready
}

# The aggregator rebuilds from MySQL when it starts, so what it has counted must be in MySQL by then: stop the API
# first, let the writer drain its queue (bounded), and only then stop the workers. (A crash skips this; see the
# README, "Guarantees".)
drain_writer() {
  local auth=${RABBITMQ_USER:-supermarket}:${RABBITMQ_PASSWORD:-supermarket-local} depth deadline=$((SECONDS + 300))
  alive "$(cat "$PIDS/Purchases.pid" 2>/dev/null || true)" || return 0
  while depth=$(curl -fsS -u "$auth" "http://127.0.0.1:${RABBITMQ_MANAGEMENT_PORT:-15672}/api/queues/%2F/supermarket.purchases.writer" 2>/dev/null \
      | grep -oE '"messages":[0-9]+' | head -n 1 | cut -d: -f2) && [ "${depth:-0}" -gt 0 ]; do
    ((SECONDS < deadline)) || { log "the writer still had $depth messages queued after 300 s; stopping anyway"; return 0; }
    log "waiting for the writer to drain its queue ($depth messages)"
    sleep 2
  done
}

down() {
  stop_app Api
  drain_writer
  for app in Store Purchases; do stop_app "$app"; done
  "$ROOT/scripts/services.sh" down
}

status() {
  for app in "${APPS[@]}"; do
    local pid
    pid=$(cat "$PIDS/$app.pid" 2>/dev/null || true)
    if alive "$pid"; then echo "$app: running (pid $pid)"; else echo "$app: stopped"; fi
  done
  "$ROOT/scripts/services.sh" status || true
}

case ${1:-} in
  up) up ;;
  down) down ;;
  status) status ;;
  *)
    up
    loadtest=$ROOT/loadtest/Supermarket.LoadTest
    if [ -d "$loadtest" ]; then
      log "running the load test: $*"
      dotnet run -c "$CONFIGURATION" --no-build --project "$loadtest" -- --url "$API_URL" "$@"
    else
      log "no load test yet; the system stays up (./run.sh down stops it)"
    fi
    ;;
esac
