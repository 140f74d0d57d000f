#!/usr/bin/env bash
# The main job: bring the whole system up through its AppHost (src/Supermarket.AppHost) and run the load test on it.
#
#   ./run.sh [topology] [load test options]   the system up, then a day of purchases (small defaults), verified
#   ./run.sh up [topology]                    only bring the system up (API on 127.0.0.1:8080, dashboard on 18888)
#   ./run.sh --in-containers [--tls] [load test options]   the same in containers: docker/compose.yaml under podman
#                                             (scripts/containers.sh), nginx on 127.0.0.1:8080, the load test's container;
#                                             --tls: AMQP and MySQL over TLS with certificates made at deploy time
#   ./run.sh chaos [topology] [--in-containers] [options]   days of load with faults injected (the load test's Chaos/),
#                                             verified, a table row per scenario: the load test's chaos command
#                                             (its options: the load test's `chaos --help`, docs/chaos.md); two API
#                                             replicas unless --api-replicas says
#   ./run.sh down                             stop the AppHost and everything it runs, and the containers
#                                             (their volumes stay)
#   ./run.sh status                           what runs (the AppHost's resources)
#
# topology (the AppHost's options): --api-replicas N   N APIs behind nginx on 8080 (default: one API on 8080)
#                                   --writers M        M Purchases writers competing on one queue (default 1)
#                                   --broker-nodes 3   a RabbitMQ cluster of three nodes with quorum queues
#                                   --aggregator-shards N    the sales matrix split by item range (default 1)
#                                   --aggregator-replicas R  aggregators per shard (default 1)
#
# This script installs what the system needs and starts the AppHost with the Aspire CLI (`aspire start`), which
# builds it; the AppHost starts everything else. Logs, traces and metrics are on the dashboard (its address is printed
# at start; the login URL, with its token, is in .local/apphost.json, its owner's alone). Settings reach the services as environment variables given to this script (for
# example Broker__PersistentDelivery=false ./run.sh up), except where the broker and the database run and the
# accounts, which the AppHost gives each service itself.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/apphost.sh
source "$ROOT/scripts/apphost.sh"
log() { printf '[run] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Splits the AppHost's options (the topology) from the load test's: TOPOLOGY and OTHER_ARGS.
take_topology_options() {
  TOPOLOGY=() OTHER_ARGS=()
  while [ $# -gt 0 ]; do
    case $1 in
      --api-replicas | --writers | --broker-nodes | --aggregator-shards | --aggregator-replicas) TOPOLOGY+=("$1" "${2:?$1 takes a number}"); shift 2 ;;
      *) OTHER_ARGS+=("$1"); shift ;;
    esac
  done
}

# (Re)starts the AppHost with these arguments (its options, then --day and the load test's) and waits until the
# public API is healthy.
up() { # apphost args...
  "$ROOT/scripts/services.sh" install
  stop_apphost
  mkdir -p "$STATE"
  log "starting the AppHost (aspire start: builds, then starts every resource)"
  # aspire start's answer holds the dashboard's login token, and the dashboard shows every secret: the owner's alone,
  # whatever the umask. The console (CI's, measure.sh's log) gets the address without it.
  private_file "$STATE/apphost.json"
  aspire start --format Json -- "$@" >"$STATE/apphost.json" || die "the AppHost did not start; see ~/.aspire/logs/"
  log "dashboard: $(dashboard_url) (log in with: jq -r .dashboardUrl $STATE/apphost.json, readable by its owner alone)"
  # The public API is the resource named api (the API itself, or nginx in front of its replicas).
  resource_wait api healthy 600 || die "the API was not healthy within 10 minutes; see the dashboard"
  log "system ready: $(api_url) (Swagger UI at /swagger)"
}

# Runs the day the AppHost was given (its load-test resource) to its end: its console here, its exit code ours. The
# day bounds itself (the load test's own deadlines); the AppHost gone ends the wait.
day() {
  local code follower
  resource load-test >/dev/null || die "the AppHost has no load-test resource"
  aspire logs load-test --follow 2>/dev/null &
  follower=$!
  until resource load-test | jq -e '.state | IN("Finished", "Exited", "FailedToStart")' >/dev/null; do
    apphost_running || die "the AppHost stopped during the day"
    sleep 2
  done
  sleep 1
  kill_tree "$follower"
  code=$(resource load-test | jq -r '.exitCode // 1')
  log "the load test ended with exit code $code"
  return "$code"
}

command=${1:-}
case $command in
  up) shift; take_topology_options "$@"; up "${TOPOLOGY[@]}" ;;
  down)
    stop_apphost
    if command -v podman >/dev/null; then "$ROOT/scripts/containers.sh" down; fi
    ;;
  status) aspire describe --format Table ;;
  chaos)
    shift
    take_topology_options "$@"
    # The api scenario stops one replica while another serves.
    [[ " ${TOPOLOGY[*]} " == *" --api-replicas "* ]] || TOPOLOGY+=(--api-replicas 2)
    out=$STATE/chaos/$(date -u +%Y%m%d-%H%M%S)
    private_dir "$out"
    if [[ " ${OTHER_ARGS[*]} " == *" --in-containers "* ]]; then
      # The system is podman's: no AppHost, the chaos run goes to the containers from here.
      stop_apphost
      "$ROOT/scripts/containers.sh" up
      log "the chaos run against the containers; its reports: $out"
      exec dotnet run -c Release --project "$ROOT/loadtest/Supermarket.LoadTest" -- chaos --out "$out" "${OTHER_ARGS[@]}"
    fi
    up "${TOPOLOGY[@]}" --day chaos "${TOPOLOGY[@]}" --out "$out" "${OTHER_ARGS[@]}"
    day
    ;;
  --in-containers)
    shift
    tls=()
    if [ "${1:-}" = --tls ]; then tls=(--tls); shift; fi
    "$ROOT/scripts/containers.sh" up "${tls[@]}"
    log "running the load test's container: $*"
    exec "$ROOT/scripts/containers.sh" loadtest "$@"
    ;;
  *)
    take_topology_options "$@"
    up "${TOPOLOGY[@]}" --day "${OTHER_ARGS[@]}"
    day
    ;;
esac
