#!/bin/bash
# The official nginx image's entrypoint, in short: each /docker-entrypoint.d/*.sh, then the command.
set -euo pipefail
for script in /docker-entrypoint.d/*.sh; do
  [ -e "$script" ] || continue
  "$script"
done
exec "$@"
