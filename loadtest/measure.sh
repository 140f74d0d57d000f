#!/usr/bin/env bash
# Measures the load-test table of docs/performance.md in one session, so the rows compare as ratios: the bare-201
# ceiling, then days at several store counts with persistent delivery (the default), then transient delivery.
# After each run it prints the CPU seconds each process used over the day and over the verification (the load test
# reads them from /proc), to show where the time goes; at the end, the load test's compare command sets every run's
# figures side by side (.local/measure-<time>.md), the ceiling first.
#
#   loadtest/measure.sh                       all rows (about half an hour on 2 cores)
#   STORES="32 64" TRANSIENT_STORES="" loadtest/measure.sh
#   FRESH=1 loadtest/measure.sh               a new, empty database first
#   EMPTY_TOO=1 STORES="256 256" loadtest/measure.sh
#                                             the persistent rows again on an empty database after those on
#                                             the database as it stands: "flat as history grows" in one session. The
#                                             empty database has a state folder of its own, removed after its rows
#   SETTINGS="Ingest__MaxBatchesInFlight=2" STORES=256 loadtest/measure.sh
#                                             extra settings (environment variables) for the system in every row
#                                             but the ceiling
#   LOAD_ARGS="--history-queries-per-second 20" STORES=256 loadtest/measure.sh
#                                             extra load-test options for the persistent and scale-out rows: here
#                                             purchase history GETs timed while the day runs
#   COMPARE_ARGS="--hours 3" loadtest/measure.sh   shorter days for the comparison rows
#   SCALE="--api-replicas 1;--api-replicas 2;--api-replicas 3;--writers 2" SCALE_STORES=256 loadtest/measure.sh
#                                             scale-out rows: each topology (run.sh options), one after the other
#   PROFILE=1 STORES="256 256" loadtest/measure.sh
#                                             a CPU profile of the whole box (perf, 199 Hz, wall-clock timestamps) over the
#                                             first PROFILE_SECONDS (60) of each run, kept in its report folder with the
#                                             services' PIDs; loadtest/profile-report.sh splits it by process and library
#   QUIET=1 STORES="" TRANSIENT_STORES="" LOAD_ARGS="--history-queries-per-second 20" loadtest/measure.sh
#                                             the questions beside a light load (256 stores, an eighth of a day's rate,
#                                             an hour): their own latency, where the day's rows show a saturated box's.
#                                             QUIET_WARM=1 runs the same row once first, unrecorded: a process just
#                                             started spends tens of CPU seconds compiling the paths the questions take,
#                                             which is its start's cost rather than theirs
#   PAGES=1 STORES="" TRANSIENT_STORES="" loadtest/measure.sh
#                                             what open live pages cost: the chain's real rate (256 stores at 0.1
#                                             purchases a store a second, 120 s, unverified) without and with PAGES_OPEN
#                                             (50) pages held open (--live-pages), in turns, twice; then a 256-store day
#                                             without and with them, for the POSTs' latency beside them
#   ASK=1 STORES="" TRANSIENT_STORES="" loadtest/measure.sh
#                                             the sales question's own peak: 50 connections asking the top 10 items at
#                                             random stores for 10 s (wrk, loadtest/wrk/top-items.lua), on the idle
#                                             system, after ASK_WARMUP seconds (30) of the same (a process just started
#                                             answers a third as fast while the JIT compiles it); ASK_CONNECTIONS (50),
#                                             ASK_SECONDS (10); ASK_CONNECTIONS=1 is a question alone, one at a time.
#                                             The machine's CPU over it, from /proc, a question; then Redis' sorted
#                                             sets asked the same over as many connections (redis-benchmark), the
#                                             yardstick of issue #74, in the same run
#   IDLE=1 STORES="" TRANSIENT_STORES="" loadtest/measure.sh
#                                             what the system costs while nothing happens and at the chain's real rate:
#                                             IDLE_SETTLE seconds (120) after the start, each process's share of a core
#                                             over IDLE_SECONDS (60) with nothing asked (the load test's idle command),
#                                             then 256 stores at 0.1 purchases a store a second with 5 sales and 2
#                                             history questions a second for 120 s, verified, then idle again
#   TURNS=1 STORES="" TRANSIENT_STORES="" loadtest/measure.sh
#                                             the questions at the chain's real rate, timed by a client of their own
#                                             and costed in turns (issue #74): 256 stores at 0.1 purchases a store a
#                                             second, unverified; TURNS_SETTLE seconds (40) after its start,
#                                             TURNS_WINDOW-second windows (35): nothing asked, 50 sales questions a
#                                             second, nothing, 20 history pages a second, twice, then the chain's own
#                                             5 sales and 2 history questions a second between quiet ones (wrk,
#                                             loadtest/wrk/questions.lua). Each window's machine CPU from /proc; a
#                                             question's is its window's less the mean of the quiet ones beside it
#   START=1 STORES="" TRANSIENT_STORES="" loadtest/measure.sh
#                                             the aggregator's start (one shard): from its checkpoint after a stop,
#                                             then from the whole ledger (the checkpoint set aside, then removed)
#   COLD=1 STORES="" TRANSIENT_STORES="" loadtest/measure.sh
#                                             the start (issue #75): the quiet row's rate (256 stores at 4 purchases a
#                                             store a second) for 10 s from the moment ./run.sh up says ready, verified,
#                                             COLD_TURNS (2) times, each after a stop: arrivals dropped and the POSTs'
#                                             p99 over a system's first seconds; first the same against the ceiling
#                                             just started. The load generator first primes itself for COLD_PRIME (3)
#                                             seconds against a bare server of its own (--prime; 0: it starts cold)
#   OVERLOAD=1 loadtest/measure.sh            the overload row: the writer paused (SIGSTOP) for OVERLOAD_PAUSE seconds
#                                             (30) from OVERLOAD_AFTER (30) into an OVERLOAD_STORES (256) day, with a
#                                             backlog limit of OVERLOAD_LIMIT_MB (16): 503s, not an unbounded queue
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/apphost.sh
source "$ROOT/scripts/apphost.sh"
cd "$ROOT"
STORES=${STORES-"32 64 128 256 512"}
TRANSIENT_STORES=${TRANSIENT_STORES-"256 512"}
# Extra load-test options for the transient rows, e.g. "--hours 3".
COMPARE_ARGS=${COMPARE_ARGS:-}
LOAD_ARGS=${LOAD_ARGS:-}
CEILING_STORES=${CEILING_STORES:-256}
# Scale-out rows: run.sh topologies separated by semicolons, each measured at SCALE_STORES stores.
SCALE=${SCALE:-}
SCALE_STORES=${SCALE_STORES:-256}
OUT=$ROOT/.local/measure-$(date -u +%Y%m%d-%H%M%S).log
# The log holds run.sh's console and the services' answers: its owner's alone, like the table beside it.
private_file "$OUT"
private_file "${OUT%.log}.md"

REPORTS=() # every run's report folder, in order: the closing table compares them

load() { # label, load test options...
  local label=$1; shift
  local reports
  reports=$ROOT/loadtest/reports/$(date -u +%Y%m%d-%H%M%S)-measure
  echo "== $label: $*" | tee -a "$OUT"
  local profiler=
  if [ -n "${PROFILE:-}" ]; then
    mkdir -p "$reports"
    # "name pid" lines, the process doing each resource's work, which profile-report.sh names the samples by; none
    # for the ceiling's rows, which run with the AppHost down.
    "$LOADTEST" system pids >"$reports/pids" 2>/dev/null || true
    perf record -a -k CLOCK_REALTIME -F 199 -o "$reports/perf.data" -- sleep "${PROFILE_SECONDS:-60}" >/dev/null 2>&1 &
    profiler=$!
  fi
  # A long wait for MySQL: on two cores the writer can trail the 201s by minutes, and a lag is not a loss.
  "$LOADTEST" --verify-timeout 600 --reports "$reports" --label "$label" "$@" >>"$OUT" 2>&1 || echo "  (the run exited non-zero)" | tee -a "$OUT"
  [ -z "$profiler" ] || wait "$profiler" || true
  echo "  reports: $reports" | tee -a "$OUT"
  REPORTS+=("$reports")
  # The load test measures each process's CPU over the day and over its verification apart (ProcessCpu) and writes
  # both into $OUT already: shown here only.
  jq -r '.cpu // empty | ["day", "verification"][] as $phase | "  CPU seconds over the \($phase): " + (.[$phase] | to_entries | map("\(.key) \(.value * 10 | round / 10)") | join(", "))' \
    "$reports/summary.json" 2>/dev/null || true
}

# Restarts the system with the given settings (environment variables, then -- and run.sh topology options) for the
# runs that follow. It waits for the aggregators' rebuild from MySQL to finish, so that no row pays for it.
system_up() {
  local settings=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do settings+=("$1"); shift; done
  [ $# -eq 0 ] || shift
  env "${settings[@]}" ./run.sh up "$@" >>"$OUT" 2>&1
  local aggregator aggregators
  aggregators=$("$LOADTEST" system names sales-aggregator) || { echo "the AppHost's aggregators could not be listed" >&2; exit 1; }
  for aggregator in $aggregators; do
    resource_wait "$aggregator" healthy 600 || { echo "$aggregator did not finish its rebuild" >&2; exit 1; }
  done
}

[ -z "${PROFILE:-}" ] || command -v perf >/dev/null || { echo "PROFILE=1 needs perf (Debian's linux-perf)" >&2; exit 1; }
./run.sh down >/dev/null 2>&1 || true
# A row that fails leaves nothing running: the next measurement starts from a stopped system.
stop_after_failure() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    # A load generator or wrk still running in the background would post to a stopped system.
    jobs -p | xargs -r kill 2>/dev/null || true
    ./run.sh down >/dev/null 2>&1 || true
  fi
}
trap stop_after_failure EXIT
dotnet build Supermarket.sln -c Release -v q -nologo >>"$OUT" 2>&1 || { echo "the build failed; see $OUT" >&2; exit 1; }
# The load generator and the ceiling run beside the system, as their built programs: they are what measures it, not
# part of it.
LOADTEST=$ROOT/loadtest/Supermarket.LoadTest/bin/Release/net10.0/Supermarket.LoadTest

# A row against the ceiling, started 2 s before it and stopped after it.
ceiling_row() { # label, load test options...
  local label=$1 ceiling
  shift
  (cd loadtest/Supermarket.Ceiling/bin/Release/net10.0 && exec ./Supermarket.Ceiling </dev/null >/dev/null 2>&1) &
  ceiling=$!
  sleep 2
  load "$label" "$@" --url http://127.0.0.1:8099 --no-verify
  kill "$ceiling"
  wait "$ceiling" 2>/dev/null || true
}

echo "== ceiling: the course's route answering 201 and nothing else" | tee -a "$OUT"
ceiling_row "ceiling, $CEILING_STORES stores" --stores "$CEILING_STORES"

if [ -n "${FRESH:-}" ]; then
  {
    ./run.sh up
    # A new database: the migration makes the schema and a new ledger identity at the next start (system_up below),
    # so the aggregator drops its checkpoint.
    "$LOADTEST" database empty
    # Purchases an earlier, interrupted run left for the writer would land in the new database.
    "$LOADTEST" broker delete-queues
  } >>"$OUT" 2>&1
fi

# shellcheck disable=SC2086 # SETTINGS is several words on purpose
system_up Broker__PersistentDelivery=true ${SETTINGS:-}
# shellcheck disable=SC2086 # LOAD_ARGS is several words on purpose
for stores in $STORES; do load "persistent, $stores stores" --stores "$stores" $LOAD_ARGS; done

# An empty database beside the history: a state folder of its own for these rows (SUPERMARKET_STATE_DIR: new
# accounts, an empty MariaDB, so a new ledger and no checkpoint), removed after them. The history's folder is not
# touched, so its checkpoint stays too (replaced by an empty database's, the history's next start would rebuild the
# matrix from its whole ledger and push the day's index pages out of the buffer pool: found at 100 million
# purchases, 40,000 pages read from disk where an ordinary restart read 106).
if [ -n "${EMPTY_TOO:-}" ]; then
  ./run.sh down >>"$OUT" 2>&1 || true
  history_state=$STATE
  export SUPERMARKET_STATE_DIR=$history_state/empty-database STATE=$history_state/empty-database
  rm -rf "$STATE"
  # shellcheck disable=SC2086 # SETTINGS is several words on purpose
  system_up Broker__PersistentDelivery=true ${SETTINGS:-}
  # shellcheck disable=SC2086 # LOAD_ARGS is several words on purpose
  for stores in $STORES; do load "persistent, $stores stores, empty database" --stores "$stores" $LOAD_ARGS; done
  ./run.sh down >>"$OUT" 2>&1
  rm -rf "$STATE"
  export SUPERMARKET_STATE_DIR=$history_state STATE=$history_state
fi

if [ -n "$TRANSIENT_STORES" ]; then
  # shellcheck disable=SC2086 # SETTINGS is several words on purpose
  system_up Broker__PersistentDelivery=false ${SETTINGS:-}
  # shellcheck disable=SC2086 # COMPARE_ARGS is several words on purpose
  for stores in $TRANSIENT_STORES; do load "transient, $stores stores" --stores "$stores" $COMPARE_ARGS; done
fi

IFS=';' read -r -a topologies <<<"$SCALE"
for topology in "${topologies[@]}"; do
  # shellcheck disable=SC2086 # SETTINGS and a topology are several words on purpose
  system_up Broker__PersistentDelivery=true ${SETTINGS:-} -- $topology
  # shellcheck disable=SC2086 # LOAD_ARGS is several words on purpose
  load "scale-out: $topology, $SCALE_STORES stores" --stores "$SCALE_STORES" $LOAD_ARGS
done

if [ -n "${OVERLOAD:-}" ]; then
  # The limit is a queue argument, fixed when the queue is declared: drop the queues before and after.
  ./run.sh up >>"$OUT" 2>&1
  "$LOADTEST" broker delete-queues >>"$OUT" 2>&1
  system_up Broker__PersistentDelivery=true "Writer__BacklogLimitMegabytes=${OVERLOAD_LIMIT_MB:-16}"
  (sleep "${OVERLOAD_AFTER:-30}"; "$LOADTEST" fault pause purchases-writer; sleep "${OVERLOAD_PAUSE:-30}"; "$LOADTEST" fault resume purchases-writer) &
  pause=$!
  load "overload: writer paused ${OVERLOAD_PAUSE:-30} s from ${OVERLOAD_AFTER:-30} s, backlog limit ${OVERLOAD_LIMIT_MB:-16} MB, ${OVERLOAD_STORES:-256} stores" \
    --stores "${OVERLOAD_STORES:-256}"
  wait "$pause"
  "$LOADTEST" broker delete-queues >>"$OUT" 2>&1
fi

if [ -n "${COLD:-}" ]; then
  cold=(--stores 256 --simulation Constant --rate 4 --purchases-per-hour 40 --hours 1 --prime "${COLD_PRIME:-3}")
  # The yardstick in the same session: the same seconds against the bare-201 ceiling just started, on a box with
  # nothing else running, say what the measurement and a bare server cost alone.
  ./run.sh down >>"$OUT" 2>&1
  ceiling_row "cold: the quiet row's rate for 10 s, the ceiling just started" "${cold[@]}"
  for turn in $(seq "${COLD_TURNS:-2}"); do
    ./run.sh down >>"$OUT" 2>&1
    # shellcheck disable=SC2086 # SETTINGS is several words on purpose
    env Broker__PersistentDelivery=true ${SETTINGS:-} ./run.sh up >>"$OUT" 2>&1
    load "cold: the quiet row's rate for 10 s as soon as the API is ready ($turn)" "${cold[@]}"
  done
fi

if [ -n "${QUIET:-}" ]; then
  # shellcheck disable=SC2086 # SETTINGS is several words on purpose
  system_up Broker__PersistentDelivery=true ${SETTINGS:-}
  # Unverified: the day rows verify; this row measures the questions beside a light load.
  # The first seconds are left out: the load generator opening its connections at the full rate is not a latency.
  quiet=(--stores 256 --simulation Constant --rate 4 --hours 1 --warm-up 10 --no-verify)
  if [ -n "${QUIET_WARM:-}" ]; then
    echo "== the quiet row once, unrecorded, to warm the processes up" | tee -a "$OUT"
    private_dir "$ROOT/.local/quiet-warm-up"
    # shellcheck disable=SC2086 # LOAD_ARGS is several words on purpose
    "$LOADTEST" --reports "$ROOT/.local/quiet-warm-up" "${quiet[@]}" $LOAD_ARGS >>"$OUT" 2>&1 || true
  fi
  # shellcheck disable=SC2086 # LOAD_ARGS is several words on purpose
  load "quiet: an eighth of the day's rate, constant, 256 stores${QUIET_WARM:+, warm}" "${quiet[@]}" $LOAD_ARGS
fi

if [ -n "${PAGES:-}" ]; then
  # shellcheck disable=SC2086 # SETTINGS is several words on purpose
  system_up Broker__PersistentDelivery=true ${SETTINGS:-}
  pages=${PAGES_OPEN:-50}
  real_rate=(--stores 256 --simulation Constant --rate 0.1 --purchases-per-hour 12 --hours 1 --warm-up 10 --no-verify)
  for turn in 1 2; do
    load "the chain's real rate, no live page ($turn)" "${real_rate[@]}"
    load "the chain's real rate, $pages live pages ($turn)" "${real_rate[@]}" --live-pages "$pages"
  done
  load "persistent, 256 stores, no live page" --stores 256
  load "persistent, 256 stores, $pages live pages" --stores 256 --live-pages "$pages"
fi

if [ -n "${IDLE:-}" ]; then
  # shellcheck disable=SC2086 # SETTINGS is several words on purpose
  system_up Broker__PersistentDelivery=true ${SETTINGS:-}
  idle() {
    echo "== idle: ${IDLE_SECONDS:-60} s, nothing asked ($1)" | tee -a "$OUT"
    "$LOADTEST" idle --seconds "${IDLE_SECONDS:-60}" | tee -a "$OUT"
  }
  sleep "${IDLE_SETTLE:-120}"
  idle "after the start"
  load "the chain's real rate, 5 sales and 2 history questions a second" --stores 256 --simulation Constant --rate 0.1 \
    --purchases-per-hour 12 --hours 1 --warm-up 10 --sales-queries-per-second 5 --history-queries-per-second 2
  idle "after the real rate"
fi

# CPU seconds every task of the machine has used so far (the load test's ProcessCpu says where it reads them).
machine_cpu_seconds() { "$LOADTEST" machine-cpu; }

if [ -n "${ASK:-}" ]; then
  # shellcheck disable=SC2086 # SETTINGS is several words on purpose
  system_up Broker__PersistentDelivery=true ${SETTINGS:-}
  "$ROOT/scripts/services.sh" install wrk >>"$OUT" 2>&1
  echo "== ask: ${ASK_CONNECTIONS:-50} connections, top 10 items at random stores, ${ASK_SECONDS:-10} s (wrk)" | tee -a "$OUT"
  api=$(api_url)
  connections=${ASK_CONNECTIONS:-50}
  # wrk needs a connection a thread: one connection alone is asked by one thread.
  threads=$((connections < 2 ? connections : 2))
  wrk -t"$threads" -c"$connections" -d"${ASK_WARMUP:-30}"s -s loadtest/wrk/top-items.lua "$api" >/dev/null
  before=$(machine_cpu_seconds)
  answers=$(wrk -t"$threads" -c"$connections" -d"${ASK_SECONDS:-10}"s --latency -s loadtest/wrk/top-items.lua "$api" | tail -n 1)
  after=$(machine_cpu_seconds)
  # The machine's CPU a question (wrk's own included: it is what asks), in milliseconds.
  jq -c --argjson cpu "$(awk -v a="$after" -v b="$before" 'BEGIN { print a - b }')" \
    '. + {machine_cpu_seconds: ($cpu * 10 | round / 10), machine_cpu_ms_per_answer: ($cpu * 1000 / .answers * 1000 | round / 1000)}' <<<"$answers" | tee -a "$OUT"
  # The yardstick in the same run (issue #74): Redis answering the same top 10 from a sorted set a store (256 stores
  # of 10,000 items), over as many connections, for ASK_REDIS_REQUESTS questions (redis-benchmark, one thread).
  "$ROOT/scripts/services.sh" install redis-server redis-tools >>"$OUT" 2>&1
  redis_port=6399
  ! redis-cli -p "$redis_port" ping >/dev/null 2>&1 || { echo "port $redis_port is taken: the row needs its own Redis" >&2; exit 1; }
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no >>"$OUT" 2>&1 &
  redis=$!
  # Called with ||, so a step that fails ends the function (each is chained) and Redis is stopped all the same.
  ask_redis() {
    timeout 10 sh -c "until redis-cli -p $redis_port ping >/dev/null 2>&1; do sleep 0.1; done" &&
      # redis-benchmark names a random store __rand_int__, twelve digits with leading zeros.
      redis-cli -p "$redis_port" EVAL "for s = 0, 255 do for i = 1, 10000 do redis.call('ZADD', string.format('store:%012d', s), (i * 7919) % 1000, i) end end" 0 >/dev/null &&
      redis-benchmark -p "$redis_port" -c "$connections" -n "${ASK_REDIS_REQUESTS:-500000}" -r 256 --csv \
        ZREVRANGE store:__rand_int__ 0 9 WITHSCORES 2>/dev/null | tail -n 1 |
      jq -Rc 'split(",") | map(gsub("\""; "")) | {redis: {per_second: (.[1] | tonumber | round), p50_ms: (.[4] | tonumber), p99_ms: (.[6] | tonumber)}}' | tee -a "$OUT"
  }
  redis_status=0
  ask_redis || redis_status=$?
  kill "$redis"
  wait "$redis" 2>/dev/null || true
  [ "$redis_status" -eq 0 ] || { echo "asking Redis failed; see $OUT" >&2; exit "$redis_status"; }
fi

if [ -n "${TURNS:-}" ]; then
  # shellcheck disable=SC2086 # SETTINGS is several words on purpose
  system_up Broker__PersistentDelivery=true ${SETTINGS:-}
  "$ROOT/scripts/services.sh" install wrk >>"$OUT" 2>&1
  api=$(api_url)
  # History pages need an analyst's credential (docs/security.md), each read at most HistoryQuestions:ReadsPerMinute
  # times a minute: four analysts take turns. The sales questions are the course's, open.
  credentials=$(for analyst in 1 2 3 4; do
    echo "Bearer $("$ROOT/tools/Supermarket.Credentials/bin/Release/net10.0/Supermarket.Credentials" analyst "measure-$analyst")"
  done | paste -sd,)
  window_seconds=${TURNS_WINDOW:-35}
  settle=${TURNS_SETTLE:-40}
  # Eleven windows after the settling, and the day a little longer: 120 s a day "hour" (12 purchases at 0.1 a second).
  hours=$(((settle + 11 * window_seconds + 20) / 120 + 1))
  windows=$(mktemp)
  echo "== the chain's real rate for $((hours * 120)) s, questions in turns of ${window_seconds} s (wrk)" | tee -a "$OUT"
  turns_reports=$ROOT/loadtest/reports/$(date -u +%Y%m%d-%H%M%S)-turns
  "$LOADTEST" --reports "$turns_reports" --label "the chain's real rate, questions in turns" --stores 256 \
    --simulation Constant --rate 0.1 --purchases-per-hour 12 --hours "$hours" --warm-up 10 --no-verify >>"$OUT" 2>&1 &
  day=$!
  sleep "$settle"
  # A process's CPU seconds (user + system) so far, from /proc/<pid>/stat.
  process_cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }
  # A window: its machine CPU seconds, the load generator's, and what each wrk asked in it (kind:rate:connections, none for a quiet one).
  window() { # label, [kind:rate:connections]...
    local label=$1 before after generator_before generator_after asker kind rate connections
    shift
    local answers=() askers=()
    before=$(machine_cpu_seconds)
    generator_before=$(process_cpu_seconds "$day")
    for asker in "$@"; do
      IFS=: read -r kind rate connections <<<"$asker"
      answers+=("$(mktemp)")
      WRK_KIND=$kind WRK_RATE=$rate WRK_CONNECTIONS=$connections WRK_AUTHORIZATIONS=$credentials \
        wrk -t1 -c"$connections" -d"$window_seconds"s --latency -s loadtest/wrk/questions.lua "$api" >"${answers[-1]}" &
      askers+=("$!")
    done
    if [ $# -eq 0 ]; then sleep "$window_seconds"; else wait "${askers[@]}"; fi
    after=$(machine_cpu_seconds)
    generator_after=$(process_cpu_seconds "$day")
    jq -sc --arg name "$label" --argjson cpu "$(awk -v a="$after" -v b="$before" 'BEGIN { print a - b }')" \
      --argjson generator "$(awk -v a="$generator_after" -v b="$generator_before" 'BEGIN { print a - b }')" \
      '{window: $name, machine_cpu_seconds: ($cpu * 100 | round / 100), load_generator_cpu_seconds: ($generator * 100 | round / 100),
        asked: [.[] | select(type == "object")]}' \
      <(for file in "${answers[@]}"; do tail -n 1 "$file"; done) | tee -a "$OUT" "$windows"
    rm -f "${answers[@]}"
  }
  for turn in 1 2; do
    window "nothing asked ($turn)"
    window "50 sales questions a second ($turn)" sales:50:5
    window "nothing asked ($turn)"
    window "20 history pages a second ($turn)" history:20:4
  done
  window "nothing asked (3)"
  window "the chain's questions: 5 sales and 2 history a second" sales:5:1 history:2:1
  window "nothing asked (4)"
  wait "$day" || echo "  (the real rate exited non-zero)" | tee -a "$OUT"
  echo "  reports: $turns_reports" | tee -a "$OUT"
  # A question's machine CPU: its window's less the mean of the quiet windows before and after it.
  jq -sc '. as $w | [range(1; length; 2) | . as $i | (($w[$i - 1].machine_cpu_seconds + $w[$i + 1].machine_cpu_seconds) / 2) as $quiet
      | {window: $w[$i].window, answers: ([$w[$i].asked[].answers] | add),
         machine_cpu_ms_per_question: ((($w[$i].machine_cpu_seconds - $quiet) * 1000 / ([$w[$i].asked[].answers] | add)) * 1000 | round / 1000)}][]' \
    "$windows" 2>/dev/null | tee -a "$OUT" || true
  rm -f "$windows"
fi

# The aggregator's start, as its /health/ready tells it: how long from its process's start, and what it read.
aggregator_start() { # how it started
  local management
  management=$("$LOADTEST" system url sales-aggregator management)
  curl -fsS "$management/health/ready" |
    jq -c --arg how "$1" '{aggregator_start: $how} + (.checks["sales-matrix"].data | {startSeconds, startedFromCheckpoint, entriesReadAtStart})' | tee -a "$OUT"
}
aggregator_restart() { # seconds to wait for it, [its checkpoint file, set aside while it is down]
  "$LOADTEST" fault stop sales-aggregator >>"$OUT" 2>&1
  [ -z "${2:-}" ] || mv "$2" "$2.aside"
  "$LOADTEST" fault start sales-aggregator >>"$OUT" 2>&1
  resource_wait sales-aggregator healthy "$1"
}
if [ -n "${START:-}" ]; then
  system_up Broker__PersistentDelivery=true
  # A stop saves a checkpoint (the aggregator does at every stop): the start reads the ledger after it, nothing more.
  aggregator_restart 600
  aggregator_start "from its checkpoint"
  # Then without it: the whole ledger, as after a lost or damaged checkpoint. Once ready the aggregator saves a new one.
  management=$("$LOADTEST" system url sales-aggregator management)
  checkpoint=$(curl -fsS "$management/about" | jq -r '.facts.salesShard.checkpoint')
  aggregator_restart 3600 "$checkpoint"
  aggregator_start "from the whole ledger"
  rm -f "$checkpoint.aside"
fi

./run.sh down >>"$OUT" 2>&1
# The session's table, from the runs' summary.json: every figure side by side, each as a ratio of the first (the ceiling).
if [ ${#REPORTS[@]} -ge 2 ]; then
  "$LOADTEST" compare "${REPORTS[@]}" --out "${OUT%.log}.md" | tee -a "$OUT"
fi
echo "Full output: $OUT"
