#!/usr/bin/env python3
"""Exports judged by the tools people use them with (issue 9).

For each input given: `profx export` to every target, then
- folded: inferno-flamegraph renders it to an SVG, and its weights add up to
  the total of `profx report --json`;
- speedscope: valid against speedscope's published JSON schema (the copy in
  tests/fixtures/speedscope/, from speedscope's repository);
- chrome (traces): every thread's B/E events nest;
- csv: DuckDB reads each view with the report's row count and column totals.

Usage: check_exports.py PROFX INFERNO_FLAMEGRAPH SCHEMA OUTDIR INPUT...
Needs the Python packages duckdb and jsonschema (scripts/check_exports.sh
installs them in a throwaway venv).
"""

import json
import math
import os
import subprocess
import sys

import duckdb
import jsonschema


def run(*args):
    done = subprocess.run(args, capture_output=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr.decode()}")
    return done


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


def num(x):
    return x if isinstance(x, (int, float)) else 0


def check_folded(profx, inferno, src, report, out):
    path = os.path.join(out, "out.folded")
    run(profx, "export", src, "--to", "folded", "-o", path, "--force")
    with open(path) as f:
        weights = [int(line.rsplit(" ", 1)[1]) for line in f]
    svg = run(inferno, path).stdout
    assert b"<svg" in svg and len(svg) > 1000, "inferno-flamegraph drew nothing"
    t = report["totals"]
    funcs = report["functions"]
    if any(f["elapsed_exclusive_ms"] is not None for f in funcs):
        want = 1000 * (sum(num(f["elapsed_exclusive_ms"]) for f in funcs) + num(t["outside_ms"]))
    elif t["samples"] is not None:
        want = t["samples"]
    else:
        want = sum(num(f["calls"]) for f in funcs)
    assert sum(weights) == round(want), f"folded adds up to {sum(weights)}, report {want}"
    return f"folded {len(weights)} stacks, {len(svg)} B of SVG"


def check_speedscope(profx, schema, src, out):
    path = os.path.join(out, "out.speedscope.json")
    run(profx, "export", src, "--to", "speedscope", "-o", path, "--force")
    with open(path) as f:
        doc = json.load(f)
    jsonschema.validate(doc, schema)
    kinds = sorted({p["type"] for p in doc["profiles"]})
    return f"speedscope {len(doc['profiles'])} {'/'.join(kinds)} profile(s) valid"


def check_chrome(profx, src, out):
    path = os.path.join(out, "out.chrome.json")
    run(profx, "export", src, "--to", "chrome", "-o", path, "--force")
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    stacks = {}
    for e in events:
        if e["ph"] == "B":
            stacks.setdefault(e["tid"], []).append(e["name"])
        elif e["ph"] == "E":
            assert stacks[e["tid"]].pop() == e["name"], f"E does not close its B: {e}"
    assert all(not s for s in stacks.values()), "calls left open"
    return f"chrome {len(events)} events nest"


def check_csv(profx, src, report, out):
    said = []
    for view in ("functions", "lines", "stacks"):
        path = os.path.join(out, f"out.{view}.csv")
        run(profx, "export", src, "--to", "csv", "--view", view, "-o", path, "--force")
        rows = report[view]
        # As a person would ask: the file named in FROM, DuckDB sniffing
        # the dialect, the header and the column types.
        con = duckdb.connect()
        table = f"'{path}'"
        count = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
        assert count == len(rows), f"{view}: DuckDB reads {count} rows, report has {len(rows)}"
        columns = con.execute(f"DESCRIBE SELECT * FROM {table}").fetchall()
        numeric = [c[0] for c in columns if c[1] in ("BIGINT", "DOUBLE")]
        for col in numeric:
            if not rows or col not in rows[0]:
                continue
            got = con.execute(f'SELECT coalesce(sum("{col}"), 0) FROM {table}').fetchall()[0][0]
            want = sum(num(r[col]) for r in rows)
            assert close(float(got), want), f"{view}.{col}: DuckDB {got}, report {want}"
        said.append(f"{view} {count}")
    return "csv " + ", ".join(said)


def main():
    profx, inferno, schema_path, out, *inputs = sys.argv[1:]
    with open(schema_path) as f:
        schema = json.load(f)
    os.makedirs(out, exist_ok=True)
    for src in inputs:
        report = json.loads(run(profx, "report", src, "--json").stdout)
        said = [
            check_folded(profx, inferno, src, report, out),
            check_speedscope(profx, schema, src, out),
            check_csv(profx, src, report, out),
        ]
        if report["format"] == "xpp":
            said.append(check_chrome(profx, src, out))
        print(f"{os.path.basename(src)} ({report['format']}): " + "; ".join(said))


if __name__ == "__main__":
    main()
