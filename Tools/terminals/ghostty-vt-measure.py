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

With `--probe BUBBLES INPUT [ARGUMENTS...]`, libghostty-vt is the terminal of a real run of
`BUBBLES render INPUT --width 40 --color never [ARGUMENTS...]` on a pseudo-terminal, with mode
2027 reset as the library starts, which is how Ghostty with `grapheme-width-method = legacy`
starts: every byte the program writes is fed to the library, and every reply the library makes
(cursor reports, DECRQM, device attributes) is written back at once. Lines:
  sent <TAB> HEX     bytes the program wrote, up to a reply
  reply <TAB> HEX    the library's reply to them
  line <TAB> COLUMN <TAB> TEXT   each output line: the cursor's column (0-based) after its last
                     byte, with mode 2027 as it then was, and its text without escapes
  mode-2027 <TAB> set|reset <TAB> WHEN   the mode while the first line was drawn, and at exit
"""
import importlib.metadata
import sys

from pyghostty.core import Terminal

corpus = sys.argv[1]
version = importlib.metadata.version("pyghostty")
if corpus == "--probe":
    import fcntl
    import os
    import pty
    import re
    import select
    import struct
    import termios
    program, source, extra = sys.argv[2], sys.argv[3], sys.argv[4:]
    columns, rows = 100, 40
    terminal = Terminal(cols=columns, rows=rows)
    pid, master = pty.fork()
    if pid == 0:
        environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "BUBBLES_PROBE_TIMEOUT_MS")}
        environment.update(TERM="xterm-ghostty", LC_ALL="C.UTF-8", TZ="UTC")
        os.execve(program, [program, "render", source, "--width", "40", "--color", "never"] + extra, environment)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    replies = []
    terminal.on_reply(replies.append)
    print(f"# terminal: libghostty-vt (pyghostty {version}), {columns}x{rows}, mode 2027 as the library starts"
          f" (reset, as Ghostty with grapheme-width-method = legacy)")
    print("# program: bubbles render " + " ".join([os.path.basename(source), "--width 40 --color never"] + extra))
    sent = bytearray()
    line = bytearray()
    column = None
    drawing_mode = None
    while True:
        ready, _, _ = select.select([master], [], [], 10)
        if not ready:
            sys.exit("the program wrote nothing for 10 s")
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the program ended and closed the terminal
            break
        if not chunk:
            break
        for byte in chunk:
            # A line ends at "\n" (the terminal's "\r\n"): its column is the cursor's before the
            # "\r". A "\r" not before "\n" (the probe's) starts the line afresh.
            if byte == 0x0A:
                text = re.sub(rb"\x1b\[[0-?]*[ -/]*[@-~]", b"", bytes(line)).decode("utf-8", "replace")
                if text:
                    if drawing_mode is None:
                        drawing_mode = terminal.mode(2027)
                    print("line", terminal.cursor[0] if column is None else column, text, sep="\t")
                line.clear()
                column = None
            elif byte == 0x0D:
                column = terminal.cursor[0]
            else:
                if column is not None:
                    line.clear()
                    column = None
                line.append(byte)
            terminal.feed(bytes([byte]))
            sent.append(byte)
            if replies:
                print("sent", sent.hex(), sep="\t")
                sent.clear()
                for reply in replies:
                    print("reply", bytes(reply).hex(), sep="\t")
                    os.write(master, bytes(reply))
                replies.clear()
    if sent:
        print("sent", sent.hex(), sep="\t")
    os.waitpid(pid, 0)
    print("mode-2027", "set" if drawing_mode else "reset", "drawing", sep="\t")
    print("mode-2027", "set" if terminal.mode(2027) else "reset", "exit", sep="\t")
    sys.exit(0)
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
