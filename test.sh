#!/usr/bin/env bash
# The test suite: brings up the real RabbitMQ and MariaDB (installing them, and chromium, if missing), runs every xUnit test,
# validates docker/compose.yaml, then runs the main job itself on a tiny day (./run.sh with 4 stores), which must
# end with zero failures and a passing verification, and a short chaos run (every fault once, nothing lost), on one
# RabbitMQ node and then on a cluster of three; then the same day and a chaos run against the deployment in
# containers (./run.sh --in-containers: installs podman, builds the images on the first run).
# The services stay up afterwards; `./run.sh down` stops everything.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$ROOT/scripts/services.sh" up
# The load test's report is checked in a real browser (LoadReportTests): Debian's chromium, and a font to draw text.
"$ROOT/scripts/services.sh" install chromium fonts-dejavu-core
mkdir -p "$ROOT/.local"
output=$ROOT/.local/test-output.log
status=0
dotnet test "$ROOT/Supermarket.sln" -c Release --logger "console;verbosity=normal" "$@" 2>&1 | tee "$output" || status=$?
count() { awk -v key="$1:" '$1 == key {s += $2} END {print s + 0}' "$output"; }
passed=$(count Passed)
failed=$(count Failed)

echo "== the Docker deployment: docker/check.sh"
if "$ROOT/docker/check.sh"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi

echo "== the main job on a tiny day: ./run.sh --stores 4 --purchases-per-hour 20, with thresholds it must meet"
if "$ROOT/run.sh" --stores 4 --purchases-per-hour 20 --date 20200101 --threshold failures=0 --threshold "lag<=30s"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi

echo "== a short chaos run: each fault once, small load (./run.sh chaos; the full run is in docs/reliability.md)"
if "$ROOT/run.sh" chaos --stores 16 --purchases-per-hour 150 --fault-after 4 --fault-for 5; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi

echo "== the same on a three-node RabbitMQ cluster: a node killed (the writer queue's leader, then a follower) and paused"
# The pause outlasts two heartbeats (Broker:Heartbeat, 10 s), so the clients give the paused node up.
"$ROOT/run.sh" down >/dev/null
if "$ROOT/run.sh" chaos --broker-nodes 3 --stores 16 --purchases-per-hour 150 --fault-after 4 --fault-for 25; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi
"$ROOT/run.sh" down >/dev/null

echo "== the deployment in containers, over TLS: ./run.sh --in-containers --tls (docker/compose.yaml and compose.tls.yaml under podman)"
# RabbitMQ listens for AMQP over TLS only and MariaDB refuses TCP without it, so the day passing is TLS end to end.
if "$ROOT/run.sh" --in-containers --tls --stores 8 --purchases-per-hour 20 --date 20200102 --threshold failures=0; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi

echo "== chaos against the containers: a broker node and a writer killed, the aggregator and MariaDB restarted"
if "$ROOT/run.sh" chaos --in-containers --stores 16 --purchases-per-hour 100 --fault-after 5; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); status=1
fi
# Leave the single node running, as the rest of this script does.
"$ROOT/run.sh" down >/dev/null
"$ROOT/scripts/services.sh" up >/dev/null

# CI shows only the end of this output, so the failures' names and messages are repeated here.
# A failed test's line names it ("Failed Supermarket.Some.Tests.Name [2 s]"), unlike a log line that merely
# starts with "Failed".
if grep -qE '^ *Failed Supermarket\.' "$output"; then
  echo "== failed tests (full output: $output)"
  awk '/^ *Failed Supermarket\./ {shown = 40} /^ *Passed / {shown = 0} shown > 0 {print; shown--}' "$output"
fi
# One closing line over everything: dotnet test prints a summary per test project.
echo "tests: $passed passed, $failed failed"
exit $status
