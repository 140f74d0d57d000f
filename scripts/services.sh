#!/usr/bin/env bash
# What the AppHost (src/Supermarket.AppHost) cannot do for itself, and the faults the tests and the chaos run inject
# into the services it runs:
#
#   scripts/services.sh install [PACKAGE...]   Debian's packages the system runs (RabbitMQ, MariaDB, nginx) and the
#                                              tools the scripts call, or those named; the Aspire CLI (dotnet-tools.json);
#                                              MariaDB's folder, which its `mysql` user must own (the AppHost runs as
#                                              whoever started it)
#   scripts/services.sh rabbit-down|rabbit-up|db-down|db-up     a service stopped or started again, through the AppHost
#   scripts/services.sh db-pause|db-resume     MariaDB stops answering without closing a connection (SIGSTOP), as a
#                                              database stalled on its disk does, then goes on (SIGCONT)
#   scripts/services.sh rabbit-node-down N [KILL] | rabbit-node-up N | rabbit-node-pause N | rabbit-node-resume N
#                                              one node of a cluster (./run.sh --broker-nodes 3): stopped, killed as a
#                                              crash, paused as behind a network partition
#   scripts/services.sh rabbit-leader QUEUE    which node leads a quorum queue
#   scripts/services.sh rabbit-consumed-queues   the durable queues that have a consumer now, a name a line
#   scripts/services.sh rabbit-cluster-whole | rabbit-consumed FILE   exit 0 once the cluster and its queues are
#                                              whole, or every queue FILE names has a consumer again
#   scripts/services.sh rabbit-block|rabbit-unblock   a memory alarm: RabbitMQ stops reading from publishers
#   scripts/services.sh rabbit-delete-app-queues   every queue of the default vhost (the applications declare theirs
#                                              again as they start)
#
# Aspire can start, stop and restart a resource, not pause one, nor ask RabbitMQ which node leads a queue: those go
# to the processes and to rabbitmqctl, which authenticates with the node's Erlang cookie (no password here).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/apphost.sh
source "$ROOT/scripts/apphost.sh"

log() { printf '[services] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

install_missing() { # packages
  local missing=() pkg
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

# mariadbd runs as `mysql` and must reach its folder through every parent: that user alone is let through (an ACL
# entry where it could not pass already), not everyone.
database_folder() {
  local folder=$STATE/mariadb dir
  mkdir -p "$folder/data"
  chown -R mysql:mysql "$folder"
  dir=$folder
  while [ "$dir" != / ]; do
    dir=$(dirname "$dir")
    runuser -u mysql -- test -x "$dir" 2>/dev/null && continue
    setfacl -m u:mysql:x "$dir" || die "cannot let the mysql user reach $folder through $dir (setfacl failed; does the file system support ACLs?)"
  done
}

install() {
  if [ $# -gt 0 ]; then install_missing "$@"; return; fi
  install_missing rabbitmq-server mariadb-server mariadb-client nginx curl procps acl jq
  (cd "$ROOT" && dotnet tool restore >/dev/null)
  database_folder
}

# ---------------------------------------------------------------- RabbitMQ

# The single node is the resource rabbitmq; a cluster's are rabbitmq-1..N.
node_resource() { if [ "${1:-0}" = 0 ]; then echo rabbitmq; else echo "rabbitmq-$1"; fi; }
first_node() { if resource rabbitmq >/dev/null; then echo 0; else echo 1; fi; }

# rabbitmqctl as the node's own environment (its HOME holds the cookie), read from the AppHost.
rabbitmqctl() { # node command...
  local node=$1 described; shift
  described=$(resource "$(node_resource "$node")")
  HOME=$(jq -r .environment.HOME <<<"$described") RABBITMQ_NODENAME=$(jq -r .environment.RABBITMQ_NODENAME <<<"$described") \
    /usr/lib/rabbitmq/bin/rabbitmqctl -q "$@"
}

node_down() { # N [KILL]
  local name pid
  name=$(node_resource "$1")
  if [ "${2:-TERM}" = KILL ]; then
    pid=$(resource_pid "$name")
    log "killing $name (pid $pid)"
    kill -KILL "$pid"
    resource_wait "$name" down 30
  else
    aspire resource "$name" stop >/dev/null
  fi
}
node_up() { aspire resource "$(node_resource "$1")" start >/dev/null; resource_wait "$(node_resource "$1")" healthy 300; }
node_signal() { kill "-$2" "$(resource_pid "$(node_resource "$1")")"; } # N signal

# The number of the node that leads a quorum queue of the default vhost.
rabbit_leader() { # queue
  local leader
  leader=$(rabbitmqctl "$(first_node)" list_queues name leader --formatter json | jq -r --arg q "$1" '.[] | select(.name == $q) | .leader')
  [[ $leader =~ ^rabbit([1-9])@ ]] || die "queue $1 has no leader in a cluster (its node: $leader)"
  echo "${BASH_REMATCH[1]}"
}

# Every node runs, and every quorum queue of the default vhost has all its members online.
rabbit_cluster_whole() {
  local nodes
  nodes=$(rabbitmqctl 1 cluster_status --formatter json | jq '.disk_nodes | length')
  rabbitmqctl 1 cluster_status --formatter json | jq -e --argjson n "$nodes" '.running_nodes | length == $n' >/dev/null
  rabbitmqctl 1 list_queues name type online --formatter json |
    jq -e --argjson n "$nodes" 'all(.[] | select(.type == "quorum"); (.online | length) == $n)' >/dev/null
}

# The workers' queues, taken as the durable ones consumed now (before a fault): MassTransit's _error and _skipped
# queues, the writer's _unstorable and a queue of another topology the broker keeps (a sales shard of another shard
# count, a name a release gave up) have no consumer; the API's reply queues are temporary. rabbit_consumed passes once
# each of them has a consumer again: a worker that reconnected but does not consume (docs/reliability.md) does not.
rabbit_consumed_queues() {
  rabbitmqctl "$(first_node)" list_queues name durable consumers --formatter json |
    jq -r '.[] | select(.durable and .consumers > 0) | .name'
}
rabbit_consumed() { # file naming the queues
  rabbitmqctl "$(first_node)" list_queues name consumers --formatter json |
    jq -e --rawfile wanted "$1" '[.[] | select(.consumers > 0) | .name] as $consumed
      | all($wanted | split("\n")[] | select(. != ""); . as $queue | any($consumed[]; . == $queue))' >/dev/null
}

case ${1:-} in
  install) shift; install "$@" ;;
  rabbit-down) aspire resource rabbitmq stop >/dev/null ;;
  rabbit-up) node_up 0 ;;
  rabbit-node-up) node_up "${2:?node number}" ;;
  rabbit-node-down) node_down "${2:?node number}" "${3:-TERM}" ;;
  rabbit-node-pause) node_signal "${2:?node number}" STOP ;;
  rabbit-node-resume) node_signal "${2:?node number}" CONT ;;
  rabbit-leader) rabbit_leader "${2:?queue}" ;;
  rabbit-cluster-whole) rabbit_cluster_whole ;;
  rabbit-consumed-queues) rabbit_consumed_queues ;;
  rabbit-consumed) rabbit_consumed "${2:?file naming the queues}" ;;
  rabbit-block) rabbitmqctl "$(first_node)" set_vm_memory_high_watermark 0 ;;
  rabbit-unblock) rabbitmqctl "$(first_node)" set_vm_memory_high_watermark 0.4 ;;
  rabbit-delete-app-queues)
    rabbitmqctl "$(first_node)" list_queues name --formatter json | jq -r '.[].name' |
      while read -r queue; do rabbitmqctl "$(first_node)" delete_queue "$queue" >/dev/null; done ;;
  db-down) aspire resource mariadb stop >/dev/null ;;
  db-up) aspire resource mariadb start >/dev/null; resource_wait mariadb healthy 120 ;;
  db-pause) kill -STOP "$(resource_pid mariadb)" ;;
  db-resume) kill -CONT "$(resource_pid mariadb)" ;;
  *) echo "usage: $0 install [PACKAGE...]|rabbit-down|rabbit-up|rabbit-node-up N|rabbit-node-down N [KILL]|rabbit-node-pause N|rabbit-node-resume N|rabbit-leader QUEUE|rabbit-cluster-whole|rabbit-consumed-queues|rabbit-consumed FILE|rabbit-block|rabbit-unblock|rabbit-delete-app-queues|db-down|db-up|db-pause|db-resume" >&2; exit 2 ;;
esac
