#!/usr/bin/env bash
# Validates docker/compose.yaml and its TLS override without a Docker engine: Debian's docker-compose
# 1.29 resolves and checks the whole file. Installs it when missing. Placeholder credentials stand in for the real
# ones, which the file requires and never defaults.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if ! command -v docker-compose >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || { echo "docker-compose is missing; install Debian's docker-compose package" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null \
    || { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null; }
fi
RABBITMQ_ERLANG_COOKIE=check RABBITMQ_ADMIN_USER=check RABBITMQ_ADMIN_PASSWORD=check RABBITMQ_API_USER=check RABBITMQ_API_PASSWORD=check \
  RABBITMQ_WRITER_USER=check RABBITMQ_WRITER_PASSWORD=check RABBITMQ_AGGREGATOR_USER=check RABBITMQ_AGGREGATOR_PASSWORD=check \
  RABBITMQ_MONITOR_USER=check RABBITMQ_MONITOR_PASSWORD=check MYSQL_USER=check MYSQL_PASSWORD=check MYSQL_WRITER_USER=check MYSQL_WRITER_PASSWORD=check MYSQL_VERIFIER_USER=check MYSQL_VERIFIER_PASSWORD=check MYSQL_READER_USER=check \
  MYSQL_READER_PASSWORD=check MYSQL_ROOT_PASSWORD=check SUPERMARKET_SIGNING_KEY=check \
  SUPERMARKET_TLS_DIR=/check docker-compose -p supermarket -f "$ROOT/docker/compose.yaml" -f "$ROOT/docker/compose.tls.yaml" config --quiet
echo "docker/compose.yaml is valid, alone and with docker/compose.tls.yaml"
