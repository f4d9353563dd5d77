#!/usr/bin/env bash
# Whole-process comparisons of issue 7: for each format, a generated file is
# loaded and aggregated by `profx report FILE --table --top 5`, timed beside
# `wc -l` on the same file and, for the DELDBE trace, DuckDB grouping its call
# column (read_csv, both cores). Prints each time, peak RSS and the ratios.
# That report makes no stack (`KeepStacks::Skipped`); for the trace and log
# formats the same load with every stack (`--view info`, what the app and
# `--json` load) is timed too, on a line of its own.
#
# The minimal aggregator (`examples/min_agg.rs`: memchr lines, or DBF
# records at their fixed length, an FxHashMap count by name, two threads) is
# timed on the DELDBE, DBF and PLIST files too, as issues 40's and 69's floor.
#
# Usage: scripts/bench.sh [SIZE] [NAMES]    (default 1G 5000; PLIST has one
# record per name: PLIST_NAMES, default 200000)
# SHAPE=real writes the realistic shapes (`fixture_gen::large::Shape::Real`:
# long, C++-style names, a parameters field, tens of call sites per caller,
# eight threads) instead of the current ones.
# Needs: python3 with venv (DuckDB is pip-installed into a throwaway venv).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE=${1:-1G}
NAMES=${2:-5000}
SHAPE=${SHAPE:-current}
WORK=${BENCH_DIR:-$(mktemp -d)}
trap '[ -z "${BENCH_DIR:-}" ] && rm -rf "$WORK"' EXIT

cargo build --release --quiet --example gen_large --example min_agg
GEN=target/release/examples/gen_large
MIN=target/release/examples/min_agg
PROFX=target/release/profx

if [ ! -x "$WORK/venv/bin/python" ]; then
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install --quiet duckdb
fi

# Runs a command 3 times (after one warm-up that fills the page cache) and
# prints the best wall time in seconds, timed by the shell to the microsecond
# (`/usr/bin/time` counts in 10 ms steps: `wc -l` on the PLIST file takes 4 ms);
# a last run under /usr/bin/time leaves its peak RSS (KB) in $WORK/rss.
best() {
    "$@" >/dev/null 2>"$WORK/err" || { echo "failed: $*" >&2; cat "$WORK/err" >&2; exit 1; }
    local start end best=999999
    for _ in 1 2 3; do
        start=$EPOCHREALTIME
        "$@" >/dev/null 2>&1
        end=$EPOCHREALTIME
        best=$(python3 -c "print(round(min($best, $end - $start), 4))")
    done
    /usr/bin/time -o "$WORK/time" -f "%M" "$@" >/dev/null 2>&1
    tail -1 "$WORK/time" > "$WORK/rss"
    echo "$best"
}

ratio() { python3 -c "print(f'{$1 / max($2, 1e-6):.3f}')"; }

printf '%-8s %10s %8s %8s %10s %12s %s\n' format bytes profx_s wc_s rss_MB "wc/profx" "duckdb"
for fmt in deldbe dbf br plist; do
    f="$WORK/t.$SHAPE.$fmt"
    names=$NAMES
    [ "$fmt" = plist ] && names=${PLIST_NAMES:-200000}
    [ -s "$f" ] || "$GEN" "$fmt" "$SIZE" "$names" "$f" "$SHAPE"
    bytes=$(stat -L -c %s "$f")
    p=$(best "$PROFX" report "$f" --table --top 5)
    rss=$(( $(cat "$WORK/rss") / 1024 ))
    w=$(best wc -l "$f")
    extra=""
    if [ "$fmt" != br ]; then
        m=$(best "$MIN" "$fmt" "$f")
        extra="min_agg ${m}s, profx/min_agg $(ratio "$p" "$m") (target <= 2); "
    fi
    if [ "$fmt" = deldbe ]; then
        cols="'column0':'INT','column1':'DOUBLE','column2':'VARCHAR','column3':'VARCHAR','column4':'INT'"
        # The real shape's exits put the parameters where the line would be.
        [ "$SHAPE" = real ] && cols="'column0':'INT','column1':'DOUBLE','column2':'VARCHAR','column3':'VARCHAR','column4':'VARCHAR','column5':'VARCHAR'"
        q="SELECT column3, count(*) FROM read_csv('$f', auto_detect=false, header=false, delim=',', quote='\\\"', columns={$cols}, null_padding=true) GROUP BY column3"
        d=$(best "$WORK/venv/bin/python" -c "import duckdb; duckdb.sql(\"SET threads=2\"); duckdb.sql(\"\"\"$q\"\"\").fetchall()")
        extra="${extra}duckdb ${d}s, profx/duckdb $(ratio "$p" "$d") (target <= 0.75)"
    fi
    printf '%-8s %10s %8s %8s %10s %12s %s\n' "$fmt" "$bytes" "$p" "$w" "$rss" \
        "$(ratio "$w" "$p")" "$extra"
    echo "         GB/s profx $(python3 -c "print(f'{$bytes / max($p, 1e-6) / 1e9:.3f}')"), RSS/input $(python3 -c "print(f'{$rss * 1048576 / $bytes:.2f}')")"
    if [ "$fmt" != plist ]; then
        s=$(best "$PROFX" report "$f" --view info)
        echo "         with stacks (--view info): ${s} s, GB/s $(python3 -c "print(f'{$bytes / max($s, 1e-6) / 1e9:.3f}')"), RSS $(( $(cat "$WORK/rss") / 1024 )) MB"
    fi
done
