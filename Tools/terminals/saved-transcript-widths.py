#!/usr/bin/env python3
"""How many lines of a saved transcript are wider than the width asked for, by the reference
measures nobody here wrote: Python's `wcwidth` package (jquast, PyPI) `width()`, the grapheme-aware
measure ucs-detect's terminal survey is built on (close to what Ghostty 1.3 draws). Terminals that
count per code point (xterm, VTE, tmux) are measured by tmux itself in the tests
(SavedTranscriptWidthTests); Python's per-code-point `wcwidth()` gives spacing marks 0 cells, which
those terminals do not, so it is not used. For each cell-width profile, and for the default (no
--cell-widths: output that is not a terminal), the transcript is made by `bubbles render`:

    python3 -m venv /tmp/wcwidth-venv && /tmp/wcwidth-venv/bin/pip install wcwidth
    /tmp/wcwidth-venv/bin/python Tools/terminals/saved-transcript-widths.py \
        .build/debug/bubbles Corpora/logs/indic-spacing-marks.jsonl 40 80

Prints one line per profile and width: lines, lines over by width(), the widest. Nothing here
computes a width of its own.
"""
import subprocess
import sys

import wcwidth


def main():
    binary, log, *widths = sys.argv[1:]
    print(f"# wcwidth {wcwidth.__version__}; {log}")
    for profile in [None, "unicode", "wcwidth", "ghostty"]:
        for width in map(int, widths):
            command = [binary, "render", log, "--width", str(width), "--color", "never", "--tz", "UTC"]
            if profile:
                command += ["--cell-widths", profile]
            out = subprocess.run(command, capture_output=True, text=True, check=False).stdout
            lines = out.split("\n")[:-1]
            over = [w for w in map(wcwidth.width, lines) if w > width]
            print(f"{profile or 'default'}\t{width}\t{len(lines)} lines\twidth() over: {len(over)} (widest {max(over, default=0)})")


if __name__ == "__main__":
    main()
