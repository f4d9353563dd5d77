#!/usr/bin/env bash
# How fast a trace or BR load could be if part of its work cost nothing
# (issue 7): builds profx as it is and with each patch in scripts/bounds/
# applied, then runs them in turn on FILE with scripts/threads.sh and prints
# the CPU seconds that 1 GB/s on two cores allows.
#
#   paths-free   every call's path is its function's one-frame path: the
#                replay's table of call paths stays in cache and small
#   memory-warm  256 MiB touched and freed on a thread of its own before the
#                replay, whose new rows then land on pages already backed
#                (on this VM a page first touched costs 2 to 10 µs)
#   replay-off   the Xbase++ replay applies no event: parsing alone
#   samples-off  the BR calling thread adds no sample: decoding alone
#
# A bound binary's report is wrong by design; only its CPU time means
# anything. If a patch no longer applies, the script stops: mend the patch
# to do the same to the code as it is now.
#
# Usage: scripts/bounds.sh FILE N      (FILE ending .dbf, .deldbe or .br)
# Needs: git, perf, python3.
set -euo pipefail
# A bound build leaves code unused; its warnings say nothing here.
export RUSTFLAGS="${RUSTFLAGS:-} -A warnings"
cd "$(dirname "$0")/.."
REPO=$(pwd)

if [ $# -ne 2 ]; then
    echo "usage: scripts/bounds.sh FILE N" >&2
    exit 2
fi
FILE=$1
ROUNDS=$2
case "$FILE" in
    *.dbf | *.deldbe) PATCHES="paths-free memory-warm replay-off" ;;
    *.br) PATCHES="samples-off" ;;
    *)
        echo "bounds.sh: FILE must end .dbf, .deldbe or .br" >&2
        exit 2
        ;;
esac

WORK=$(mktemp -d)
TREE="$WORK/tree"
cleanup() {
    git worktree remove --force "$TREE" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

git worktree add --quiet --detach "$TREE" HEAD
# Uncommitted changes to tracked files count: the bounds are of the code
# as it is now.
git diff HEAD | (cd "$TREE" && git apply --allow-empty)

build() {
    (cd "$TREE" && cargo build --release --quiet --target-dir "$WORK/target")
    cp "$WORK/target/release/profx" "$WORK/$1"
}

build as-is
BINS=("$WORK/as-is")
for p in $PATCHES; do
    (cd "$TREE" && git apply "$REPO/scripts/bounds/$p.patch")
    build "$p"
    (cd "$TREE" && git apply -R "$REPO/scripts/bounds/$p.patch")
    BINS+=("$WORK/$p")
done

scripts/threads.sh "$FILE" "$ROUNDS" "${BINS[@]}"
bytes=$(stat -L -c %s "$FILE")
python3 -c "print(f'1 GB/s on 2 cores allows {2 * $bytes / 1e9:.2f} CPU s in all, about {$bytes / 1e9:.2f} s a thread')"
