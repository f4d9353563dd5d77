#!/usr/bin/env bash
# The attack list of issue 37, run against the release binary as an
# adversary would: hostile outputs, inputs that are no files, signals,
# hostile names, far packet numbers, redirected output, memory. Prints one
# line per check, PASS or FAIL with what went wrong, then a count; exits 1
# if any failed. An attack is checked by what it did (the message, the
# table, the warning, the document), not by its exit status alone. The terminal's attacks (signals while the app runs, a
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

# says NAME STREAM TEXT: the last run's STREAM (out or err) holds TEXT. An
# exit status alone cannot tell a refusal from any other error of the same
# code, nor a report from an empty one.
says() {
    if grep -qF -- "$3" "$WORK/$2"; then
        pass "$1"
    else
        fail "$1" "its std$2 lacks \"$3\": $(head -c 300 "$WORK/$2")"
    fi
}

# whole_json NAME: the last run's stdout is a whole --json document: it ends
# with its closing brace, and its functions array holds as many functions as
# its totals count. Read line by line, so a document of gigabytes costs
# nothing to check; a streamed writer that stops early fails it.
whole_json() {
    if python3 - "$WORK/out" <<'PY'
import re, sys
total = listed = None
last = ""
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        if total is None:
            m = re.fullmatch(r'    "functions": (\d+),?\n', line)
            if m:
                total = int(m.group(1))
        if line == '  "functions": [\n':
            listed = 0
        elif listed is not None and line.startswith('      "name": '):
            listed += 1
        elif listed is not None and line.startswith("  ]"):
            break
        last = line
    for line in f:
        last = line
sys.exit(0 if total and listed == total and last.strip() == "}" else 1)
PY
    then
        pass "$1"
    else
        fail "$1" "not a whole document: $(head -c 200 "$WORK/out" | tr '\n' ' ') ... $(tail -c 200 "$WORK/out" | tr '\n' ' ')"
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
says "the refusal says the packet is the input" err "$D/T.PRF.000002 is the input"
cmp -s "$D/T.PRF.000002" "$WORK/packet.orig" && pass "the packet is untouched" \
    || fail "the packet is untouched" "it changed"

cp "$D/T.PRF" "$WORK/input.orig"
ln -f "$D/T.PRF" "$WORK/hardlink.csv"
expect "export over the input by another name is refused" 2 20 2048 \
    "$BIN" export "$D/T.PRF" --to csv -o "$WORK/hardlink.csv" --force
says "the refusal names the input behind the other name" err "$WORK/hardlink.csv is the input $D/T.PRF"
cmp -s "$D/T.PRF" "$WORK/input.orig" && pass "the input is untouched" \
    || fail "the input is untouched" "it changed"

expect "export over /dev/null is refused" 2 20 2048 \
    "$BIN" export --demo --to folded -o /dev/null --force
says "the refusal says /dev/null is a device" err "/dev/null is a device"
[ -c /dev/null ] && pass "/dev/null is still a device" || fail "/dev/null is still a device" "replaced"

mkfifo "$WORK/out.fifo"
expect "export over a FIFO is refused" 2 20 2048 \
    "$BIN" export --demo --to folded -o "$WORK/out.fifo" --force
says "the refusal says the output is a FIFO" err "$WORK/out.fifo is a FIFO"
[ -p "$WORK/out.fifo" ] && pass "the FIFO is still a FIFO" || fail "the FIFO is still a FIFO" "replaced"

# --- a signal during an export leaves no temporary -------------------------
"$GEN" deldbe 64M 2000 "$WORK/big.prf" >/dev/null
# The signal must reach the export while its temporary exists, and the
# export must die of it: an export that ended first, or never began, would
# leave nothing behind without having been put to the test.
for sig in TERM HUP INT; do
    rm -f "$WORK"/.profx-export-* "$WORK/big.json"
    # A background job of a script starts with SIGINT ignored, and profx
    # keeps a signal it was started ignoring: the export is started with
    # the signals at their defaults, as from a terminal.
    python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGQUIT):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' \
        "$BIN" export "$WORK/big.prf" --to chrome -o "$WORK/big.json" 2>/dev/null &
    pid=$!
    seen=no
    for _ in $(seq 1 600); do
        if compgen -G "$WORK/.profx-export-*" >/dev/null; then
            seen=yes
            break
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -s "$sig" "$pid" 2>/dev/null
    # Quiet: bash would report the job's death by the signal, which is wanted.
    wait "$pid" 2>/dev/null
    status=$?
    if [ "$seen" != yes ]; then
        fail "SIG$sig during an export" "no temporary appeared before the export ended (exit $status)"
    elif [ "$status" -ne $((128 + $(kill -l "$sig"))) ]; then
        fail "SIG$sig during an export" "exit $status, not death by the signal"
    elif compgen -G "$WORK/.profx-export-*" >/dev/null || [ -e "$WORK/big.json" ]; then
        fail "SIG$sig during an export" "a temporary or a half file was left"
    else
        pass "SIG$sig during an export leaves nothing behind"
    fi
done
# Started as a script's background job, the export ignores SIGINT, as the
# shell asked (POSIX): it is not ended by one, and writes its file whole.
rm -f "$WORK"/.profx-export-* "$WORK/big.json"
"$BIN" export "$WORK/big.prf" --to chrome -o "$WORK/big.json" 2>/dev/null &
pid=$!
for _ in $(seq 1 600); do
    compgen -G "$WORK/.profx-export-*" >/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
kill -s INT "$pid" 2>/dev/null
wait "$pid"
status=$?
if [ "$status" -eq 0 ] && [ -s "$WORK/big.json" ] && ! compgen -G "$WORK/.profx-export-*" >/dev/null; then
    pass "an export started ignoring SIGINT keeps ignoring it and finishes"
else
    fail "an export started ignoring SIGINT keeps ignoring it and finishes" "exit $status"
fi

# --- loading never hangs ---------------------------------------------------
mkfifo "$WORK/in.fifo"
expect "a FIFO as input is refused at once" 1 5 2048 "$BIN" report "$WORK/in.fifo"
says "the refusal says the input is a FIFO" err "$WORK/in.fifo: is a FIFO"
F=$WORK/fifo-sibling
mkdir -p "$F"
cp "$D/T.PRF" "$D/T.PRF.000001" "$F/"
mkfifo "$F/T.PRF.000002"
# A report's table lists no warnings (`--view info` and --json do): --json,
# whose warnings say where.
expect "a FIFO among the packets is not waited on" 0 5 2048 "$BIN" report "$F/T.PRF" --json
if python3 - "$WORK/out" "$F/T.PRF.000002" <<'PY'
import json, sys
warnings = json.load(open(sys.argv[1]))["warnings"]
sys.exit(0 if any(w["where"] == sys.argv[2] and w["kind"] == "unreadable_packet"
                  and sys.argv[2] + ": is a FIFO" in w["message"]
                  for w in warnings) else 1)
PY
then
    pass "the FIFO among the packets is named in a warning"
else
    fail "the FIFO among the packets is named in a warning" "warnings: $(head -c 600 "$WORK/out" | tr '\n' ' ')"
fi
expect "standard input with -" 0 10 2048 sh -c "'$BIN' report - < '$D/T.PRF'"
grep -qE '^A +1 ' "$WORK/out" && pass "standard input's trace is reported (A, called once)" \
    || fail "standard input's trace is reported (A, called once)" "$(head -c 300 "$WORK/out")"

G=$WORK/far
mkdir -p "$G"
cp "$D/T.PRF" "$D/T.PRF.000001" "$G/"
: > "$G/T.PRF.999999999"
expect "a packet numbered 999999999 beside the trace" 0 10 512 "$BIN" report "$G/T.PRF" --json
if python3 - "$WORK/out" <<'PY'
import json, sys
warnings = json.load(open(sys.argv[1]))["warnings"]
missing = [w["message"] for w in warnings if w["kind"] == "missing_packet"]
sys.exit(0 if len(missing) == 1
         and missing[0].startswith("999999997 packets missing, up to T.PRF.999999998") else 1)
PY
then
    pass "the missing packets are one warning"
else
    fail "the missing packets are one warning" "$(head -c 600 "$WORK/out" | tr '\n' ' ')"
fi

M=$WORK/many
mkdir -p "$M"
printf '1,0,"i","MAIN",1\n' > "$M/M.PRF"
python3 -c "
import sys
for i in range(1, 66001):
    op = 'i' if i % 2 else 'o'
    open(f'$M/M.PRF.{i:06}', 'w').write(f'1,{i},\"{op}\",\"F\",2\n')
"
expect "66,000 packets (more than the kernel's memory maps)" 0 60 2048 "$BIN" report "$M/M.PRF" --json
if python3 -c "import json, sys; sys.exit(json.load(open('$WORK/out'))['totals']['packets'] != 66001)"; then
    pass "every one of the 66,001 packets is read"
else
    fail "every one of the 66,001 packets is read" "$(head -c 600 "$WORK/out" | tr '\n' ' ')"
fi

N=$(printf 'n\377.prf')
cp "$D/T.PRF" "$WORK/$N"
expect "a file name that is not UTF-8" 0 10 2048 "$BIN" report "$WORK/$N"
grep -qE '^A +1 ' "$WORK/out" && pass "the file named in bytes is reported (A, called once)" \
    || fail "the file named in bytes is reported (A, called once)" "$(head -c 300 "$WORK/out")"

# --- output and names -------------------------------------------------------
expect "profx FILE > out.txt runs" 0 10 2048 "$BIN" "$D/T.PRF"
cp "$WORK/out" "$WORK/app.txt"
if grep -q $'\x1b' "$WORK/app.txt"; then
    fail "no escape codes in redirected output" "found one"
else
    pass "no escape codes in redirected output"
fi
# The table is the report's, and the report's is a table of the trace: a
# header and a row for each function, so two empty outputs do not agree.
"$BIN" report "$D/T.PRF" --table > "$WORK/report.txt" 2>/dev/null
if ! cmp -s "$WORK/app.txt" "$WORK/report.txt"; then
    fail "profx FILE > out.txt prints the report's table" "$(diff "$WORK/report.txt" "$WORK/app.txt" | head -c 300)"
elif grep -q '^Name  *Calls  *Incl ms' "$WORK/app.txt" && grep -qE '^A +1 ' "$WORK/app.txt" \
    && grep -qE '^B +1 ' "$WORK/app.txt"; then
    pass "profx FILE > out.txt prints the report's table"
else
    fail "profx FILE > out.txt prints the report's table" "not a table of A and B: $(head -c 300 "$WORK/app.txt")"
fi

# Each name is a letter and what hides: format and separator characters,
# letters that draw nothing, an escape sequence and a bidi override.
NAMES="['A\u061c', 'B\u2028', 'C\u2029', 'D\ufff9', 'E\U000e0001\U000e0041', 'F\u00ad', 'G\u180e', 'H\u3164', 'I\x1b[2J', 'J\u202e']"
python3 - "$WORK/invisible.prf" "$NAMES" <<'PY'
import ast, sys
with open(sys.argv[1], "w") as f:
    for i, n in enumerate(ast.literal_eval(sys.argv[2])):
        f.write(f'1,{2*i},"i","{n}",1\n1,{2*i+1},"o","{n}"\n')
PY
expect "invisible characters in names" 0 10 2048 "$BIN" report "$WORK/invisible.prf"
if python3 - "$WORK/out" "$WORK/err" <<'PY'
import sys, unicodedata
t = "".join(open(p, encoding="utf-8").read() for p in sys.argv[1:])
bad = [c for c in t if c != "\n" and (unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") or c == "\u3164")]
sys.exit(1 if bad else 0)
PY
then
    pass "no invisible character reaches the output raw"
else
    fail "no invisible character reaches the output raw" "found some"
fi
# None may vanish instead: each name's row starts with its letter, then each
# hidden character spelt \xHH or \u{H...} (any case, any leading zeros), then
# what is plain.
if python3 - "$WORK/out" "$NAMES" <<'PY'
import ast, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
def spelt(name):
    return "".join(re.escape(c) if c.isprintable() and c != "\u3164"
                   else r"\\(?:x|u\{)0*%x\}?" % ord(c) for c in name)
lost = [n for n in ast.literal_eval(sys.argv[2]) if not re.search("(?im)^" + spelt(n) + " ", t)]
if lost:
    print("not shown escaped:", [ascii(n) for n in lost])
sys.exit(1 if lost else 0)
PY
then
    pass "every hidden character is shown escaped"
else
    fail "every hidden character is shown escaped" "$(head -c 400 "$WORK/out")"
fi

# --- memory in proportion ---------------------------------------------------
"$GEN" plist 0 1000000 "$WORK/million.txt" >/dev/null
expect "--json of a million functions, streamed (under 1 GB)" 0 120 1024 \
    "$BIN" report "$WORK/million.txt" --json
whole_json "the million functions' document is whole"
"$GEN" deldbe 256M 5000 "$WORK/t256.prf" >/dev/null
expect "--json of a 256 MiB trace (under 1 GB)" 0 120 1024 \
    "$BIN" report "$WORK/t256.prf" --json
whole_json "the 256 MiB trace's document is whole"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
