#!/usr/bin/env python3
"""Turns `bubbles render --color always` output (UTF-8 with SGR escapes) into an HTML page that
draws it as a terminal would: one fixed-width cell grid, each grapheme in as many cells as a
terminal gives it, so borders line up whatever the browser's fonts advance.

    bubbles render LOG --color always | python3 Tools/docs/ansi-to-html.py [--title T] > page.html

Only SGR sequences (ESC [ ... m) are interpreted: the renderer emits no other escape. Any other
control character is shown as U+FFFD, so nothing from the input reaches the page raw.
"""
import argparse
import html
import re
import sys
import unicodedata

PALETTE = [
    "#1e2127", "#e06c75", "#98c379", "#d19a66", "#61afef", "#c678dd", "#56b6c2", "#abb2bf",
    "#5c6370", "#e06c75", "#98c379", "#d19a66", "#61afef", "#c678dd", "#56b6c2", "#ffffff",
]
FOREGROUND, BACKGROUND = "#d7dae0", "#1e2127"
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def xterm256(n):
    if n < 16:
        return PALETTE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    level = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (level, level, level)


def extended(params, i):
    """Reads 38/48's colour starting at params[i] (the 5 or 2); returns (colour, next index)."""
    if i < len(params) and params[i] == 5 and i + 1 < len(params):
        return xterm256(params[i + 1]), i + 2
    if i < len(params) and params[i] == 2 and i + 3 < len(params):
        return "#%02x%02x%02x" % tuple(params[i + 1:i + 4]), i + 4
    return None, len(params)


def apply(state, codes):
    params = [int(p) if p else 0 for p in codes.split(";")] if codes else [0]
    i = 0
    while i < len(params):
        p = params[i]
        i += 1
        if p == 0:
            state.clear()
        elif p in (1, 2, 3, 4, 7):
            state[p] = True
        elif p == 22:
            state.pop(1, None), state.pop(2, None)
        elif p in (23, 24, 27):
            state.pop(p - 20, None)
        elif 30 <= p <= 37 or 90 <= p <= 97:
            state["fg"] = PALETTE[p - 30 if p < 90 else p - 82]
        elif 40 <= p <= 47 or 100 <= p <= 107:
            state["bg"] = PALETTE[p - 40 if p < 100 else p - 92]
        elif p == 39:
            state.pop("fg", None)
        elif p == 49:
            state.pop("bg", None)
        elif p in (38, 48):
            colour, i = extended(params, i)
            if colour:
                state["fg" if p == 38 else "bg"] = colour


def cell_width(cluster):
    """Cells a terminal measuring by grapheme cluster gives `cluster` (Unicode's rule, as the
    renderer's default `unicode` profile counts)."""
    if "\ufe0f" in cluster or "\u200d" in cluster or any(0x1F3FB <= ord(c) <= 0x1F3FF for c in cluster):
        return 2
    base = cluster[0]
    if 0x1F1E6 <= ord(base) <= 0x1F1FF:
        return 2
    return 2 if unicodedata.east_asian_width(base) in ("W", "F") else 1


def clusters(text):
    """Splits text into base characters with what attaches to them (marks, joiners, selectors)."""
    out = []
    for ch in text:
        attaches = (unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Mc")
                    or ch in "\u200d\ufe0e\ufe0f" or 0x1F3FB <= ord(ch) <= 0x1F3FF
                    or 0xE0020 <= ord(ch) <= 0xE007F)
        joined = out and (attaches or out[-1].endswith("\u200d")
                          or (0x1F1E6 <= ord(ch) <= 0x1F1FF and len(out[-1]) == 1
                              and 0x1F1E6 <= ord(out[-1]) <= 0x1F1FF))
        if joined:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def style_of(state):
    fg, bg = state.get("fg", FOREGROUND), state.get("bg")
    if state.get(7):
        fg, bg = bg or BACKGROUND, fg
    css = ["color:" + fg]
    if bg:
        css.append("background:" + bg)
    if state.get(1):
        css.append("font-weight:bold")
    if state.get(2):
        css.append("opacity:.55")
    if state.get(3):
        css.append("font-style:italic")
    if state.get(4):
        css.append("text-decoration:underline")
    return ";".join(css)


def line_html(line):
    state, parts, pos = {}, [], 0
    for m in list(SGR.finditer(line)) + [None]:
        end = m.start() if m else len(line)
        text = line[pos:end]
        if text:
            style = style_of(state)
            for cluster in clusters(text):
                if any(unicodedata.category(c) == "Cc" for c in cluster):
                    cluster = "\ufffd"
                width = cell_width(cluster)
                parts.append('<span class="c w%d" style="%s">%s</span>'
                             % (width, style, html.escape(cluster)))
        if m:
            apply(state, m.group(1))
            pos = m.end()
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--title", default="bubbles render")
    args = parser.parse_args()
    lines = sys.stdin.read().rstrip("\n").split("\n")
    width = max((sum(cell_width(c) for c in clusters(SGR.sub("", l))) for l in lines), default=0)
    body = "\n".join('<div class="l">%s</div>' % line_html(l) for l in lines)
    print("""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title><style>
body { margin: 0; background: #0f1115; padding: 18px; display: inline-block; }
.win { background: %s; border-radius: 10px; box-shadow: 0 6px 24px #0008; overflow: hidden; }
.bar { background: #2c313a; height: 30px; display: flex; align-items: center; padding: 0 12px;
       font: 13px 'Noto Sans', sans-serif; color: #9da5b4; }
.dot { width: 12px; height: 12px; border-radius: 50%%; margin-right: 8px; }
.title { margin-left: 10px; }
.screen { padding: 12px 16px; font: 14px/17px 'DejaVu Sans Mono', 'Noto Sans Mono CJK JP', 'Noto Color Emoji', monospace; width: %dch; }
.l { height: 17px; white-space: pre; direction: ltr; unicode-bidi: bidi-override; }
.c { display: inline-block; text-align: center; overflow: visible; vertical-align: top; unicode-bidi: bidi-override; }
.w1 { width: 1ch; } .w2 { width: 2ch; }
</style></head><body><div class="win"><div class="bar">
<span class="dot" style="background:#e06c75"></span><span class="dot" style="background:#e5c07b"></span>
<span class="dot" style="background:#98c379"></span><span class="title">%s</span></div>
<div class="screen">
%s
</div></div></body></html>""" % (html.escape(args.title), BACKGROUND, width, html.escape(args.title), body))


if __name__ == "__main__":
    main()
