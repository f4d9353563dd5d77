#!/usr/bin/env bash
# The attack list of issue 37, run against the release binary as an
# adversary would: hostile outputs, inputs that are no files, signals,
# hostile names, far packet numbers, redirected output, memory. Prints one
# line per attack, PASS or FAIL with what went wrong, then a count; exits 1
# if any failed. The terminal's attacks (signals while the app runs, a
# file cut short under the Trace pane, bursts, pastes, TERM=dumb) need a
# real terminal and run in tests/tui_tmux.rs.
#
#   scripts/attack.sh [WORKDIR]
#
# Needs bash, python3 (to time-box commands and read their peak memory)
# and cargo. Memory bounds are peak resident sets, as /usr/bin/time -v
# reports them.
set -uo pipefail
cd "$(dirname "$0")/.."
WORK=${1:-$(mktemp -d)}
mkdir -p "$WORK"
cargo build --quiet --release --bin profx --example gen_large || exit 1
BIN=$PWD/target/release/profx
GEN=$PWD/target/release/examples/gen_large
PASS=0
FAIL=0

pass() { PASS=$((PASS + 1)); echo "PASS  $1"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL  $1: $2"; }

# run SECONDS CMD...: runs CMD (stdout to $WORK/out, stderr to $WORK/err,
# stdin from /dev/null) and prints "STATUS PEAK_MB": STATUS is the exit
# code, "sigN" for death by a signal, or "timeout" (then it is killed).
run() {
    python3 - "$@" <<'PY'
import os, resource, subprocess, sys
secs, cmd = float(sys.argv[1]), sys.argv[2:]
work = os.environ["WORK"]
with open(work + "/out", "wb") as out, open(work + "/err", "wb") as err:
    try:
        p = subprocess.run(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, timeout=secs)
        status = p.returncode if p.returncode >= 0 else f"sig{-p.returncode}"
    except subprocess.TimeoutExpired:
        status = "timeout"
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(status, peak)
PY
}
export WORK

# expect NAME WANT_STATUS SECONDS MAX_MB CMD...: the command must end
# within SECONDS with WANT_STATUS and a peak resident set of at most MAX_MB.
expect() {
    local name=$1 want=$2 secs=$3 mb=$4
    shift 4
    local got
    got=$(run "$secs" "$@")
    local status=${got% *} peak=${got#* }
    if [ "$status" != "$want" ]; then
        fail "$name" "exit $status (wanted $want), peak ${peak} MB: $(head -c 300 "$WORK/err")"
    elif [ "$peak" -gt "$mb" ]; then
        fail "$name" "peak ${peak} MB, over ${mb} MB"
    else
        pass "$name (exit $status, peak ${peak} MB)"
    fi
}

# --- export never destroys an input or a device --------------------------
D=$WORK/packets
mkdir -p "$D"
printf '1,0,"i","A",1\n' > "$D/T.PRF"
printf '1,5,"i","B",2\n' > "$D/T.PRF.000001"
printf '1,9,"o","B"\n1,12,"o","A"\n' > "$D/T.PRF.000002"
cp "$D/T.PRF.000002" "$WORK/packet.orig"
expect "export over a packet of the input is refused" 2 20 2048 \
    "$BIN" export "$D/T.PRF" --to csv -o "$D/T.PRF.000002" --force
cmp -s "$D/T.PRF.000002" "$WORK/packet.orig" && pass "the packet is untouched" \
    || fail "the packet is untouched" "it changed"

ln -f "$D/T.PRF" "$WORK/hardlink.csv"
expect "export over the input by another name is refused" 2 20 2048 \
    "$BIN" export "$D/T.PRF" --to csv -o "$WORK/hardlink.csv" --force

expect "export over /dev/null is refused" 2 20 2048 \
    "$BIN" export --demo --to folded -o /dev/null --force
[ -c /dev/null ] && pass "/dev/null is still a device" || fail "/dev/null is still a device" "replaced"

mkfifo "$WORK/out.fifo"
expect "export over a FIFO is refused" 2 20 2048 \
    "$BIN" export --demo --to folded -o "$WORK/out.fifo" --force
[ -p "$WORK/out.fifo" ] && pass "the FIFO is still a FIFO" || fail "the FIFO is still a FIFO" "replaced"

# --- a signal during an export leaves no temporary -------------------------
"$GEN" deldbe 64M 2000 "$WORK/big.prf" >/dev/null
for sig in TERM HUP INT; do
    rm -f "$WORK"/.profx-export-* "$WORK/big.json"
    "$BIN" export "$WORK/big.prf" --to chrome -o "$WORK/big.json" 2>/dev/null &
    pid=$!
    for _ in $(seq 1 600); do
        compgen -G "$WORK/.profx-export-*" >/dev/null && break
        sleep 0.05
    done
    kill -s "$sig" "$pid"
    wait "$pid"
    if compgen -G "$WORK/.profx-export-*" >/dev/null || [ -e "$WORK/big.json" ]; then
        fail "SIG$sig during an export" "a temporary or a half file was left"
    else
        pass "SIG$sig during an export leaves nothing behind"
    fi
done

# --- loading never hangs ---------------------------------------------------
mkfifo "$WORK/in.fifo"
expect "a FIFO as input is refused at once" 1 5 2048 "$BIN" report "$WORK/in.fifo"
F=$WORK/fifo-sibling
mkdir -p "$F"
cp "$D/T.PRF" "$D/T.PRF.000001" "$F/"
mkfifo "$F/T.PRF.000002"
expect "a FIFO among the packets is named, not waited on" 0 5 2048 "$BIN" report "$F/T.PRF"
expect "standard input with -" 0 10 2048 sh -c "'$BIN' report - < '$D/T.PRF'"

G=$WORK/far
mkdir -p "$G"
cp "$D/T.PRF" "$D/T.PRF.000001" "$G/"
: > "$G/T.PRF.999999999"
expect "a packet numbered 999999999 beside the trace" 0 10 512 "$BIN" report "$G/T.PRF" --json

M=$WORK/many
mkdir -p "$M"
printf '1,0,"i","MAIN",1\n' > "$M/M.PRF"
python3 -c "
import sys
for i in range(1, 66001):
    op = 'i' if i % 2 else 'o'
    open(f'$M/M.PRF.{i:06}', 'w').write(f'1,{i},\"{op}\",\"F\",2\n')
"
expect "66,000 packets (more than the kernel's memory maps)" 0 60 2048 "$BIN" report "$M/M.PRF"

N=$(printf 'n\377.prf')
cp "$D/T.PRF" "$WORK/$N"
expect "a file name that is not UTF-8" 0 10 2048 "$BIN" report "$WORK/$N"

# --- output and names -------------------------------------------------------
expect "profx FILE > out.txt prints the table" 0 10 2048 "$BIN" "$D/T.PRF"
if grep -q $'\x1b' "$WORK/out"; then
    fail "no escape codes in redirected output" "found one"
else
    pass "no escape codes in redirected output"
fi

python3 -c "
names = ['A\u061c', 'B\u2028', 'C\u2029', 'D\ufff9', 'E\U000e0001\U000e0041', 'F\u00ad', 'G\u180e', 'H\u3164']
with open('$WORK/invisible.prf', 'w') as f:
    for i, n in enumerate(names):
        f.write(f'1,{2*i},\"i\",\"{n}\",1\n1,{2*i+1},\"o\",\"{n}\"\n')
"
expect "invisible characters in names" 0 10 2048 "$BIN" report "$WORK/invisible.prf"
if python3 -c "
import sys, unicodedata
t = open('$WORK/out', encoding='utf-8').read()
bad = [c for c in t if c != '\n' and (unicodedata.category(c) in ('Cc','Cf','Zl','Zp') or c == '\u3164')]
sys.exit(1 if bad else 0)
"; then
    pass "no invisible character reaches the output raw"
else
    fail "no invisible character reaches the output raw" "found some"
fi

# --- memory in proportion ---------------------------------------------------
"$GEN" plist 0 1000000 "$WORK/million.txt" >/dev/null
expect "--json of a million functions, streamed (under 1 GB)" 0 120 1024 \
    "$BIN" report "$WORK/million.txt" --json
"$GEN" deldbe 256M 5000 "$WORK/t256.prf" >/dev/null
expect "--json of a 256 MiB trace (under 1 GB)" 0 120 1024 \
    "$BIN" report "$WORK/t256.prf" --json

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
