#!/usr/bin/env bash
# The deployment of docker/compose.yaml in containers on this machine, under Debian's podman (no Docker engine, no
# systemd, no registry here):
#
#   scripts/containers.sh prepare               install podman and build the local base images (what up does first),
#                                               so that a later up starts at once
#   scripts/containers.sh up [--tls]            build the images, start the topology, wait until it is healthy;
#                                               --tls: AMQP and MySQL over TLS (docker/compose.tls.yaml), with a CA
#                                               and a server certificate made now, for this deployment only
#   scripts/containers.sh loadtest [options]    run the load test's container against it (the load test's options)
#   scripts/containers.sh loadtest-reports DIR [options]   the same, its reports in DIR (the chaos run's days)
#   scripts/containers.sh compose ARGS...       docker-compose with this deployment's settings (ps, logs, kill, ...)
#   scripts/containers.sh down                  stop the topology (its volumes stay), the health checks and podman
#
# What it sets up once: podman with runc, cgroupfs and no default ulimits (crun and podman's raised limits fail on
# this kind of machine: docs/deployment.md), podman's Docker-compatible socket for Debian's docker-compose 1.29, the images of
# docker/local-bases/ in place of the official ones, and the deployment's secrets (random, in
# .local/containers/compose.env, mode 600, read by docker-compose --env-file).
# Podman runs a container's health check from a systemd timer; without systemd this script's health-check loop runs
# them instead (`podman healthcheck run`), so compose's depends_on conditions and the load test see real health.
# Restarts are podman's own (compose's restart: policies).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=${SUPERMARKET_STATE_DIR:-$ROOT/.local}
DIR=$STATE/containers
PIDS=$STATE/pids
ENV_FILE=$DIR/compose.env
# Present while the deployment runs with TLS: the CA and the server certificate `up --tls` made.
TLS_DIR=$DIR/tls
SOCKET=/run/podman/podman.sock
BASE_IMAGE=localhost/supermarket/debian:bookworm
# How often every running container's health check runs; compose's intervals (10 s) assume a timer of their own.
HEALTH_CHECK_SECONDS=5
# The group, in the broker's and the database's images, whose members may read the TLS server key (mode 640).
TLS_KEY_GROUP_ID=7000
# The commit the images are built from: each service's /about says it, and the load test refuses an API of another.
SOURCE_REVISION=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || true)

log() { printf '[containers] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
pid_of() { if [ -f "$1" ]; then cat "$1"; fi; }

compose() {
  local files=(-f "$ROOT/docker/compose.yaml")
  [ ! -d "$TLS_DIR" ] || files+=(-f "$ROOT/docker/compose.tls.yaml")
  DOCKER_HOST=unix://$SOCKET SUPERMARKET_TLS_DIR=$TLS_DIR SUPERMARKET_SOURCE_REVISION=$SOURCE_REVISION \
    docker-compose -p supermarket "${files[@]}" --env-file "$ENV_FILE" "$@"
}

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

install_podman() {
  local missing=() pkg
  # The dnsname plugin lets containers find each other by service name on compose's network (without it the network
  # has no DNS: the RabbitMQ nodes never form their cluster and nothing reaches mariadb); podman does not pull it in.
  for pkg in podman runc golang-github-containernetworking-plugin-dnsname mmdebstrap docker-compose curl jq openssl; do
    installed "$pkg" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}; run as root or install them with apt-get"
    log "installing ${missing[*]} from Debian's packages"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  local conf=/etc/containers/containers.conf
  if ! grep -qs '^runtime = "runc"' "$conf"; then
    log "configuring podman for this machine ($conf): runc, cgroupfs, no default ulimits"
    mkdir -p "$(dirname "$conf")"
    [ ! -e "$conf" ] || cp "$conf" "$conf.before-supermarket"
    printf '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n' >"$conf"
  fi
}

socket_answers() { curl -fsS --unix-socket "$SOCKET" http://podman/_ping >/dev/null 2>&1; }

start_podman_service() {
  socket_answers && return
  mkdir -p "$(dirname "$SOCKET")" "$PIDS" "$DIR"
  log "starting podman's Docker-compatible API on $SOCKET"
  setsid podman system service --time=0 "unix://$SOCKET" >"$DIR/podman-service.log" 2>&1 &
  echo $! >"$PIDS/podman-service.pid"
  local deadline=$((SECONDS + 30))
  until socket_answers; do
    ((SECONDS < deadline)) || die "podman's API did not answer within 30 s ($DIR/podman-service.log)"
    sleep 0.3
  done
}

image_exists() { podman image exists "$1"; }

# The official images' stand-ins (docker/local-bases/README.md), each built on a Debian base that trusts what this
# machine trusts (its extra CAs included, so the SDK restores from this machine's NuGet): once per machine, and again
# when its Containerfile or the scripts it copies change (a label holds their checksum).
build_local_bases() {
  if ! image_exists "$BASE_IMAGE"; then
    log "building the Debian base image with mmdebstrap"
    local tar=$DIR/debian-base.tar
    # $1 in a hook is mmdebstrap's: the new root.
    # shellcheck disable=SC2016
    mmdebstrap --quiet --variant=minbase --include=ca-certificates \
      --customize-hook='sync-in /usr/local/share/ca-certificates /usr/local/share/ca-certificates' \
      --customize-hook='chroot "$1" update-ca-certificates' bookworm "$tar"
    podman import --quiet "$tar" "$BASE_IMAGE" >/dev/null
    rm -f "$tar"
  fi
  local name context image sources
  for name in rabbitmq mariadb nginx curl dotnet-sdk dotnet-runtime; do
    image=localhost/supermarket/$name:local
    sources=$(for file in "$ROOT/docker/local-bases/$name".* "$ROOT/docker/local-bases/$name"-*.sh; do
      [ ! -e "$file" ] || cat "$file"
    done | sha256sum | cut -c1-16)
    if image_exists "$image" \
      && [ "$(podman image inspect --format '{{ index .Labels "supermarket.sources" }}' "$image")" = "$sources" ]; then
      continue
    fi
    context=$ROOT/docker/local-bases
    [[ $name != dotnet-* ]] || context=$(dirname "$(readlink -f "$(command -v dotnet)")")
    log "building $image (docker/local-bases/$name.Containerfile)"
    podman build --quiet --build-arg "BASE=$BASE_IMAGE" --build-arg "TLS_KEY_GROUP_ID=$TLS_KEY_GROUP_ID" \
      --label "supermarket.sources=$sources" -t "$image" -f "$ROOT/docker/local-bases/$name.Containerfile" "$context" >/dev/null
  done
}

random_secret() { head -c 48 /dev/urandom | base64 -w0 | tr -dc 'A-Za-z0-9' | head -c 32; }

# The variables docker/compose.yaml requires, made once: the same accounts as every deployment has
# (docs/security.md), with passwords no one else knows; and the local bases in place of the official images.
ensure_env_file() {
  [ -s "$ENV_FILE" ] && return
  mkdir -p "$DIR"
  local account
  (
    umask 077
    {
      echo "RABBITMQ_ERLANG_COOKIE=$(random_secret)"
      for account in ADMIN API WRITER AGGREGATOR MONITOR; do
        echo "RABBITMQ_${account}_USER=supermarket_${account,,}"
        echo "RABBITMQ_${account}_PASSWORD=$(random_secret)"
      done
      echo "MYSQL_USER=supermarket_owner"
      echo "MYSQL_PASSWORD=$(random_secret)"
      echo "MYSQL_WRITER_USER=supermarket"
      echo "MYSQL_WRITER_PASSWORD=$(random_secret)"
      echo "MYSQL_READER_USER=supermarket_reader"
      echo "MYSQL_READER_PASSWORD=$(random_secret)"
      echo "MYSQL_VERIFIER_USER=supermarket_verifier"
      echo "MYSQL_VERIFIER_PASSWORD=$(random_secret)"
      echo "MYSQL_ROOT_PASSWORD=$(random_secret)"
      echo "SUPERMARKET_SIGNING_KEY=$(head -c 48 /dev/urandom | base64 -w0)"
      echo "RABBITMQ_IMAGE=localhost/supermarket/rabbitmq:local"
      echo "CURL_IMAGE=localhost/supermarket/curl:local"
      echo "MARIADB_IMAGE=localhost/supermarket/mariadb:local"
      echo "NGINX_IMAGE=localhost/supermarket/nginx:local"
      echo "DOTNET_SDK_IMAGE=localhost/supermarket/dotnet-sdk:local"
      echo "DOTNET_RUNTIME_IMAGE=localhost/supermarket/dotnet-runtime:local"
      # The load test runs inside the compose network; nginx is published on this machine's loopback only.
      echo "NGINX_PUBLISH=127.0.0.1:8080"
    } >"$ENV_FILE"
  )
}

# The deployment's volumes as this machine has them; written after each up, so the next can tell its own.
VOLUMES_FILE=$DIR/volumes
volumes_now() {
  podman volume ls --quiet --filter label=com.docker.compose.project=supermarket | sort |
    xargs -r podman volume inspect --format '{{.Name}} {{.CreatedAt}}'
}

# Volumes this deployment did not make (another checkout's, or made with secrets no longer known) hold users whose
# passwords are not in $ENV_FILE: the services could not log in. They go, with their containers.
drop_foreign_volumes() {
  local now
  now=$(volumes_now)
  [ -n "$now" ] || return 0
  [ "$now" != "$(cat "$VOLUMES_FILE" 2>/dev/null)" ] || return 0
  log "removing volumes this deployment did not make (their users' passwords are not in $ENV_FILE): $(echo "$now" | cut -d' ' -f1 | tr '\n' ' ')"
  project_containers | xargs -r podman rm --force >/dev/null
  echo "$now" | cut -d' ' -f1 | xargs podman volume rm --force >/dev/null
}

# Stands in for the systemd timers podman would start: every running container with a health check has it run, all
# at once (RabbitMQ's takes seconds), each bounded (podman 4.3 does not enforce a check's timeout when run this way).
health_checks_loop() {
  while :; do
    podman ps --format '{{.ID}}' --filter status=running | {
      while read -r id; do
        timeout 60 podman healthcheck run "$id" </dev/null >/dev/null 2>&1 &
      done
      wait
    }
    sleep "$HEALTH_CHECK_SECONDS"
  done
}

start_health_checks() {
  alive "$(pid_of "$PIDS/health-checks.pid")" && return
  mkdir -p "$PIDS"
  health_checks_loop >/dev/null 2>&1 &
  echo $! >"$PIDS/health-checks.pid"
}

# A CA made for this deployment, and one server certificate it signs naming every broker node and the database.
# The key is readable by its owner and the group the images put RabbitMQ's and MariaDB's users in, which run under
# other uids; by no other account of this machine (#57). Rootless podman maps the group into the containers' range.
make_tls() {
  rm -rf "$TLS_DIR"
  mkdir -p "$TLS_DIR"
  log "making a CA and the servers' certificate for TLS ($TLS_DIR)"
  openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=Supermarket deployment CA" \
    -keyout "$TLS_DIR/ca.key" -out "$TLS_DIR/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=supermarket-servers" \
    -keyout "$TLS_DIR/server.key" -out "$TLS_DIR/server.csr" 2>/dev/null
  printf 'subjectAltName = DNS:rabbitmq-1, DNS:rabbitmq-2, DNS:rabbitmq-3, DNS:mariadb\nextendedKeyUsage = serverAuth\n' >"$TLS_DIR/server.ext"
  openssl x509 -req -in "$TLS_DIR/server.csr" -CA "$TLS_DIR/ca.pem" -CAkey "$TLS_DIR/ca.key" -CAcreateserial \
    -days 825 -extfile "$TLS_DIR/server.ext" -out "$TLS_DIR/server.pem" 2>/dev/null
  rm -f "$TLS_DIR/ca.key" "$TLS_DIR/server.csr" "$TLS_DIR/server.ext" "$TLS_DIR/ca.srl"
  chmod 640 "$TLS_DIR/server.key"
  if [ "$(id -u)" -eq 0 ]; then
    chgrp "$TLS_KEY_GROUP_ID" "$TLS_DIR/server.key"
  else
    podman unshare chgrp "$TLS_KEY_GROUP_ID" "$TLS_DIR/server.key"
  fi
}

prepare() {
  install_podman
  start_podman_service
  build_local_bases
}

up() { # [--tls]
  prepare
  ensure_env_file
  drop_foreign_volumes
  if [ "${1:-}" = --tls ]; then make_tls; else rm -rf "$TLS_DIR"; fi
  start_health_checks
  log "building the application images and starting the topology (docker/compose.yaml)"
  # The load test's image too: it is in a profile, which a plain `build` skips, and `run` builds an image only when
  # there is none, so a load test from an older checkout would test this one.
  compose --profile loadtest build --quiet
  compose up -d
  # The stand-in's nginx (1.22) finds the API replicas once, at its start; this up may have recreated them since.
  compose restart nginx
  volumes_now >"$VOLUMES_FILE"
  log "up: nginx on 127.0.0.1:$(compose port nginx 80 | cut -d: -f2)"
}

project_containers() { podman ps --all --quiet --filter label=com.docker.compose.project=supermarket; }

down() {
  # Containers outlive podman's API service: whatever stopped it, the deployment's containers are stopped here.
  if [ -n "$(project_containers)" ]; then
    start_podman_service
    if [ -s "$ENV_FILE" ]; then
      compose --profile loadtest down --remove-orphans || true
    fi
    project_containers | xargs -r podman rm --force >/dev/null
  fi
  local name pid
  for name in health-checks podman-service; do
    pid=$(pid_of "$PIDS/$name.pid")
    if alive "$pid"; then
      log "stopping $name (pid $pid)"
      kill "$pid"
    fi
    rm -f "$PIDS/$name.pid"
  done
}

# The load test's container, to its end. docker-compose's wait on podman's API failed once after the container had
# ended ("Error waiting for container: unexpected end of JSON input", exit 125, a chaos day whose own verification had
# passed): the exit code is then the container's own, from podman.
run_loadtest() {
  local name=supermarket-loadtest-$$ status=0
  compose --profile loadtest run --name "$name" "$@" || status=$?
  if [ "$status" -eq 125 ] && podman container exists "$name"; then
    status=$(podman wait "$name")
  fi
  podman rm --force "$name" >/dev/null 2>&1 || true
  return "$status"
}

command=${1:-}
case $command in
  prepare) prepare ;;
  up) shift; up "$@" ;;
  down) down ;;
  loadtest) shift; run_loadtest loadtest "$@" ;;
  loadtest-reports) shift; reports=$1; shift; run_loadtest -v "$reports:/reports" loadtest "$@" --reports /reports ;;
  compose) shift; compose "$@" ;;
  *) echo "usage: $0 prepare|up [--tls]|down|loadtest [load test options]|loadtest-reports DIR [options]|compose ARGS..." >&2; exit 2 ;;
esac
