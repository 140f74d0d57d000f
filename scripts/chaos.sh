#!/usr/bin/env bash
# The chaos run: days of load with one fault injected into each, while the stores retry what the fault interrupted
# (bounded, honouring Retry-After, with Idempotency-Keys). After each day the load test verifies: every purchase that
# got a 201 is in MySQL, no purchase is stored twice, and the aggregator's answers equal MySQL's sums. One table row
# per scenario; any loss, duplicate, mismatch or given-up purchase exits non-zero.
# The days are dated 2019, long before the run: keyed purchases' ids begin with their date, so every one is
# back-dated, as a till's late upload is.
#
#   ./run.sh chaos [options]
#     --stores N               stores (64)
#     --purchases-per-hour N   per store and hour (300); a day is 9 hours
#     --fault-after S          seconds of load before the fault (10)
#     --fault-for S            seconds the component stays down (10)
#     --scenarios "…"          any of: rabbitmq writer aggregator mariadb db-stall api late-retry (all; api needs
#                              --api-replicas >= 2), and db-outage. aggregator: SIGKILLed mid-day, it restarts from its
#                              checkpoint and applies the backlog stored meanwhile. db-stall: MariaDB SIGSTOPped
#                              mid-day, with transactions between their INSERT and their COMMIT, then SIGCONT.
#                              db-outage: MariaDB down for DB_OUTAGE_SECONDS (360, longer than any retry window the
#                              writer once had), whatever --fault-for says; not in the default list. late-retry: the day is sent once, then all of
#                              it again with the same keys, as tills retrying long after: nothing new may be stored
#                              or counted.
#                              With --broker-nodes 3 also (and by default only): leader-kill (SIGKILL the node that
#                              leads the writer's queue, then start it again), follower-kill (the same for a node
#                              that does not lead it), node-pause (SIGSTOP the leader for --fault-for seconds, then
#                              SIGCONT: give it more than two heartbeats, Broker:Heartbeat, 10 s).
#     --api-replicas N         API replicas behind nginx (2)
#     --writers M              Purchases writers (1)
#     --broker-nodes 1|3       RabbitMQ nodes (1); 3: a cluster with quorum queues
#     --in-containers          against docker/compose.yaml's deployment (scripts/containers.sh) instead, where podman's
#                              restart policies and the health checks do the recovery, the script only the fault.
#                              Scenarios: broker-node-kill (SIGKILL the node leading the writer's queue), writer-kill
#                              (SIGKILL a writer), aggregator-restart (its container restarted: it must start from the
#                              checkpoint on its volume), mariadb-restart (its container restarted). All by default.
#
# The system is brought up (./run.sh up, or scripts/containers.sh up) with the topology given and left running.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/apps.sh
source "$ROOT/scripts/apps.sh"

STORES=64
PER_HOUR=300
FAULT_AFTER=10
DB_OUTAGE_SECONDS=${DB_OUTAGE_SECONDS:-360}
FAULT_FOR=10
SCENARIOS=""
RETRY_FOR=180
API_REPLICAS=2
IN_CONTAINERS=0
ARGS=()
while [ $# -gt 0 ]; do
  case $1 in
    --stores) STORES=$2; shift 2 ;;
    --purchases-per-hour) PER_HOUR=$2; shift 2 ;;
    --fault-after) FAULT_AFTER=$2; shift 2 ;;
    --fault-for) FAULT_FOR=$2; shift 2 ;;
    --scenarios) SCENARIOS=$2; shift 2 ;;
    --in-containers) IN_CONTAINERS=1; shift ;;
    -h|--help) sed -n '2,35p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) ARGS+=("$1"); shift ;;
  esac
done
take_topology_options "${ARGS[@]}"
if [ -z "$SCENARIOS" ]; then
  if ((IN_CONTAINERS)); then SCENARIOS="broker-node-kill writer-kill aggregator-restart mariadb-restart"
  elif ((BROKER_NODES > 1)); then SCENARIOS="leader-kill follower-kill node-pause"; else SCENARIOS="rabbitmq writer aggregator mariadb db-stall api late-retry"; fi
fi
if [[ $SCENARIOS =~ (leader-kill|follower-kill|node-pause) ]] && ((BROKER_NODES < 3)); then
  die "the leader-kill, follower-kill and node-pause scenarios need --broker-nodes 3"
fi
[ ${#OTHER_ARGS[@]} -eq 0 ] || die "unknown option ${OTHER_ARGS[0]} (see ./run.sh chaos --help)"
if [[ " $SCENARIOS " == *" api "* ]] && ((API_REPLICAS < 2)); then
  log "the api scenario needs --api-replicas 2 or more; skipping it"
  SCENARIOS=${SCENARIOS//api/}
fi

OUT=$STATE/chaos/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$OUT"
if ((IN_CONTAINERS)); then
  # The load test's container writes its reports here as the images' app user.
  chmod 777 "$OUT"
  "$ROOT/scripts/containers.sh" up
else
  "$ROOT/run.sh" up --api-replicas "$API_REPLICAS" --writers "$WRITERS" --broker-nodes "$BROKER_NODES"
fi

mysql_rows() { mariadb --defaults-file="$STATE/mariadb/my.cnf" -uroot -N -e "SELECT COUNT(*) FROM supermarket.purchases" 2>/dev/null || echo 0; }
writers_ready() { local name; for name in $(writer_names); do curl -fsS "$(app_url "$name")/health/ready" || return 1; done; }
apis_ready() { local name; for name in $(api_names); do curl -fsS "$(app_url "$name")/health/ready" || return 1; done; }

# The cluster's node a scenario hits: the one leading the writer's queue, or the next one (a follower).
target_node() { # scenario
  local leader
  leader=$("$ROOT/scripts/services.sh" rabbit-leader supermarket.purchases.writer)
  if [ "$1" = follower-kill ]; then echo $((leader % BROKER_NODES + 1)); else echo "$leader"; fi
}

# Each scenario: the fault, the repair, and a probe that passes once the repaired part works again.
inject() { # scenario
  case $1 in
    rabbitmq) "$ROOT/scripts/services.sh" rabbit-down ;;
    leader-kill | follower-kill)
      NODE=$(target_node "$1")
      log "$1: node $NODE"
      "$ROOT/scripts/services.sh" rabbit-node-down "$NODE" KILL ;;
    node-pause)
      NODE=$(target_node "$1")
      log "$1: node $NODE"
      "$ROOT/scripts/services.sh" rabbit-node-pause "$NODE" ;;
    writer) stop_app PurchasesWriter KILL ;;
    aggregator) stop_app SalesAggregator KILL ;;
    mariadb | db-outage) "$ROOT/scripts/services.sh" db-down ;;
    db-stall) "$ROOT/scripts/services.sh" db-pause ;;
    api) stop_app Api-1 KILL ;;
    late-retry) ;;
  esac
}
repair() { # scenario
  case $1 in
    rabbitmq) "$ROOT/scripts/services.sh" rabbit-up ;;
    leader-kill | follower-kill) "$ROOT/scripts/services.sh" rabbit-node-up "$NODE" ;;
    node-pause) "$ROOT/scripts/services.sh" rabbit-node-resume "$NODE" ;;
    writer) start_app PurchasesWriter ;;
    aggregator) start_app SalesAggregator ;;
    # Rows right after the restart: the writer's next retry (up to 10 s away) makes the count grow.
    mariadb | db-outage) "$ROOT/scripts/services.sh" db-up; ROWS_AT_REPAIR=$(mysql_rows) ;;
    db-stall) "$ROOT/scripts/services.sh" db-resume; ROWS_AT_REPAIR=$(mysql_rows) ;;
    api) start_app Api-1 ;;
    late-retry) ;;
  esac
}
recovered() { # scenario
  case $1 in
    # The API answers, and every worker consumes again (a reconnected worker may not: docs/reliability.md).
    rabbitmq) apis_ready && "$ROOT/scripts/services.sh" rabbit-consumed ;;
    # The node is back in the cluster, every queue has all its members again, and every worker consumes.
    leader-kill | follower-kill | node-pause)
      "$ROOT/scripts/services.sh" rabbit-cluster-whole && apis_ready && "$ROOT/scripts/services.sh" rabbit-consumed ;;
    writer) writers_ready ;;
    aggregator) curl -fsS "$API_URL/items/store/1" ;;
    mariadb | db-outage | db-stall) [ "$(mysql_rows)" -gt "$ROWS_AT_REPAIR" ] ;;
    api) curl -fsS "$(app_url Api-1)/health/ready" ;;
    late-retry) true ;;
  esac
}

# ---- the same faults against the containers: podman's restart policies and the health checks do the repair.
containers() { "$ROOT/scripts/containers.sh" "$@"; }
container_of() { echo "supermarket_$1_1"; } # service (its first replica)
crash() { kill -KILL "$(podman inspect --format '{{.State.Pid}}' "$(container_of "$1")")"; }
healthy() { podman healthcheck run "$(container_of "$1")" </dev/null; }
# The aggregator's /health/ready, from inside its container (its management port is published nowhere).
aggregator_ready() {
  podman exec "$(container_of sales-aggregator)" bash -c \
    'exec 3<>/dev/tcp/127.0.0.1/8080 && printf "GET /health/ready HTTP/1.0\r\n\r\n" >&3 && sed "1,/^\r$/d" <&3'
}
# The node leading the writer's queue, as its service name (rabbitmq-N).
writer_queue_leader() {
  podman exec "$(container_of rabbitmq-1)" rabbitmqctl -q list_queues name leader --formatter json |
    jq -r '.[] | select(.name == "supermarket.purchases.writer") | .leader | sub("^rabbit@"; "")'
}
container_inject() { # scenario
  case $1 in
    broker-node-kill) NODE=$(writer_queue_leader); log "$1: $NODE"; crash "$NODE" ;;
    writer-kill) crash purchases-writer ;;
    aggregator-restart) containers compose restart sales-aggregator ;;
    mariadb-restart) containers compose restart mariadb ;;
  esac
}
container_recovered() { # scenario
  case $1 in
    broker-node-kill) healthy "$NODE" && healthy rabbitmq-1 && healthy purchases-writer && healthy api ;;
    writer-kill) healthy purchases-writer ;;
    # Ready, and started from the checkpoint its volume kept: reading the whole ledger again would show here.
    aggregator-restart)
      healthy sales-aggregator && aggregator_ready | jq -e '.checks["sales-matrix"].data.startedFromCheckpoint' >/dev/null ;;
    mariadb-restart) healthy mariadb && healthy purchases-writer ;;
  esac
}

# One day of the load test, its reports in $OUT/NAME: a process against ./run.sh's system, or the load test's
# container against the containers (where the deployment gives its address and accounts).
run_day() { # name args...
  local name=$1; shift
  if ((IN_CONTAINERS)); then
    containers compose --profile loadtest run --rm -v "$OUT:/reports" loadtest "$@" --reports "/reports/$name"
  else
    dotnet "$LOADTEST" --url "$API_URL" "$@" --reports "$OUT/$name"
  fi
}

# A figure from the load test's summary.json (its path, then a jq expression).
figure() { jq -r "$2" "$1"; }

LOADTEST=$ROOT/loadtest/Supermarket.LoadTest/bin/$CONFIGURATION/net10.0/Supermarket.LoadTest.dll
table=$OUT/table.md
{
  echo "| scenario | acknowledged (201) | in MySQL | missing | duplicates | matrix = MySQL | 503 answers | other non-201 | given up | longest without a 201 | restart → working | max latency |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$table"
failed=0
index=0
for scenario in $SCENARIOS; do
  index=$((index + 1))
  day=$(printf '201901%02d' "$index")
  run_log=$OUT/$scenario.log
  fault_for=$FAULT_FOR retry_for=$RETRY_FOR
  if [ "$scenario" = db-outage ]; then
    # Nothing is stored while the database is out, and a keyed POST needs the writer's claim (its database) for its
    # 201: the tills retry, and the verification waits without progress, for longer than the outage.
    fault_for=$DB_OUTAGE_SECONDS retry_for=$((DB_OUTAGE_SECONDS + 120))
  fi
  day_args=(--stores "$STORES" --purchases-per-hour "$PER_HOUR" --date "$day" --retry-for "$retry_for"
    --max-item-id 10 --check-every-store)
  if [ "$scenario" = db-outage ]; then day_args+=(--verify-timeout "$retry_for"); fi
  if [ "$scenario" = late-retry ]; then
    # The same run id, seed and day send the same purchases with the same keys: the second pass is all retries.
    day_args+=(--run-id "late-retry-$day")
    log "scenario $scenario: first the day itself ($STORES stores x 9 hours x $PER_HOUR purchases/hour dated $day)"
    if ! run_day "$scenario-first" "${day_args[@]}" >"$OUT/$scenario-first.log" 2>&1; then
      log "$scenario: the first pass failed; see $OUT/$scenario-first.log"
      echo "| $scenario | first pass failed, see $OUT/$scenario-first.log |||||||||||" >>"$table"
      failed=1
      continue
    fi
  fi
  log "scenario $scenario: $STORES stores x 9 hours x $PER_HOUR purchases/hour dated $day; fault after ${FAULT_AFTER}s for ${fault_for}s"
  run_day "$scenario" "${day_args[@]}" >"$run_log" 2>&1 &
  load=$!
  sleep "$FAULT_AFTER"
  alive "$load" || log "warning: the day ended before the fault; use more purchases per hour"
  if ((IN_CONTAINERS)); then
    started=$SECONDS
    container_inject "$scenario" >>"$OUT/faults.log" 2>&1
  else
    inject "$scenario" >>"$OUT/faults.log" 2>&1
    sleep "$fault_for"
    started=$SECONDS
    repair "$scenario" >>"$OUT/faults.log" 2>&1
  fi
  deadline=$((SECONDS + 300))
  until if ((IN_CONTAINERS)); then container_recovered "$scenario"; else recovered "$scenario"; fi >/dev/null 2>&1; do
    ((SECONDS < deadline)) || { log "$scenario did not recover within 300 s"; break; }
    sleep 0.5
  done
  recovery=$((SECONDS - started))
  status=0
  wait "$load" || status=$?
  summary=$OUT/$scenario/summary.json
  if [ ! -s "$summary" ] || [ "$(figure "$summary" '.retries != null')" != true ]; then
    log "$scenario: the load test ended without a result; see $run_log"
    echo "| $scenario | run failed, see $run_log |||||||||||" >>"$table"
    failed=1
    continue
  fi
  printf '| %s | %s | %s | %s | %s s | %s ms |\n' "$scenario" \
    "$(figure "$summary" '.retries | [.acknowledged, .stored, .missing, .unexpected] | join(" | ")')" \
    "$(figure "$summary" 'if .answers_match_mysql then "yes" else "no" end')" \
    "$(figure "$summary" '[.answers_503, .retries.answers_other, .retries.given_up, (.retries.longest_without_201_seconds * 10 | round / 10 | tostring + " s")] | join(" | ")')" \
    "$recovery" "$(figure "$summary" '.max_ms | round')" >>"$table"
  if ((status != 0)); then
    log "$scenario FAILED; see $run_log"
    failed=1
  else
    log "$scenario passed"
  fi
done

echo
cat "$table"
echo
echo "Logs and reports: $OUT"
exit $failed
