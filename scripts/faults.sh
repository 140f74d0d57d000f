#!/usr/bin/env bash
# The chaos run's faults (the run itself is the load test's `chaos` command: ./run.sh chaos --help). Each scenario is
# a fault, its repair, and a probe that passes once the repaired part works again:
#
#   scripts/faults.sh [--in-containers] prepare SCENARIO     what the fault needs, before its day (rolling-upgrade:
#                                                            building the previous writer)
#   scripts/faults.sh [--in-containers] inject SCENARIO      the fault
#   scripts/faults.sh [--in-containers] repair SCENARIO      undo it (local processes only: in containers podman's
#                                                            restart policies and the health checks repair)
#   scripts/faults.sh [--in-containers] recovered SCENARIO   exit 0 once the part works again
#
# Local scenarios: rabbitmq (the broker stopped), leader-kill and follower-kill (SIGKILL the cluster node that leads
# the writer's queue, or one that does not), node-pause (SIGSTOP the leader, then SIGCONT), writer, aggregator (every
# aggregator of the first sales shard) and api (the process SIGKILLed, then started again), shard-replica (one of the
# first shard's aggregators SIGKILLed while the other answers, then started), replica-rebuild (the same replica
# SIGKILLed, then started with the shard's checkpoint removed: it rebuilds from the whole ledger while the other
# answers), rebuild (every ledger entry's stored_at moved, as a restore of a backup
# taken this instant: the aggregator rebuilds), mariadb and db-outage (MariaDB stopped), db-stall (MariaDB SIGSTOPped),
# rolling-upgrade (the writer of the release before the newest migration started beside today's, then stopped),
# late-retry (no fault). In containers: broker-node-kill, writer-kill, aggregator-restart (both replicas of the first
# sales shard), mariadb-restart.
# Locally the system is the AppHost's (./run.sh chaos): each fault goes to one of its resources, through the Aspire
# CLI (stop, start) or to the resource's process (kill, pause). What inject learns for repair (the node it hit) is
# kept in .local/faults/.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/apphost.sh
source "$ROOT/scripts/apphost.sh"
log() { printf '[faults] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
FAULTS=$STATE/faults
mkdir -p "$FAULTS"

services() { "$ROOT/scripts/services.sh" "$@"; }
database() { mariadb --defaults-file="$STATE/mariadb/my.cnf" -uroot -N --database=supermarket -e "$1"; } # SQL, as the operator
stored_rows() { database "SELECT COUNT(*) FROM purchases" 2>/dev/null || echo 0; }
# The system's resources of a kind, as the AppHost named them (purchases-writer, purchases-writer-2, ...; api-1, ...).
resources_named() { aspire describe --format Json 2>/dev/null | jq -r --arg re "$1" '.resources[].displayName | select(test($re))'; }
all_healthy() { local name; for name in $(resources_named "$1"); do resource "$name" | jq -e '.healthStatus == "Healthy"' >/dev/null || return 1; done; }
writers_ready() { all_healthy '^purchases-writer(-[0-9]+)?$'; }
# The aggregators of the first sales shard: the one aggregator (sales-aggregator), or sales-aggregator-1 or
# sales-aggregator-1-R when the matrix is split (--aggregator-shards, --aggregator-replicas).
FIRST_SHARD='^sales-aggregator(-1(-[0-9]+)?)?$'
first_shard() { resources_named "$FIRST_SHARD"; }
# A service's management address (/health/ready, /about), as the AppHost gave it.
management_url() { resource "$1" | jq -er '.urls[] | select(.name == "management") | .url'; }
apis_ready() { all_healthy '^api(-[0-9]+)?$'; }

# A process of the system killed as a crash, then started again by the AppHost.
kill_resource() { # resource
  log "killing $1 (pid $(resource_pid "$1"))"
  kill -KILL "$(resource_pid "$1")"
  resource_wait "$1" down 30
}
start_resource() { aspire resource "$1" start >/dev/null; }

# The cluster's node a scenario hits: the one leading the writer's queue, or the next one (a follower).
target_node() { # scenario
  local leader nodes
  leader=$(services rabbit-leader supermarket.purchases.writer)
  nodes=$(resources_named '^rabbitmq-[0-9]+$' | wc -l)
  if [ "$1" = follower-kill ]; then echo $((leader % nodes + 1)); else echo "$leader"; fi
}
node() { cat "$FAULTS/node"; }

# The writer as it was before the newest migration (the parent of the commit that added it; -M so that the folder's
# move from the writer to Supermarket.Database counts as the move it is, not as six new migrations), built from git into
# the local state, where the AppHost's previous-writer resource runs it beside today's. Only src/ and the build's own
# files: a whole copy of the repository there would hold a second benchmarks project, which BenchmarkDotNet, looking
# for its project under the checkout, then refuses to build (it found two).
PREVIOUS_WRITER=$STATE/previous-writer
previous_writer_build() {
  local changed
  changed=$(git -C "$ROOT" log -1 -M --diff-filter=A --format=%H -- src/Supermarket.Database/Schema/Migrations src/Supermarket.PurchasesWriter/Storage/Migrations)
  rm -rf "$PREVIOUS_WRITER" && mkdir -p "$PREVIOUS_WRITER"
  git -C "$ROOT" archive "$changed^" -- src Directory.Build.props Directory.Build.targets Directory.Packages.props global.json .editorconfig |
    tar -x -C "$PREVIOUS_WRITER"
  log "building the writer of ${changed:0:7}^ (before the newest migration) in $PREVIOUS_WRITER"
  dotnet build "$PREVIOUS_WRITER/src/Supermarket.PurchasesWriter" -c Release -v q -nologo >"$PREVIOUS_WRITER/build.log" 2>&1 \
    || die "building the previous writer failed; see $PREVIOUS_WRITER/build.log"
}
previous_writer_start() { start_resource previous-writer; resource_wait previous-writer healthy 120; }

# Stopped once it has stored purchases beside today's writer: a rolling upgrade where it took nothing proves nothing.
previous_writer_stop() {
  local stored url
  url=$(resource previous-writer | jq -r '.urls[0].url')
  stored=$(curl -fsS "$url/metrics" | awk '/^supermarket_writer_purchases_stored_total/ { sum += $2 } END { print sum + 0 }')
  aspire resource previous-writer stop >/dev/null
  log "the previous writer stored $stored purchases beside today's"
  [ "$stored" -gt 0 ] || die "the previous writer stored nothing while it ran beside today's"
}

# replica-rebuild: the restarted replica (its sibling answers meanwhile), its management address and the checkpoint
# it starts from (/about). A shard's replicas share one file (the AppHost gives them one folder), so removing it is
# removing the sibling's too: harmless while the sibling runs (it reads it only at its start) and saves it again
# within Aggregator:CheckpointInterval. That save may come between the removal and the restart's read of the file,
# so it is removed again until the replica listens, and the probe checks that the start read the whole ledger.
REBUILT=sales-aggregator-1-1
# Before the day: every aggregator whole (questions go to every shard, and the sibling must be ready to answer
# alone), and how long the ledger is, which sets how long the rebuild takes (about half a second a million purchases
# here, docs/performance.md; fill-history makes it longer).
aggregators_whole() {
  local aggregator
  for aggregator in $(resources_named '^sales-aggregator'); do resource_wait "$aggregator" healthy 900; done
  log "the sales ledger holds $(database "SELECT COALESCE(SUM(purchases), 0) FROM sales_ledger") purchases"
}
start_without_checkpoint() { # resource checkpoint management-url
  local deadline=$((SECONDS + 120))
  rm -f "$2"
  start_resource "$1"
  until curl -s -o /dev/null "$3/health/live"; do
    ((SECONDS < deadline)) || die "$1 did not listen within 2 minutes of its start"
    rm -f "$2"
    sleep 0.1
  done
  log "$1 started without the checkpoint $2"
}
# Ready (its /health/ready, which Aspire's health status follows only at its next poll), and started from the whole
# ledger: a start from a checkpoint saved meanwhile rebuilt nothing and tested nothing, and never passes.
rebuilt_and_ready() { # management-url
  local start
  start=$(curl -fsS "$1/health/ready" | jq -c '.checks["sales-matrix"].data | {startSeconds, startedFromCheckpoint, entriesReadAtStart}') || return 1
  log "$REBUILT is ready: $start"
  jq -e '.startedFromCheckpoint == false' <<<"$start" >/dev/null
}

prepare() { # scenario
  case $1 in
    rolling-upgrade) previous_writer_build ;;
    replica-rebuild) aggregators_whole ;;
    *) ;;
  esac
}
# The queues the workers consume before a broker fault, which each must consume again after it.
CONSUMED=$FAULTS/consumed-queues
inject() { # scenario
  case $1 in
    rabbitmq | leader-kill | follower-kill | node-pause) services rabbit-consumed-queues >"$CONSUMED" ;;
  esac
  case $1 in
    rabbitmq) services rabbit-down ;;
    leader-kill | follower-kill)
      target_node "$1" >"$FAULTS/node"
      log "$1: node $(node)"
      services rabbit-node-down "$(node)" KILL ;;
    node-pause)
      target_node "$1" >"$FAULTS/node"
      log "$1: node $(node)"
      services rabbit-node-pause "$(node)" ;;
    writer) kill_resource purchases-writer ;;
    aggregator) for aggregator in $(first_shard); do kill_resource "$aggregator"; done ;;
    shard-replica) kill_resource sales-aggregator-1-1 ;;
    replica-rebuild)
      management_url "$REBUILT" >"$FAULTS/management"
      curl -fsS "$(cat "$FAULTS/management")/about" | jq -er '.facts.salesShard.checkpoint' >"$FAULTS/checkpoint"
      kill_resource "$REBUILT" ;;
    # A restore of a backup taken this instant, as the aggregator tells one: the same entries, each stored_at another.
    # Under the ledger head's lock, so no entry commits meanwhile: the entry the aggregator counted last has moved.
    rebuild)
      database "BEGIN; UPDATE ledger_head SET last_seq = last_seq WHERE id = 1;
        UPDATE sales_ledger SET stored_at = stored_at + INTERVAL 1 MICROSECOND; COMMIT;" ;;
    mariadb | db-outage) services db-down ;;
    db-stall) services db-pause ;;
    api) kill_resource api-1 ;;
    rolling-upgrade) previous_writer_start ;;
    late-retry) ;;
    *) die "no such scenario: $1" ;;
  esac
}
repair() { # scenario
  case $1 in
    rabbitmq) services rabbit-up ;;
    leader-kill | follower-kill) services rabbit-node-up "$(node)" ;;
    node-pause) services rabbit-node-resume "$(node)" ;;
    writer) start_resource purchases-writer ;;
    aggregator) for aggregator in $(first_shard); do start_resource "$aggregator"; done ;;
    shard-replica) start_resource sales-aggregator-1-1 ;;
    replica-rebuild) start_without_checkpoint "$REBUILT" "$(cat "$FAULTS/checkpoint")" "$(cat "$FAULTS/management")" ;;
    rebuild) ;;
    # Rows right after the restart: the writer's next retry (up to Writer:RetryMaxInterval away) makes the count grow.
    mariadb | db-outage) services db-up; stored_rows >"$FAULTS/rows-at-repair" ;;
    db-stall) services db-resume; stored_rows >"$FAULTS/rows-at-repair" ;;
    api) start_resource api-1 ;;
    rolling-upgrade) previous_writer_stop ;;
    late-retry) ;;
    *) die "no such scenario: $1" ;;
  esac
}
recovered() { # scenario
  case $1 in
    # The API answers, and every worker consumes again (a reconnected worker may not: docs/reliability.md).
    rabbitmq) apis_ready && services rabbit-consumed "$CONSUMED" ;;
    # The node is back in the cluster, every queue has all its members again, and every worker consumes.
    leader-kill | follower-kill | node-pause) services rabbit-cluster-whole && apis_ready && services rabbit-consumed "$CONSUMED" ;;
    writer | rolling-upgrade) writers_ready ;;
    aggregator | rebuild) curl -fsS "http://127.0.0.1:8080/items/store/1" ;;
    shard-replica) all_healthy '^sales-aggregator-1-1$' ;;
    replica-rebuild) rebuilt_and_ready "$(cat "$FAULTS/management")" ;;
    mariadb | db-outage | db-stall) [ "$(stored_rows)" -gt "$(cat "$FAULTS/rows-at-repair")" ] ;;
    api) all_healthy '^api-1$' ;;
    late-retry) true ;;
    *) die "no such scenario: $1" ;;
  esac
}

# ---- the same faults against the containers: podman's restart policies and the health checks do the repair.
containers() { "$ROOT/scripts/containers.sh" "$@"; }
container_of() { echo "supermarket_$1_1"; } # service (its first replica)
crash() { kill -KILL "$(podman inspect --format '{{.State.Pid}}' "$(container_of "$1")")"; }
healthy() { podman healthcheck run "$(container_of "$1")" </dev/null; }
# The aggregator's /health/ready, from inside its container (its management port is published nowhere).
aggregator_ready() {
  podman exec "$(container_of sales-aggregator-1)" bash -c \
    'exec 3<>/dev/tcp/127.0.0.1/8080 && printf "GET /health/ready HTTP/1.0\r\n\r\n" >&3 && sed "1,/^\r$/d" <&3'
}
# The node leading the writer's queue, as its service name (rabbitmq-N): asked of that one queue's Raft members, not
# of every queue (list_queues waits 60 s on any queue that does not answer, as while a redeployed cluster re-forms),
# and asked again for up to a minute while the queue has no leader.
writer_queue_leader() {
  local leader="" deadline=$((SECONDS + 60))
  until [ -n "$leader" ]; do
    ((SECONDS < deadline)) || die "the writer's queue has had no leader for a minute"
    leader=$(podman exec "$(container_of rabbitmq-1)" rabbitmq-queues -q quorum_status supermarket.purchases.writer --formatter json 2>/dev/null |
      jq -r '.[] | select(."Raft State" == "leader") | ."Node Name" | sub("^rabbit@"; "")' 2>/dev/null) || true
    [ -n "$leader" ] || sleep 1
  done
  echo "$leader"
}
container_inject() { # scenario
  case $1 in
    broker-node-kill) writer_queue_leader >"$FAULTS/node"; log "$1: $(node)"; crash "$(node)" ;;
    writer-kill) crash purchases-writer ;;
    aggregator-restart) containers compose restart sales-aggregator-1 ;;
    mariadb-restart) containers compose restart mariadb ;;
    *) die "no such scenario in containers: $1" ;;
  esac
}
container_recovered() { # scenario
  case $1 in
    broker-node-kill) healthy "$(node)" && healthy rabbitmq-1 && healthy purchases-writer && healthy api ;;
    writer-kill) healthy purchases-writer ;;
    # Ready, and started from the checkpoint its volume kept: reading the whole ledger again would show here.
    aggregator-restart)
      healthy sales-aggregator-1 && aggregator_ready | jq -e '.checks["sales-matrix"].data.startedFromCheckpoint' >/dev/null ;;
    mariadb-restart) healthy mariadb && healthy purchases-writer ;;
    *) die "no such scenario in containers: $1" ;;
  esac
}

in_containers=0
if [ "${1:-}" = --in-containers ]; then in_containers=1; shift; fi
[ $# -eq 2 ] || die "usage: $0 [--in-containers] prepare|inject|repair|recovered SCENARIO"
case $in_containers:$1 in
  0:prepare) prepare "$2" ;;
  0:inject) inject "$2" ;;
  0:repair) repair "$2" ;;
  0:recovered) recovered "$2" ;;
  1:prepare) ;;
  1:inject) container_inject "$2" ;;
  1:repair) ;;
  1:recovered) container_recovered "$2" ;;
  *) die "usage: $0 [--in-containers] prepare|inject|repair|recovered SCENARIO" ;;
esac
