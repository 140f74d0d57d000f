#!/usr/bin/env bash
# Splits the CPU profile a `PROFILE=1 loadtest/measure.sh` run keeps in its report folder by process and by library,
# over a window counted from the run's first POST: which service spends the box's CPU, and on what (its own code as
# compiled by the JIT, the JIT compiler itself, the runtime, the kernel). Idle time counts in the total, so each
# process's share is a share of the whole two-core box.
#
#   loadtest/profile-report.sh loadtest/reports/<time>-measure [seconds (15)] [from (0)]
set -euo pipefail

REPORT=${1:?usage: loadtest/profile-report.sh <report folder> [seconds] [from]}
SECONDS_WANTED=${2:-15}
FROM=${3:-0}
[ -f "$REPORT/perf.data" ] || { echo "$REPORT has no perf.data: run measure.sh with PROFILE=1" >&2; exit 1; }

# The profile's timestamps are wall-clock (perf record -k CLOCK_REALTIME); the summary says when the first POST left.
started=$(python3 -c 'import json, sys, datetime
print(datetime.datetime.fromisoformat(json.load(open(sys.argv[1]))["started_at"]).timestamp())' "$REPORT/summary.json")
start=$(awk -v s="$started" -v f="$FROM" 'BEGIN { printf "%.3f", s + f }')
end=$(awk -v s="$start" -v n="$SECONDS_WANTED" 'BEGIN { printf "%.3f", s + n }')

echo "CPU samples from ${FROM} s to $((FROM + SECONDS_WANTED)) s after the first POST ($REPORT)"
# One line per process and library with its sample count, then the box's total; sorted, then laid out.
perf script -i "$REPORT/perf.data" --time "$start,$end" -F pid,ip,dso 2>/dev/null | awk -v pids="$REPORT/pids" '
  BEGIN { while ((getline line < pids) > 0) { split(line, f, " "); name[f[2]] = f[1] } }
  {
    # "pid address (/path/library)"; code a JIT wrote (the .NET doublemapper, the Erlang vmem) has no file of its own.
    library = $0; sub(/^[^(]*\(/, "", library); sub(/\)$/, "", library); sub(/.*\//, "", library)
    if (library ~ /doublemapper|vmem|unknown/) library = "JIT-compiled code"
    process = ($1 in name) ? name[$1] : ($1 == 0 ? "idle" : "other processes")
    total++; samples[process]++; by_library[process "\t" library]++
  }
  END {
    for (p in samples) printf "%s\t0\t%d\t\t%d\n", p, samples[p], total
    for (key in by_library) { split(key, k, "\t"); printf "%s\t1\t%d\t%s\t%d\n", k[1], by_library[key], k[2], samples[k[1]] }
  }' | sort -t$'\t' -k1,1 -k2,2n -k3,3nr | awk -F'\t' '
  $2 == 0 { printf "%-16s %6d samples, %5.1f %% of the box\n", $1, $3, 100 * $3 / $5; shown = 0; next }
  $1 != "idle" && $1 != "other processes" && shown++ < 6 { printf "    %-36s %5.1f %%\n", $4, 100 * $3 / $5 }'
