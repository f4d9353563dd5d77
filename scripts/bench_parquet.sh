#!/usr/bin/env bash
# Issue 70: exporting many runs to Parquet is bounded by loading them. N
# generated DELDBE traces (`examples/gen_large`, each its own count of
# names so no two are the same) are loaded the way the export loads them,
# every stack kept (`profx report FILE --view info`, each file in turn and
# two at a time), then exported together (`profx export … --to parquet`,
# which loads a core's worth at a time and writes as the next load), each
# timed best of three, with the export's peak RSS against one load's.
#
# Usage: scripts/bench_parquet.sh [N] [SIZE]   (default 100 10M)
# Target: export ≤ 1.2 × loading them.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-100}
SIZE=${2:-10M}
WORK=${BENCH_DIR:-$(mktemp -d)}
trap '[ -z "${BENCH_DIR:-}" ] && rm -rf "$WORK"' EXIT

cargo build --release --quiet --bin profx --example gen_large
GEN=target/release/examples/gen_large
PROFX=$PWD/target/release/profx

mkdir -p "$WORK/runs"
for i in $(seq 1 "$N"); do
    f="$WORK/runs/run-$(printf %03d "$i").prf"
    [ -s "$f" ] || "$GEN" deldbe "$SIZE" $((300 + i)) "$f"
done
files=("$WORK"/runs/*.prf)
bytes=$(cat "${files[@]}" | wc -c)

# Best wall time of three runs of "$@" (after one that fills the page
# cache), in seconds.
best() {
    "$@" >/dev/null 2>&1 || true
    local start end best=999999
    for _ in 1 2 3; do
        start=$EPOCHREALTIME
        "$@" >/dev/null 2>&1 || true
        end=$EPOCHREALTIME
        best=$(python3 -c "print(round(min($best, $end - $start), 3))")
    done
    echo "$best"
}

load_each() { for f in "${files[@]}"; do "$PROFX" report "$f" --view info; done; }
load_two() { printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P 2 "$PROFX" report --view info; }
export_all() {
    rm -rf "$WORK/tables"
    "$PROFX" export "${files[@]}" --to parquet -o "$WORK/tables"
}

each=$(best load_each)
two=$(best load_two)
exp=$(best export_all)
rss_one=$(/usr/bin/time -f %M "$PROFX" report "${files[0]}" --view info 2>&1 >/dev/null | tail -1)
rm -rf "$WORK/tables"
rss_exp=$(/usr/bin/time -f %M "$PROFX" export "${files[@]}" --to parquet -o "$WORK/tables" 2>&1 >/dev/null | tail -1)
out=$(du -sb "$WORK/tables" | cut -f1)
rows=$(python3 -c "import os; print(sum(1 for n in os.listdir('$WORK/tables') if n.endswith('.parquet')))")

echo "$N DELDBE traces of $SIZE ($bytes bytes in all)"
echo "load each in turn (report --view info): ${each} s"
echo "load two at a time (xargs -P 2):        ${two} s"
echo "export --to parquet:                    ${exp} s"
echo "export / load each: $(python3 -c "print(f'{$exp / $each:.2f}')"); export / load two at a time: $(python3 -c "print(f'{$exp / $two:.2f}')") (target <= 1.2)"
echo "peak RSS: one load $((rss_one / 1024)) MB, the export $((rss_exp / 1024)) MB; ${rows} tables, ${out} bytes"
