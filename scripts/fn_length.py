#!/usr/bin/env python3
"""Issue 62: no function in the app (`src/tui`) is over 80 lines, tests
included. A function's length is its lines from `fn` to the closing brace
at the `fn`'s own indent (rustfmt puts it there), both counted; a
declaration without a body (a trait's `fn f();`) has none.

Usage: fn_length.py [--max N] DIR...  (default: --max 80 src/tui)
Prints each function over the limit as `path:line: name is N lines` and
exits 1 if there is one.
"""

import os
import re
import sys

FN = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern\s+\"C\")\s+)*fn\s+(\w+)")


def lengths(path):
    """(line, name, length) of each function with a body in the file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        indent, name = m.group(1), m.group(2)
        # The signature ends at the first line ending in `{` (a body) or
        # `;` (none); a one-line function holds both braces.
        end = None
        for j in range(i, len(lines)):
            text = lines[j].rstrip()
            if text.endswith(";") and "{" not in text:
                break
            if j == i and text.endswith("}") and "{" in text:
                end = j
                break
            if text.endswith("{"):
                close = indent + "}"
                end = next(
                    (k for k in range(j + 1, len(lines)) if lines[k].rstrip() == close),
                    None,
                )
                break
        if end is not None:
            yield i + 1, name, end - i + 1


def main(argv):
    limit = 80
    if len(argv) >= 2 and argv[0] == "--max":
        limit, argv = int(argv[1]), argv[2:]
    dirs = argv or ["src/tui"]
    over = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for name in sorted(files):
                if not name.endswith(".rs"):
                    continue
                path = os.path.join(root, name)
                for line, fn, n in lengths(path):
                    if n > limit:
                        over.append(f"{path}:{line}: {fn} is {n} lines (at most {limit})")
    for o in sorted(over):
        print(o)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
