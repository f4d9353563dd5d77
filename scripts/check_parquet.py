#!/usr/bin/env python3
"""Tables of many runs read by DuckDB (issue 70, docs/spec/parquet.md).

`profx export INPUT... --to parquet -o OUTDIR/tables`, with one input that no
format reads (it is named, left out, and the exit status is 1), then, by
DuckDB alone:
- every table of every run, row by row and value by value, equals the run's
  `profx report --json` (the same rows in the same order, the same numbers,
  null where it has null; `runs` its sources, format, unit, query, warnings
  and totals);
- a trace's calls: a function's rows number its calls, their exclusive
  times add up to its exclusive time, and their minimum, maximum and
  nearest-rank percentiles are its own;
- `--append` adds the runs again under new ids, read with the first ones
  through one glob;
- the README's query (the ten functions whose inclusive share grew most
  between two sets of runs, `before/` and `after/`) gives the answer worked
  out from `report --json` of each run.

Usage: check_parquet.py PROFX OUTDIR INPUT...
An input under a folder named `before` is of the first set, any other of the
second. Needs the Python package duckdb.
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys

import duckdb

TABLES = ["runs", "functions", "edges", "stacks", "lines", "threads", "calls"]


def run(*args, code=0):
    done = subprocess.run(args, capture_output=True)
    if done.returncode != code:
        sys.exit(f"{' '.join(args)}: exit {done.returncode}, not {code}\n{done.stderr.decode()}")
    return done


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def rows_of(con, dir, table, run_id):
    """A run's rows of a table as DuckDB reads them, in the files' order,
    without their run_id."""
    cur = con.execute(
        f"SELECT * EXCLUDE (run_id, filename, file_row_number) FROM read_parquet("
        f"'{dir}/{table}*.parquet', filename = true, file_row_number = true) "
        f"WHERE run_id = ? ORDER BY filename, file_row_number", [run_id])
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()], names


def report_rows(report, key, columns):
    return [{c: r.get(c) for c in columns} for r in report[key]]


def nearest_rank(p, n):
    return max(0, min(n - 1, -(-p * n // 100) - 1))


def check_calls(calls, report, name):
    if report["format"] != "xpp":
        assert not calls, f"{name}: calls of a {report['format']} profile"
        return 0
    by = {}
    for c in calls:
        by.setdefault((c["name"], c["module"]), []).append(c)
    for f in report["functions"]:
        key = (f["name"], f["module"])
        mine = by.pop(key, [])
        assert len(mine) == (f["calls"] or 0), f"{name}: {key} {len(mine)} calls, report {f['calls']}"
        if not mine or f["elapsed_exclusive_ms"] is None:
            continue
        excl = sum(c["elapsed_exclusive_ms"] for c in mine)
        assert close(excl, f["elapsed_exclusive_ms"]), f"{name}: {key} exclusive {excl}"
        for kind in ("inclusive", "exclusive"):
            values = sorted(c[f"elapsed_{kind}_ms"] for c in mine)
            assert values[0] == f[f"min_elapsed_{kind}_ms"], f"{name}: {key} min {kind}"
            assert values[-1] == f[f"max_elapsed_{kind}_ms"], f"{name}: {key} max {kind}"
            for p in (50, 90, 99):
                got = values[nearest_rank(p, len(values))]
                assert got == f[f"p{p}_elapsed_{kind}_ms"], f"{name}: {key} p{p} {kind}: {got}"
    assert not by, f"{name}: calls of no function: {list(by)[:3]}"
    return len(calls)


def check_run(con, dir, run_id, report, name):
    runs, _ = rows_of(con, dir, "runs", run_id)
    assert len(runs) == 1, f"{name}: {len(runs)} runs rows"
    r = runs[0]
    want = {
        "sources": report["sources"], "format": report["format"],
        "time_unit": report["meta"]["time_unit"], "query": report["query"],
        "warnings": len(report["warnings"]), **report["totals"],
    }
    r["query"] = json.loads(r["query"])
    assert r == want, f"{name}: runs {r} != {want}"
    said = []
    for table in ["functions", "edges", "stacks", "lines", "threads"]:
        got, columns = rows_of(con, dir, table, run_id)
        want = report_rows(report, table, columns)
        for i, (g, w) in enumerate(zip(got, want)):
            assert g == w, f"{name}: {table} row {i}: {g} != {w}"
        assert len(got) == len(want), f"{name}: {table} {len(got)} rows, report {len(want)}"
        said.append(f"{table} {len(got)}")
    calls, _ = rows_of(con, dir, "calls", run_id)
    said.append(f"calls {check_calls(calls, report, name)}")
    return ", ".join(said)


# The README's query, word for word (tests/readme.rs holds the README to it).
README_QUERY = open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read()
README_QUERY = re.search(r"```sql\n(-- The ten functions.*?)```", README_QUERY, re.S).group(1)


def grew_most(reports):
    """The README query's answer from the reports: each function's mean
    inclusive share over each set's runs (0 where it did not run), after
    less before."""
    sets = {True: [], False: []}
    for report in reports:
        sets[report["sources"][0].startswith("before/")].append(report)
    share = {}
    for before, rs in sets.items():
        for report in rs:
            for f in report["functions"]:
                pct = f["elapsed_inclusive_pct"]
                if pct is None:
                    pct = f["hits_total_pct"]
                key = (f["name"], f["module"])
                share.setdefault(key, {True: 0.0, False: 0.0})[before] += (pct or 0) / len(rs)
    grew = [(s[False] - s[True], k) for k, s in share.items()]
    grew.sort(key=lambda g: -g[0])
    return grew


def check_readme_query(con, dir, reports):
    got = con.execute(README_QUERY.replace("'tables/", f"'{dir}/")).fetchall()
    want = grew_most(reports)
    assert len(got) == min(10, len(want)), f"README query: {len(got)} rows"
    by_key = {k: g for g, k in want}
    for i, (name, module, grew) in enumerate(got):
        assert close(grew, by_key[(name, module)]), f"README query: {name} grew {grew}, reports {by_key[(name, module)]}"
        assert close(grew, want[i][0]), f"README query row {i}: {grew}, reports {want[i][0]}"
    return got


def main():
    profx, out, *inputs = sys.argv[1:]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    loadable, reports = [], []
    for src in inputs:
        done = subprocess.run([profx, "report", src, "--json"], capture_output=True)
        if done.returncode == 0:
            loadable.append(src)
            reports.append(json.loads(done.stdout))
    formats = {r["format"] for r in reports}
    assert formats >= {"plist", "br", "xpp", "vs-csv"}, f"formats: {formats}"
    bad = os.path.join(out, "unreadable.prf")
    with open(bad, "wb") as f:
        f.write(b"\x00\x01 no profile of any format\n")
    dir = os.path.join(out, "tables")
    # The inputs as given, relative: `sources` is what the README's query reads.
    done = run(profx, "export", *loadable[:1], bad, *loadable[1:], "--to", "parquet",
               "-o", dir, code=1)
    assert b"unreadable.prf" in done.stderr, done.stderr.decode()
    con = duckdb.connect()
    ids = [i for i in range(1, len(loadable) + 2) if i != 2]
    got_ids = [r[0] for r in con.execute(f"SELECT run_id FROM '{dir}/runs.parquet' ORDER BY run_id").fetchall()]
    assert got_ids == ids, f"run ids {got_ids}"
    for run_id, src, report in zip(ids, loadable, reports):
        said = check_run(con, dir, run_id, report, src)
        print(f"{src} ({report['format']}): run {run_id}: {said}")
    top = check_readme_query(con, dir, reports)
    print(f"README query: {len(top)} functions, first {top[0][0]!r} grew {top[0][2]:.3f} points")
    # The same runs appended: new ids after the last, one glob for both.
    run(profx, "export", *loadable, "--to", "parquet", "-o", dir, "--append")
    last = ids[-1]
    for k, (src, report) in enumerate(zip(loadable, reports)):
        check_run(con, dir, last + 1 + k, report, src + " (appended)")
    count = con.execute(f"SELECT count(*) FROM '{dir}/runs*.parquet'").fetchall()[0][0]
    assert count == 2 * len(loadable), f"{count} runs after --append"
    print(f"--append: {len(loadable)} more runs, {count} in all")


if __name__ == "__main__":
    main()
