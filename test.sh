#!/usr/bin/env bash
# The test suite: brings up the real RabbitMQ and MariaDB (installing them if missing), then runs every test.
# The services stay up afterwards; `./run.sh down` stops them.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$ROOT/scripts/services.sh" up
dotnet test "$ROOT/Supermarket.sln" -c Release --logger "console;verbosity=normal" "$@"
