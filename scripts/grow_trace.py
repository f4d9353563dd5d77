#!/usr/bin/env python3
"""Writes a growing Xbase++ trace, as the profiler does while a program runs
(seed 004: OUTFLUSHEVERY, packets NAME.PRF, NAME.PRF.000001, ...), to try
and to test `profx --follow` / `profx report --follow`.

    scripts/grow_trace.py OUT.PRF --format deldbe --rate 10000 --seconds 30
    scripts/grow_trace.py OUT.PRF --format dbf --packet-every 5000 --events 20000

Events are written in flushes of --flush-every events; with --cut, each
flush stops at a random byte (a line or record cut anywhere) and the rest
follows with the next one, as a writer caught mid-flush leaves it. With
--packet-every N a new numbered packet starts every N events (a DBF header
packet keeps its header; later packets hold records only), and the DBF
header's record count is rewritten after every flush. Every call is closed
when the script ends, so the final files load without an unclosed-call
warning. Deterministic for a given --seed.
"""

import argparse
import os
import random
import struct
import sys
import time

DBF_FIELDS = [("THREAD", b"N", 4, 0), ("TIMELINE", b"N", 14, 3), ("OP", b"C", 1, 0),
              ("FUNCTION", b"C", 20, 0), ("LINENO", b"N", 6, 0)]


def dbf_header(records):
    header_len = 32 + 32 * len(DBF_FIELDS) + 1
    record_len = 1 + sum(f[2] for f in DBF_FIELDS)
    out = bytes([0x03, 126, 11, 21]) + struct.pack("<IHH", records, header_len, record_len)
    out += bytes(20)
    for name, kind, length, dec in DBF_FIELDS:
        out += name.encode().ljust(11, b"\0") + kind + bytes([0, 0, 0, 0, length, dec]) + bytes(14)
    return out + b"\x0d"


def record(fmt, thread, ms, op, name, line):
    if fmt == "deldbe":
        if op == "i":
            return f'{thread},{ms:.3f},"i","{name}",{line}\n'.encode()
        return f'{thread},{ms:.3f},"o","{name}"\n'.encode()
    lineno = str(line) if op == "i" else ""
    return f" {thread:>4}{ms:>14.3f}{op}{name:<20}{lineno:>6}".encode()


def events(rng, names, threads):
    """An endless run of (thread, ms, op, name, line), calls nesting."""
    stacks = [[] for _ in range(threads)]
    ms = 0.0
    while True:
        t = rng.randrange(threads)
        ms += rng.randint(1, 50) / 1000.0
        depth = len(stacks[t])
        if depth == 0 or (depth < 10 and rng.randrange(100) < 60 - 6 * depth):
            f = f"FN{rng.randrange(names):06d}"
            stacks[t].append(f)
            yield (t + 1, ms, "i", f, rng.randint(1, 900)), stacks
        else:
            yield (t + 1, ms, "o", stacks[t].pop(), 0), stacks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="the trace to write (NAME.PRF); never an existing file")
    ap.add_argument("--format", choices=["deldbe", "dbf"], default="deldbe")
    ap.add_argument("--rate", type=float, default=10000, help="events a second (0: at once)")
    ap.add_argument("--events", type=int, default=0, help="stop after N events")
    ap.add_argument("--seconds", type=float, default=0, help="stop after S seconds")
    ap.add_argument("--flush-every", type=int, default=500, help="events a flush")
    ap.add_argument("--packet-every", type=int, default=0, help="events a packet (0: one file)")
    ap.add_argument("--cut", action="store_true", help="cut each flush at a random byte")
    ap.add_argument("--names", type=int, default=40)
    ap.add_argument("--threads", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.events <= 0 and a.seconds <= 0:
        ap.error("say when to stop: --events N or --seconds S")
    if os.path.exists(a.out):
        ap.error(f"{a.out} exists; the writer never writes over a file")
    rng = random.Random(a.seed)
    dbf = a.format == "dbf"
    files = [a.out]
    written = 0  # events in all
    in_packet = 0
    pending = b""  # the cut-off rest of the last flush
    count = 0  # DBF records in all
    with open(a.out, "wb") as f:
        if dbf:
            f.write(dbf_header(0))

    def flush(chunk, final=False):
        nonlocal pending
        data = pending + chunk
        keep = 0
        if a.cut and not final and len(data) > 1:
            keep = rng.randrange(len(data))
        pending = data[len(data) - keep:] if keep else b""
        with open(files[-1], "ab") as f:
            f.write(data[: len(data) - keep])
        if dbf:
            with open(a.out, "r+b") as f:
                f.seek(4)
                f.write(struct.pack("<I", count))

    start = time.monotonic()
    chunk = b""
    gen = events(rng, a.names, a.threads)
    stacks = None
    last_ms = 0.0
    while True:
        due = (a.events and written >= a.events) or (a.seconds and time.monotonic() - start >= a.seconds)
        if due:
            break
        (ev, stacks) = next(gen)
        last_ms = ev[1]
        chunk += record(a.format, *ev)
        written += 1
        count += 1
        in_packet += 1
        if written % a.flush_every == 0:
            flush(chunk)
            chunk = b""
            if a.rate > 0:
                ahead = written / a.rate - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
        if a.packet_every and in_packet >= a.packet_every:
            flush(chunk, final=True)
            chunk = b""
            files.append(f"{a.out}.{len(files):06d}")
            open(files[-1], "wb").close()
            in_packet = 0
    # Every call still open returns, innermost first, then the last flush.
    for t, stack in enumerate(stacks or []):
        while stack:
            last_ms += 0.001
            chunk += record(a.format, t + 1, last_ms, "o", stack.pop(), 0)
            count += 1
    if dbf:
        chunk += b"\x1a"
    flush(chunk, final=True)
    print(f"{written} events in {len(files)} file(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
