#!/usr/bin/env bash
# The main job: bring the whole system up and run the load test against it.
#
#   ./run.sh [topology] [load test options]   services + API + workers up, then a day of purchases (small defaults)
#   ./run.sh up [topology]                    only bring the system up (API on 127.0.0.1:8080)
#   ./run.sh --in-containers [--tls] [load test options]   the same in containers: docker/compose.yaml under podman
#                                             (scripts/containers.sh), nginx on 127.0.0.1:8080, the load test's container;
#                                             --tls: AMQP and MySQL over TLS with certificates made at deploy time
#   ./run.sh chaos [topology] [--in-containers] [options]   days of load with faults injected (scripts/faults.sh),
#                                             verified, a table row per scenario: the load test's chaos command
#                                             (./run.sh chaos --help); two API replicas unless --api-replicas says
#   ./run.sh down                             stop everything this script, scripts/services.sh or
#                                             scripts/containers.sh started (the containers' volumes stay)
#   ./run.sh status                           what runs
#   ./run.sh credential till STORE | analyst NAME   a local credential for the API (README, "Security")
#
# topology: --api-replicas N   N API processes on ports 8081.. behind nginx on 8080 (default: one API on 8080)
#           --writers M        M Purchases writers competing on one queue (default 1)
#           --broker-nodes 3   a RabbitMQ cluster of three nodes with quorum queues (default: one node)
#
# Processes run in the background with their logs in .local/logs/ and their PIDs in .local/pids/.
# Settings reach them as environment variables (for example Broker__PersistentDelivery=false).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/apps.sh
source "$ROOT/scripts/apps.sh"

# Brings the services up and (re)starts the system's own processes in the topology asked for.
up() {
  mkdir -p "$LOGS" "$PIDS"
  "$ROOT/scripts/services.sh" up
  stop_apps
  build
  start_workers
  start_apis
}

down() {
  mkdir -p "$PIDS"
  stop_apps
  "$ROOT/scripts/services.sh" down
  if command -v podman >/dev/null; then "$ROOT/scripts/containers.sh" down; fi
}

status() {
  local name
  for name in $(running_apps); do
    if alive "$(pid_of_app "$name")"; then echo "$name: running (pid $(pid_of_app "$name"))"; else echo "$name: stopped"; fi
  done
  "$ROOT/scripts/services.sh" status || true
}

command=${1:-}
case $command in
  up) shift; take_topology_options "$@"; up ;;
  down) down ;;
  status) status ;;
  credential) shift; with_signing_key exec dotnet run -c "$CONFIGURATION" --project "$ROOT/tools/Supermarket.Credentials" -- "$@" ;;
  chaos)
    shift
    loadtest=(dotnet run -c "$CONFIGURATION" --project "$ROOT/loadtest/Supermarket.LoadTest")
    if [[ " $* " == *" --help "* || " $* " == *" -h "* ]]; then exec "${loadtest[@]}" -- chaos --help; fi
    API_REPLICAS=2 # the api scenario stops one replica while another serves
    take_topology_options "$@"
    if [[ " ${OTHER_ARGS[*]} " == *" --in-containers "* ]]; then
      "$ROOT/scripts/containers.sh" up
      build
    else
      up
    fi
    with_signing_key exec "${loadtest[@]}" --no-build -- chaos --url "$API_URL" --api-replicas "$API_REPLICAS" --broker-nodes "$BROKER_NODES" \
      --out "$STATE/chaos/$(date -u +%Y%m%d-%H%M%S)" "${OTHER_ARGS[@]}"
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
    up
    log "running the load test: ${OTHER_ARGS[*]}"
    with_signing_key dotnet run -c "$CONFIGURATION" --no-build --project "$ROOT/loadtest/Supermarket.LoadTest" -- --url "$API_URL" "${OTHER_ARGS[@]}"
    ;;
esac
