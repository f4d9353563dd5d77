#!/usr/bin/env bash
# Issue 54: the layers are crates, and their Cargo.toml files say what each
# may use. This holds those files to the architecture: no crate below the
# app reaches a terminal crate, analysis never reaches the loaders, and
# unsafe code is allowed in profx-sys alone.
set -euo pipefail
cd "$(dirname "$0")/.."

fail=0
# A crate's normal dependencies, itself included; a failing `cargo tree`
# fails the check rather than passing it with nothing to look at.
deps() {
    local tree
    tree=$(cargo tree -p "$1" -e normal --prefix none) || {
        echo "check_layers: cargo tree -p $1 failed" >&2
        exit 1
    }
    printf '%s\n' "$tree" | cut -d' ' -f1 | sort -u
}

for crate in profx-sys profx-model profx-load profx-analysis profx-fixtures; do
    if ! deps "$crate" | grep -qx "$crate"; then
        echo "check_layers: $crate is not in its own tree" >&2
        fail=1
    fi
    bad=$(deps "$crate" | grep -E '^(ratatui|crossterm)$' | tr '\n' ' ' || true)
    if [ -n "$bad" ]; then
        echo "check_layers: $crate depends on $bad (a terminal crate)" >&2
        fail=1
    fi
done
for pair in "profx-analysis profx-load" "profx-model profx-load" "profx-model profx-analysis" \
    "profx-load profx-analysis" "profx-sys profx-model"; do
    set -- $pair
    if deps "$1" | grep -qx "$2"; then
        echo "check_layers: $1 depends on $2" >&2
        fail=1
    fi
done
for root in crates/profx-model/src/lib.rs crates/profx-load/src/lib.rs \
    crates/profx-analysis/src/lib.rs crates/profx-fixtures/src/lib.rs src/lib.rs src/main.rs; do
    if ! grep -qx '#!\[forbid(unsafe_code)\]' "$root"; then
        echo "check_layers: $root does not forbid unsafe code" >&2
        fail=1
    fi
done
if [ "$fail" = 0 ]; then
    echo "check_layers: the crates keep their layers"
fi
exit "$fail"
