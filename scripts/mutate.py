#!/usr/bin/env python3
"""Mutation campaign against the real binary (issue 8's acceptance check).

For every seed file (default: the fuzz seed corpora from
`cargo run --example fuzz_seeds -- DIR`), writes mutated and truncated copies
outside the repository and runs `profx report FILE --json` and `--table` on
each. Every run must exit 0 (loaded, valid JSON) or 1 (a message on stderr),
within the time limit, and print no raw control character.

    python3 scripts/mutate.py [--per-seed N] [--bin PATH] SEED_DIR...
"""
import argparse, json, os, random, subprocess, sys, tempfile

UNSAFE = set(range(0x00, 0x20)) - {0x0A}


def raw_control(data: bytes):
    text = data.decode("utf-8", "replace")
    for i, c in enumerate(text):
        o = ord(c)
        if (o in UNSAFE or o == 0x7F or 0x80 <= o <= 0x9F
                or 0x200B <= o <= 0x200F or 0x202A <= o <= 0x202E
                or 0x2060 <= o <= 0x2069 or o == 0xFEFF):
            return i
    return None


def mutants(data: bytes, n: int, rng: random.Random):
    for k in range(n):
        b = bytearray(data)
        kind = k % 4
        if kind == 0 and b:  # truncate
            b = b[: rng.randrange(len(b))]
        elif kind == 1 and b:  # flip bytes
            for _ in range(rng.randint(1, 8)):
                b[rng.randrange(len(b))] = rng.randrange(256)
        elif kind == 2 and b:  # duplicate or delete a slice
            i, j = sorted(rng.randrange(len(b) + 1) for _ in range(2))
            b = b[:i] + b[j:] if rng.random() < 0.5 else b[:j] + b[i:j] + b[j:]
        else:  # insert interesting values
            i = rng.randrange(len(b) + 1)
            b[i:i] = rng.choice([b"\xff\xff\xff\xff", b"\x00" * 8, b"\x1b]0;x\x07", b"\n", b"\"", b"-1", b"1e308"])
        yield kind, bytes(b)


def run(binary, path, args, timeout):
    try:
        p = subprocess.run([binary, "report", path, *args], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang"
    if p.returncode not in (0, 1):
        return f"exit {p.returncode}: {p.stderr[-300:]!r}"
    if p.returncode == 1 and not p.stderr.strip():
        return "exit 1 without a message"
    for stream in (p.stdout, p.stderr):
        at = raw_control(stream)
        if at is not None:
            return f"raw control at {at}"
    if p.returncode == 0 and "--json" in args:
        try:
            json.loads(p.stdout)
        except ValueError as e:
            return f"invalid JSON: {e}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seeds", nargs="+")
    ap.add_argument("--per-seed", type=int, default=100)
    ap.add_argument("--bin", default="target/release/profx")
    ap.add_argument("--timeout", type=float, default=20)
    a = ap.parse_args()
    rng = random.Random(8)
    files = [os.path.join(d, f) for d in a.seeds for f in sorted(os.listdir(d))]
    failures = runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in files:
            data = open(seed, "rb").read()
            for k, m in mutants(data, a.per_seed, rng):
                path = os.path.join(tmp, "m" + os.path.splitext(seed)[1])
                open(path, "wb").write(m)
                for args in (["--json"], ["--table", "--view", "stacks"]):
                    runs += 1
                    bad = run(a.bin, path, args, a.timeout)
                    if bad:
                        failures += 1
                        keep = os.path.join(tmp, "..", f"profx-mutant-{failures}")
                        open(keep, "wb").write(m)
                        print(f"FAIL {seed} mutant {k} {args}: {bad} (kept {keep})")
    print(f"{runs} runs over {len(files)} seeds, {failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
