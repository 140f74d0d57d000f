#!/usr/bin/env bash
# What the AppHost (src/Supermarket.AppHost) cannot do for itself:
#
#   scripts/services.sh install [PACKAGE...]   Debian's packages the system runs (RabbitMQ, MariaDB, nginx) and the
#                                              tools the scripts call, or those named; the Aspire CLI (dotnet-tools.json);
#                                              MariaDB's folder, which its `mysql` user must own (the AppHost runs as
#                                              whoever started it)
#
# What an operator does to the running services is C#, written once (loadtest/Supermarket.Faults/SystemFaults.cs): the
# faults the tests and the chaos run inject, and the broker's and the database's chores, through the load test's
# commands (`fault`, `broker delete-queues`, `database empty`: see its --help). rabbitmqctl authenticates there with the
# node's Erlang cookie, which the AppHost's description of the node gives.
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

case ${1:-} in
  install) shift; install "$@" ;;
  *) echo "usage: $0 install [PACKAGE...]" >&2; exit 2 ;;
esac
