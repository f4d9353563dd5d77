#!/usr/bin/env python3
"""Turns a `tmux capture-pane -e -p` dump (text with SGR escape codes) into
an HTML page that draws the same cells in the same colours, for a headless
browser to photograph. Only SGR sequences are understood; tmux emits no
others in a capture."""
import html
import re
import sys

BASE16 = ["#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
          "#666666", "#ff7b7b", "#d7e27c", "#ffd787", "#9fc5e8", "#d7afff", "#a3e2da", "#ffffff"]
FG, BG = "#d0d0d0", "#1b1d1e"
# SGR codes that set or clear an attribute.
FLAGS = {1: ("bold", True), 4: ("ul", True), 7: ("rev", True),
         22: ("bold", False), 24: ("ul", False), 27: ("rev", False)}


def xterm256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    g = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (g, g, g)


def apply(params, st):
    codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            st.update(fg=None, bg=None, bold=False, ul=False, rev=False)
        elif c in FLAGS:
            key, on = FLAGS[c]
            st[key] = on
        elif c // 10 in (3, 4, 9, 10) and c % 10 <= 7:
            # 30-37 / 40-47 normal, 90-97 / 100-107 bright colours.
            st["fg" if c // 10 in (3, 9) else "bg"] = BASE16[c % 10 + (8 if c >= 90 else 0)]
        elif c == 39:
            st["fg"] = None
        elif c == 49:
            st["bg"] = None
        elif c in (38, 48) and i + 1 < len(codes):
            key = "fg" if c == 38 else "bg"
            if codes[i + 1] == 5 and i + 2 < len(codes):
                st[key] = xterm256(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2 and i + 4 < len(codes):
                st[key] = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                i += 4
        i += 1


def style(st):
    fg, bg = st["fg"] or FG, st["bg"] or BG
    if st["rev"]:
        fg, bg = bg, fg
    css = "color:%s;background:%s" % (fg, bg)
    if st["bold"]:
        css += ";font-weight:bold"
    if st["ul"]:
        css += ";text-decoration:underline"
    return css


def convert(text):
    st = dict(fg=None, bg=None, bold=False, ul=False, rev=False)
    out = []
    for line in text.rstrip("\n").split("\n"):
        parts = re.split(r"\x1b\[([0-9;]*)m", line)
        row = []
        for k, part in enumerate(parts):
            if k % 2:
                apply(part, st)
            elif part:
                row.append('<span style="%s">%s</span>' % (style(st), html.escape(part)))
        out.append("".join(row))
    return "\n".join(out)


def main():
    src, dst, title = sys.argv[1], sys.argv[2], sys.argv[3]
    body = convert(open(src, encoding="utf-8").read())
    page = f"""<!doctype html><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ margin: 0; background: {BG}; }}
pre {{ margin: 10px; font: 14px/17px 'DejaVu Sans Mono', monospace; color: {FG}; }}
span {{ white-space: pre; }}
</style><pre>{body}</pre>"""
    open(dst, "w", encoding="utf-8").write(page)


if __name__ == "__main__":
    main()
