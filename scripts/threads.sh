#!/usr/bin/env bash
# CPU time of each thread of `profx report FILE --table --top 5`, for judging a
# change by the thread that bounds a load (issue 7): on a shared VM whose speed
# drifts by a third within the hour, whole-run times of two binaries differ by
# more than most changes do. Runs the binaries in turn, N rounds, each run
# after reading FILE into the page cache, and samples every thread at 1 kHz
# (`perf record -e cpu-clock`); prints per binary the median wall time (first
# to last sample) and the median CPU seconds of its four busiest threads,
# busiest first.
#
# Usage: scripts/threads.sh FILE N BIN...
# Needs: perf, python3.
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: scripts/threads.sh FILE N BIN..." >&2
    exit 2
fi
FILE=$1
ROUNDS=$2
shift 2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for _ in $(seq "$ROUNDS"); do
    for bin in "$@"; do
        cat "$FILE" >/dev/null
        if ! perf record -q -e cpu-clock -F 1000 -o "$WORK/perf.data" \
            "$bin" report "$FILE" --table --top 5 >/dev/null 2>"$WORK/err"; then
            echo "failed: $bin report $FILE" >&2
            cat "$WORK/err" >&2
            exit 1
        fi
        # The wall time is the samples' span: timed around `perf record`, it
        # took in perf's own start and its wait at the end (up to a second).
        perf script -i "$WORK/perf.data" -F tid,time 2>/dev/null | python3 -c '
import collections, sys
per, times = collections.Counter(), []
for line in sys.stdin:
    tid, at = line.split()
    per[tid] += 1
    times.append(float(at.rstrip(":")))
busiest = sorted(per.values(), reverse=True)[:4]
print(sys.argv[1], f"{max(times) - min(times):.3f}", *(f"{n / 1000:.3f}" for n in busiest))
' "$bin" >>"$WORK/runs"
    done
done

python3 - "$WORK/runs" <<'EOF'
import collections, statistics, sys

runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    bin, *numbers = line.split()
    runs[bin].append([float(x) for x in numbers])
print("binary: wall (first to last sample), then CPU s of the busiest threads (medians)")
for bin, rows in runs.items():
    # Rows may list fewer threads when a load used fewer.
    width = min(len(r) for r in rows)
    cols = [statistics.median(r[i] for r in rows) for i in range(width)]
    print(bin, " ".join(f"{c:.3f}" for c in cols))
EOF
