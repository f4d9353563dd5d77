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


def path(stack):
    return tuple((f["name"], f["module"]) for f in stack["frames"])


def own(report, key, stack_key):
    """Each function's own value or its stacks' self, the larger
    (model.md, Calling-context tree)."""
    held = {}
    for s in report["stacks"]:
        leaf = path(s)[-1]
        held[leaf] = held.get(leaf, 0) + max(num(s[stack_key]), 0)
    return sum(max(num(f[key]), 0, held.get((f["name"], f["module"]), 0))
               for f in report["functions"])


def unlisted(report):
    """The time stacks' stated child times hold beyond their listed callees
    (model.md): a path's total is its self time and its callees' totals, or
    what it states where that is more than the file's rounding."""
    rounding = 0.0005 if report["format"] == "plist" else max(
        0.005, num(report["totals"]["elapsed_inclusive_ms"]) * 0.005 / 100)
    stated = {}
    for s in report["stacks"]:
        own_ms, child = stated.get(path(s), (0.0, None))
        if s["child_ms"] is not None:
            child = (child or 0.0) + s["child_ms"]
        stated[path(s)] = (own_ms + num(s["self_ms"]), child)
    nodes = {p[:k] for p in stated for k in range(1, len(p) + 1)}
    kids, below, extra = {}, {}, 0.0
    for n in nodes:
        if len(n) > 1:
            kids[n[:-1]] = kids.get(n[:-1], 0) + 1
    for n in sorted(nodes, key=len, reverse=True):
        own_ms, child = stated.get(n, (0.0, None))
        listed = own_ms + below.get(n, 0.0)
        total = listed
        slack = max(rounding * (kids.get(n, 0) + 2), 1e-9 * listed)
        if child is not None and own_ms + child - listed > slack:
            extra += own_ms + child - listed
            total = own_ms + child
        if len(n) > 1:
            below[n[:-1]] = below.get(n[:-1], 0.0) + total
    return extra


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
        # Folded weights are microseconds of a profile in ms, and ticks of
        # one in ticks (issue 63: `meta.time_unit`).
        scale = 1 if report["meta"].get("time_unit") == "ticks" else 1000
        want = scale * (own(report, "elapsed_exclusive_ms", "self_ms")
                        + unlisted(report) + num(t["outside_ms"]))
    elif t["samples"] is not None:
        want = t["samples"]
    else:
        want = own(report, "calls", "hits")
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
