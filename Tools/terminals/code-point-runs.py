#!/usr/bin/env python3
"""Folds a measurement of single code points (ghostty-vt-measure.py's lines: CODE POINT <TAB>
COLUMNS <TAB> NAME) into runs: FIRST..LAST <TAB> COLUMNS for each stretch of consecutive code
points measured alike. Code points not measured (a gap in the corpus) end a run, so a run claims
only what was measured. Comment lines are kept, and one is added saying what was folded."""
import sys

runs = []
print("# folded by Tools/terminals/code-point-runs.py: FIRST..LAST <TAB> COLUMNS, consecutive code points measured alike")
for line in sys.stdin:
    if line.startswith("#"):
        sys.stdout.write(line)
        continue
    fields = line.rstrip("\n").split("\t")
    if len(fields[0].split()) != 1:
        sys.exit(f"not a single code point: {line!r}")
    code, columns = int(fields[0], 16), int(fields[1])
    if runs and runs[-1][1] == code - 1 and runs[-1][2] == columns:
        runs[-1][1] = code
    else:
        runs.append([code, code, columns])
for first, last, columns in runs:
    print(f"{first:04X}..{last:04X}\t{columns}")
