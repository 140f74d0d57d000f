#!/usr/bin/env bash
# The test suite: brings up the real RabbitMQ and MariaDB (installing them if missing), then runs every test.
# The services stay up afterwards; `./run.sh down` stops them.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$ROOT/scripts/services.sh" up
mkdir -p "$ROOT/.local"
output=$ROOT/.local/test-output.log
status=0
dotnet test "$ROOT/Supermarket.sln" -c Release --logger "console;verbosity=normal" "$@" 2>&1 | tee "$output" || status=$?
# One closing line over all test projects: dotnet test prints a summary per project.
passed=$(grep -oE '^\s+Passed:\s+[0-9]+' "$output" | awk '{s += $2} END {print s + 0}')
failed=$(grep -oE '^\s+Failed:\s+[0-9]+' "$output" | awk '{s += $2} END {print s + 0}')
echo "tests: $passed passed, $failed failed"
exit $status
