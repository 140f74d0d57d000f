#!/usr/bin/env bash
# The test suite. First the fast tests (Supermarket.Fast.slnf: a project per deployable and library, no service
# needed). Then the integration tests, which start the system themselves through its AppHost (Aspire.Hosting.Testing:
# TestedAppHost, the topology users run, dashboard included) and use its RabbitMQ and MariaDB (a vhost and databases of
# their own); a system already running (./run.sh, as the README orders them) is stopped first, since the two would
# share ports and services. Then it validates docker/compose.yaml, runs the main job itself on a tiny day (./run.sh
# with 4 stores), which must end with zero failures and a passing verification, and a short chaos run (every fault
# once, nothing lost), on one RabbitMQ node and then on a cluster of three; then the same day and a chaos run against
# the deployment in containers (./run.sh --in-containers: installs podman, builds the images on the first run); last,
# the README's benchmark command on one benchmark, with whatever the chaos runs left in the checkout.
# The system is up afterwards (./run.sh up); `./run.sh down` stops everything. Test counts come from the TRX files
# dotnet test writes, not from its console text.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
results=$ROOT/.local/test-results
rm -rf "$results"
# Test hosts' dumps and consoles may hold any secret: the folder is its owner's alone.
mkdir -p "$results" && chmod 700 "$results"
status=0
# Each step's heading says how long the run has taken so far, so that a slow step shows in CI's log.
step() { current_step=$1; printf '== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$1"; }
# A step that failed is named again at the end: CI shows only the end of this output.
failed_steps=()
step_failed() { failed=$((failed + 1)); status=1; failed_steps+=("$current_step${1:+ ($1)}"); }
# No test may hang the run: a test still running after this long fails it, with a dump of the test host beside the
# TRX files (the longest test here takes about a minute).
hang=(--blame-hang-timeout 10m --blame-hang-dump-type mini)
# xmllint reads the TRX files; shellcheck checks the scripts (ShellScriptsTests).
"$ROOT/scripts/services.sh" install libxml2-utils shellcheck
step "the fast tests: Supermarket.Fast.slnf"
dotnet test "$ROOT/Supermarket.Fast.slnf" -c Release --logger trx --results-directory "$results" "${hang[@]}" "$@" || status=$?

# shellcheck source=scripts/apphost.sh
source "$ROOT/scripts/apphost.sh"
# What the AppHost runs (RabbitMQ, MariaDB, nginx, the Aspire CLI), and a real browser for the dashboard and the load
# test's report (DashboardTests, LoadReportTests): Debian's chromium, and a font to draw text.
"$ROOT/scripts/services.sh" install
"$ROOT/scripts/services.sh" install chromium fonts-dejavu-core
stop_apphost
step "the integration tests: tests/Supermarket.IntegrationTests, on the AppHost"
dotnet test "$ROOT/tests/Supermarket.IntegrationTests" -c Release --logger trx --logger "console;verbosity=normal" \
  --results-directory "$results" "${hang[@]}" "$@" || status=$?

# Sums one attribute of every TRX file's counters (total, passed, failed, ...).
trx_count() {
  local sum=0 trx
  for trx in "$results"/*.trx; do
    sum=$((sum + $(xmllint --xpath "string(//*[local-name()='Counters']/@$1)" "$trx")))
  done
  echo "$sum"
}
passed=$(trx_count passed)
failed=$(trx_count failed)
# Fewer results than tests means a test host that crashed or a project that did not build.
if [ "$(trx_count total)" -ne "$((passed + failed))" ] || [ "$(find "$results" -name '*.trx' | wc -l)" -eq 0 ]; then
  step_failed "$(trx_count total) tests in the TRX files, $((passed + failed)) with a result: a test host crashed or hung, or a project did not build"
fi

step "the Docker deployment: docker/check.sh"
if "$ROOT/docker/check.sh"; then
  passed=$((passed + 1))
else
  step_failed
fi

# Under umask 022, as on a machine of several accounts: what ./run.sh writes must be private whatever the umask.
step "the main job on a tiny day: ./run.sh --stores 4 --purchases-per-hour 20, with thresholds it must meet (umask 022)"
if (umask 022 && "$ROOT/run.sh" --stores 4 --purchases-per-hour 20 --date 20200101 --threshold failures=0 --threshold "lag<=30s") 2>&1 |
  tee "$results/main-job.log"; then
  passed=$((passed + 1))
else
  step_failed
fi

# The secrets a run leaves: the dashboard's login token and the accounts' passwords.
secrets() {
  jq -r '.dashboardUrl | capture("[?]t=(?<token>.+)").token' "$STATE/apphost.json"
  jq -r '.[].password' "$STATE/accounts.json"
}
# Files under the state folder another account can read: readable by others, in folders they may pass through.
# MariaDB's and RabbitMQ's data are left out: they hold no secret in clear, and MariaDB's is large.
readable_by_others() {
  find "$STATE" \( -path "$STATE/mariadb" -o -path "$STATE/rabbitmq" -o -type d ! -perm -o=x \) -prune -o -type f -perm -o=r -print
}
step "no secret of the tiny day is another account's to read: not in .local/apphost.json (mode 600), any file under .local or the console"
leaks=$(readable_by_others | while read -r file; do grep -lFf <(secrets) "$file" || true; done)
if [ "$(stat -c %a "$STATE/apphost.json")" = 600 ] && [ -z "$leaks" ] && ! grep -qFf <(secrets) "$results/main-job.log"; then
  passed=$((passed + 1))
else
  echo "   .local/apphost.json has mode $(stat -c %a "$STATE/apphost.json"); readable by others and holding a secret: ${leaks:-none}"
  grep -qFf <(secrets) "$results/main-job.log" && echo "   the console holds a secret: $(grep -cFf <(secrets) "$results/main-job.log") lines"
  step_failed
fi

# Podman and the containers' base images (mostly downloads) are got ready while the chaos runs on the AppHost, for the
# container steps below; their up does the same again, at once, or anew if this failed.
(timeout 20m "$ROOT/scripts/containers.sh" prepare >"$results/containers-prepare.log" 2>&1) &
containers_prepared=$!

# The chaos days run 32 tills: a till waits for each 201, so twice the tills of 16 shorten each day and keep twice as
# many purchases in flight through each fault. On one node a day holds 8,640 purchases: its faults are over 9 s into
# it, and the purchases after them still take most of the day. The cluster's (21,600) outlast a 25 s pause and the
# recovery after it; the containers' hold 11,520.
step "a short chaos run: each fault once, small load (./run.sh chaos; the full run is in docs/chaos.md)"
if "$ROOT/run.sh" chaos --stores 32 --purchases-per-hour 30 --fault-after 4 --fault-for 5; then
  passed=$((passed + 1))
else
  step_failed
fi

step "the same on a three-node RabbitMQ cluster: a node killed (the writer queue's leader, then a follower) and paused"
# The pause outlasts two heartbeats (Broker:Heartbeat, 10 s), so the clients give the paused node up.
"$ROOT/run.sh" down >/dev/null
if "$ROOT/run.sh" chaos --broker-nodes 3 --stores 32 --purchases-per-hour 75 --fault-after 4 --fault-for 25; then
  passed=$((passed + 1))
else
  step_failed
fi
"$ROOT/run.sh" down >/dev/null

wait "$containers_prepared" || echo "   scripts/containers.sh prepare failed (see $results/containers-prepare.log); the next step's up tries again"
step "the deployment in containers, over TLS: ./run.sh --in-containers --tls (docker/compose.yaml and compose.tls.yaml under podman)"
# RabbitMQ listens for AMQP over TLS only and MariaDB refuses TCP without it, so the day passing is TLS end to end.
if "$ROOT/run.sh" --in-containers --tls --stores 8 --purchases-per-hour 20 --date 20200102 --threshold failures=0; then
  passed=$((passed + 1))
else
  step_failed
fi
step "the TLS server key the containers read is no other local account's (mode 640, of the servers' group)"
if [ "$(stat -c %a "$STATE/containers/tls/server.key" 2>/dev/null)" = 640 ]; then
  passed=$((passed + 1))
else
  echo "   .local/containers/tls/server.key has mode $(stat -c %a "$STATE/containers/tls/server.key" 2>/dev/null || echo '(missing)')"
  step_failed
fi

step "chaos against the containers: a broker node and a writer killed, the aggregator and MariaDB restarted"
if "$ROOT/run.sh" chaos --in-containers --stores 32 --purchases-per-hour 40 --fault-after 5; then
  passed=$((passed + 1))
else
  step_failed
fi
step "the README's benchmark command right after the chaos runs (nothing they leave in the checkout hides the project): one benchmark, a dry job; a filter that matches none fails"
benchmark() { (cd "$ROOT" && dotnet run -c Release --project benchmarks/Supermarket.Benchmarks -- "$@") >>"$results/benchmarks.log" 2>&1; }
if benchmark --filter '*SalesMatrix_TopStores' --job dry && ! benchmark --filter '*NoSuchBenchmark'; then
  passed=$((passed + 1))
else
  echo "   see $results/benchmarks.log"
  step_failed
fi

# Leave the system running, as the README's order (./run.sh, then ./test.sh) found it; the containers hold its ports
# until they are down.
"$ROOT/run.sh" down >/dev/null
if ! "$ROOT/run.sh" up >/dev/null; then
  echo "== the system did not come back up after the containers (./run.sh up)"
  step_failed
fi

# CI shows only the end of this output, so the failed tests' names and messages are repeated here, from the TRX files.
if [ "$(trx_count failed)" -gt 0 ]; then
  echo "== failed tests (TRX files: $results)"
  for trx in "$results"/*.trx; do
    failure="//*[local-name()='UnitTestResult'][@outcome='Failed']"
    xmllint --xpath "$failure/@testName | $failure//*[local-name()='Message']/text()" "$trx" 2>/dev/null | head -200 || true
  done
fi
for failed_step in "${failed_steps[@]}"; do echo "== failed: $failed_step"; done
# One closing line over everything: the TRX files' counts and the runs above. A run that failed without a failed test
# to show for it (a test host killed by the hang timeout, a build that broke) never reads "0 failed".
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
step "done"
echo "tests: $passed passed, $failed failed, in $((SECONDS / 60)) min $((SECONDS % 60)) s"
exit $status
