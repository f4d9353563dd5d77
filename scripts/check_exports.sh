#!/usr/bin/env bash
# Exports checked by the real tools (issue 9): inferno-flamegraph renders the
# folded stacks, speedscope's published schema validates the speedscope
# file, DuckDB reads every CSV view with the report's rows and totals, and
# a trace's Chrome events nest. Issue 70: DuckDB reads the Parquet tables of
# many runs, every value the report's (scripts/check_parquet.py). The inputs are written outside the
# repository: generated files of every format (examples/gen_large), the
# demo log and the real files of tests/fixtures/real/.
#
#   scripts/check_exports.sh [WORKDIR]
#
# Needs python3 with venv (duckdb and jsonschema are pip-installed into a
# throwaway venv) and cargo (inferno is `cargo install`ed there unless
# inferno-flamegraph is on the PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${1:-$(mktemp -d)}
mkdir -p "$WORK"

if [ ! -x "$WORK/venv/bin/python" ]; then
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install --quiet duckdb jsonschema
fi
INFERNO=$(command -v inferno-flamegraph || true)
if [ -z "$INFERNO" ]; then
    INFERNO="$WORK/inferno/bin/inferno-flamegraph"
    [ -x "$INFERNO" ] || cargo install --quiet --locked inferno --root "$WORK/inferno"
fi

cargo build --quiet --release --bin profx --example gen_large
PROFX=target/release/profx
GEN=target/release/examples/gen_large
"$GEN" deldbe 2M 300 "$WORK/trace.prf"
"$GEN" dbf 2M 300 "$WORK/trace.dbf"
"$GEN" br 2M 300 "$WORK/samples.br"
"$GEN" plist 0 300 "$WORK/listing.txt"
cp assets/demo/orders.prof "$WORK/orders.prof"
cp tests/fixtures/real/inferno_CallTreeSummary.csv "$WORK/calltree.csv"
cp tests/fixtures/real/visperf_l4_cc.csv "$WORK/callercallee.csv"
cp tests/fixtures/real/cdex_lame_function_timing.txt "$WORK/lame.txt"

"$WORK/venv/bin/python" scripts/check_exports.py "$PROFX" "$INFERNO" \
    tests/fixtures/speedscope/file-format-schema.json "$WORK/out" \
    "$WORK/trace.prf" "$WORK/trace.dbf" "$WORK/samples.br" "$WORK/listing.txt" \
    "$WORK/orders.prof" "$WORK/calltree.csv" "$WORK/callercallee.csv" "$WORK/lame.txt"

# Issue 70: the same inputs and every fixture that loads, as runs in two
# sets (before/, after/: the README's query compares them), exported to
# Parquet tables and read back by DuckDB. Run from the runs' folder: the
# inputs' names as given are the runs' `sources`.
ROOT=$PWD
PQ="$WORK/parquet"
rm -rf "$PQ"
mkdir -p "$PQ/before" "$PQ/after"
cp tests/fixtures/diff/xpp/base.prf tests/fixtures/diff/plist/base.txt \
    tests/fixtures/diff/vs-csv/base.csv "$WORK/trace.prf" "$WORK/listing.txt" \
    "$WORK/callercallee.csv" "$PQ/before/"
cp tests/fixtures/diff/xpp/new.prf tests/fixtures/diff/plist/new.txt \
    tests/fixtures/diff/vs-csv/new.csv "$WORK/trace.dbf" "$WORK/samples.br" \
    "$WORK/orders.prof" "$WORK/calltree.csv" "$WORK/lame.txt" "$PQ/after/"
for format in plist xpp vs-csv; do
    cp -r "tests/fixtures/$format" "$PQ/after/$format"
done
(
    cd "$PQ"
    "$WORK/venv/bin/python" "$ROOT/scripts/check_parquet.py" "$ROOT/$PROFX" out \
        before/* after/*.* after/plist/*.txt after/xpp/*.prf after/vs-csv/*.csv \
        after/xpp/packeted-deldbe/D.PRF
)
