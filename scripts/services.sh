#!/usr/bin/env bash
# What the AppHost (src/Supermarket.AppHost) cannot do for itself:
#
#   scripts/services.sh install [PACKAGE...]   Debian's packages the system runs (RabbitMQ, MariaDB, nginx) and the
#                                              tools the scripts call, or those named; the Aspire CLI (dotnet-tools.json);
#                                              MariaDB's folder, which its `mysql` user must own (the AppHost runs as
#                                              whoever started it)
#   scripts/services.sh rabbit-delete-app-queues   every queue of the default vhost (the applications declare theirs
#                                              again as they start)
#
# The faults the tests and the chaos run inject into the services are C#, written once
# (loadtest/Supermarket.Faults/SystemFaults.cs). rabbitmqctl authenticates with the node's Erlang cookie (no
# password here), which the AppHost's description of the node gives.
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

case ${1:-} in
  install) shift; install "$@" ;;
  rabbit-delete-app-queues)
    rabbitmqctl "$(first_node)" list_queues name --formatter json | jq -r '.[].name' |
      while read -r queue; do rabbitmqctl "$(first_node)" delete_queue "$queue" >/dev/null; done ;;
  *) echo "usage: $0 install [PACKAGE...]|rabbit-delete-app-queues" >&2; exit 2 ;;
esac
