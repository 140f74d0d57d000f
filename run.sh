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

# (Re)starts the AppHost with these arguments (its options) and waits until the public API is healthy.
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

# Runs the load test (its day, or its chaos run) against the system up: the .NET way, as the README does by hand.
load_test() { # load test args...
  log "the load test: $*"
  dotnet run -c Release --project "$ROOT/loadtest/Supermarket.LoadTest" -- "$@"
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
      load_test chaos --out "$out" "${OTHER_ARGS[@]}"
      exit
    fi
    up "${TOPOLOGY[@]}"
    load_test chaos "${TOPOLOGY[@]}" --out "$out" "${OTHER_ARGS[@]}"
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
    up "${TOPOLOGY[@]}"
    load_test "${OTHER_ARGS[@]}"
    ;;
esac
