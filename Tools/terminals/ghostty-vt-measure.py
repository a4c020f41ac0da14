#!/usr/bin/env python3
"""Measures how Ghostty's own terminal core sizes graphemes, headless: each grapheme of a corpus
file (CODE POINTS in hex, first field of each line, as Tools/terminals/wcwidth-fixture.py writes)
is written after a line's first cell (`|`, so Ghostty's clustering applies to every code point
of it) with grapheme clustering (mode 2027) on, and the columns the cursor advanced are read.
The terminal is libghostty-vt (Ghostty's terminal emulation library) as the `pyghostty` package
on PyPI ships it:

    python3 -m venv /tmp/ghostty-venv && /tmp/ghostty-venv/bin/pip install pyghostty
    /tmp/ghostty-venv/bin/python Tools/terminals/ghostty-vt-measure.py CORPUS.tsv \
        > Tools/terminals/results/libghostty-vt-pyghostty-VERSION.tsv

Lines: CODE POINTS <TAB> COLUMNS <TAB> NAME (the corpus line's last field). Nothing here
computes a width: the columns are the cursor's.

With `--clusters`, it measures instead the test clusters of Tools/terminals/cluster-widths.sh
(read from that script) at the start of a line, as measure.sh does in real terminals, and
writes that script's format: the DECRQM reply for mode 2027 as the library starts, then each
cluster with the mode as it starts ("initial") and set ("2027-set"). The Ghostty application
sets the mode itself from its `grapheme-width-method` setting (`unicode`, its default, sets it).
"""
import importlib.metadata
import sys

from pyghostty.core import Terminal

corpus = sys.argv[1]
version = importlib.metadata.version("pyghostty")
if corpus == "--clusters":
    import os
    import re
    script = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cluster-widths.sh"), encoding="utf-8").read()
    cases = re.findall(r'^  "([a-z0-9-]+):([0-9A-F ]+)"$', script, re.M)
    terminal = Terminal(cols=200, rows=5)
    replies = []
    terminal.on_reply(replies.append)
    terminal.feed("\x1b[?2027$p")
    print(f"# terminal: libghostty-vt (pyghostty {version})")
    print(f"# mode 2027 DECRQM reply: {b''.join(replies)!r}")
    for setting in ["initial", "2027-set"]:
        if setting == "2027-set":
            terminal.feed("\x1b[?2027h")
        for name, cps in cases:
            terminal.feed("\r\x1b[2K" + "".join(chr(int(c, 16)) for c in cps.split()))
            print(setting, name, cps, terminal.cursor[0], sep="\t")
    sys.exit(0)
terminal = Terminal(cols=200, rows=5)
terminal.feed("\x1b[?2027h")
if not terminal.mode(2027):
    sys.exit("libghostty-vt did not turn mode 2027 on")
print(f"# libghostty-vt from pyghostty {version} (PyPI), mode 2027 on: columns advanced after '|'")
for line in open(corpus, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    fields = line.rstrip("\n").split("\t")
    text = "".join(chr(int(c, 16)) for c in fields[0].split())
    terminal.feed("\r\x1b[2K|")
    start = terminal.cursor[0]
    terminal.feed(text)
    print(fields[0], terminal.cursor[0] - start, fields[-1], sep="\t")
