#!/usr/bin/env bash
# Issue 68's benchmark: the cost of following a trace that grows by RATE
# events a second for SECS seconds (scripts/grow_trace.py, packets every
# 100,000 events), as `profx report --follow --until-idle 2` pays it
# (a refreshed table for each update, to /dev/null): its CPU time against
# the wall time it followed for, as a share of one core, and its peak
# resident memory; then whether the final `--json` of a follower that ran
# beside it equals a fresh load's of the final files.
#
# Usage: scripts/follow_bench.sh [RATE] [SECS] [FORMAT]   (default 10000 60 deldbe)
set -euo pipefail
cd "$(dirname "$0")/.."

RATE=${1:-10000}
SECS=${2:-60}
FORMAT=${3:-deldbe}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cargo build --release --quiet
PROFX=target/release/profx
TRACE="$WORK/T.PRF"

/usr/bin/time -f "%U %S %e %M" -o "$WORK/time" \
    "$PROFX" report "$TRACE" --follow --until-idle 2 > /dev/null 2> "$WORK/err" &
FOLLOWER=$!
# A second follower, unmeasured, prints only the final --json (it makes
# no update on the way: a poll five times a second).
"$PROFX" report "$TRACE" --follow --until-idle 2 --json > "$WORK/followed.json" &
JSONER=$!
python3 scripts/grow_trace.py "$TRACE" --format "$FORMAT" --rate "$RATE" \
    --seconds "$SECS" --packet-every 100000 --flush-every 500 --cut 2> "$WORK/writer"
wait "$FOLLOWER" "$JSONER"
read -r user sys wall rss < "$WORK/time"
events=$(grep -o '^[0-9]*' "$WORK/writer")
bytes=$(cat "$TRACE"* | wc -c)
python3 - "$user" "$sys" "$wall" "$rss" "$events" "$bytes" "$FORMAT" "$RATE" <<'PY'
import sys
user, sys_, wall, rss = map(float, sys.argv[1:5])
events, size, fmt, rate = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7], sys.argv[8]
# The last 2 s are --until-idle's wait, after the writer stopped.
followed = max(wall - 2, 1e-9)
print(f"{fmt} at {rate} events/s: {events:,} events, {size/2**20:.1f} MiB in all")
print(f"  CPU {user+sys_:.2f} s over {followed:.1f} s followed: {100*(user+sys_)/followed:.1f} % of one core")
print(f"  peak RSS {rss/1024:.0f} MiB")
PY
"$PROFX" report "$TRACE" --json > "$WORK/fresh.json"
if cmp -s "$WORK/followed.json" "$WORK/fresh.json"; then
    echo "  final --json: equal to a fresh load's"
else
    echo "  final --json: DIFFERS from a fresh load's" >&2
    exit 1
fi
