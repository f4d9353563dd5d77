#!/usr/bin/env bash
# Takes the README's screenshots from a real terminal run: the release
# binary runs in tmux (a real pty, TERM=xterm-256color), keys are sent as a
# person would type them, each screen is captured with its colours
# (capture-pane -e), turned into HTML (scripts/ansi2html.py) and
# photographed by headless Chromium.
#
# Needs tmux, python3 and chromium (apt-get install -y tmux chromium), and
# inferno-flamegraph (cargo install inferno) for the flame graph.
# Usage: scripts/screenshots.sh   (writes screenshots/*.png)
set -euo pipefail
cd "$(dirname "$0")/.."

COLS=120
ROWS=34
OUT=screenshots
WORK=$(mktemp -d)
SOCK=profx-shots-$$
trap 'tmux -L "$SOCK" kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT

cargo build --release --quiet
BIN=$PWD/target/release/profx
mkdir -p "$OUT"

tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

# Starts profx with its arguments in a fresh session of COLS×ROWS, in the
# folder $CWD (the repository unless set).
start() {
    tm kill-server 2>/dev/null || true
    # A fresh server each time: one still exiting would refuse the new
    # session ("server exited unexpectedly").
    RUNS=$((${RUNS:-0} + 1))
    SOCK=profx-shots-$$-$RUNS
    tm new-session -d -s shot -x "$COLS" -y "$ROWS" -c "${CWD:-$PWD}" -e TERM=xterm-256color "$BIN $*; sleep 60"
    sleep 0.7
}

keys() {
    for k in "$@"; do
        tm send-keys -t shot "$k"
        sleep 0.15
    done
    sleep 0.4
}

text() {
    tm send-keys -t shot -l "$1"
    sleep 0.5
}

# Captures the screen as $OUT/$1.png.
shot() {
    local name=$1
    tm capture-pane -e -p -t shot > "$WORK/$name.ansi"
    python3 scripts/ansi2html.py "$WORK/$name.ansi" "$WORK/$name.html" "profx $name"
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$WORK/chrome" --hide-scrollbars \
        --window-size=$((COLS * 17 / 2 + 24)),$((ROWS * 17 + 20)) \
        --screenshot="$OUT/$name.png" "file://$WORK/$name.html" 2>/dev/null
    echo "$OUT/$name.png"
}

start
keys Down
shot functions
keys / ; text "fnr"
shot search
keys Escape g ; text "tax"
shot finder
keys Escape Down Enter
shot stacks
keys Enter
shot frames
keys 2
shot lines
keys 6 Enter Down Down
shot trace
keys 7
shot info
keys 4 Right Down p
shot tree
keys 5 Down Down
shot flame
keys f
shot sandwich
keys ?
shot help
keys Escape q

# A query: a focus on FNPRICE in the Call tree, then FNTAX merged; the
# breadcrumbs in the header, then the . menu of every transform.
start
keys 4 Down F
sleep 1
keys Down Down m
sleep 1
shot query
keys .
shot query-menu
keys Escape q

# The threads list of a two-thread trace (H).
start tests/fixtures/xpp/orders-run.prf
keys H
shot threads
keys q

# Real files written by the real tools: LAME's PLIST listing, and a VS
# caller/callee export scrolled to the per-call columns.
start tests/fixtures/real/cdex_lame_function_timing.txt
shot plist-listing
keys q
start tests/fixtures/real/visperf_l4_cc.csv
keys Down Right Right Right Right Right Right
shot vs-per-call
keys q

start tests/fixtures/xpp/two-threads.prf
keys 6 Enter Down Down Down
shot trace-xpp
keys q

# The time order of a two-thread run: the longest order selected.
start tests/fixtures/xpp/orders-run.prf
keys 5 t Down Left
shot flame-chart
keys q

# `e` writes beside the input: the demo's export lands in a scratch folder.
CWD=$WORK start
keys / ; text "fn"
keys Enter e
shot export
keys q

# A flame graph of the demo, drawn by inferno from `profx export --to folded`.
"$BIN" export --demo --to folded -o "$WORK/demo.folded"
inferno-flamegraph --title "orders.prof (profx export --to folded)" "$WORK/demo.folded" > "$OUT/flamegraph.svg"
echo "$OUT/flamegraph.svg"
