#!/usr/bin/env python3
"""Writes a corpus for ghostty-vt-measure.py: every code point the committed UCD extract
(Corpora/unicode/ucd/DerivedGeneralCategory.txt, Unicode 15.0) assigns, less controls (Cc),
surrogates (Cs) and private use (Co), one per line with its general category as its name. It is
the whole of what a message can hold that a terminal draws or joins, for a sweep of a terminal's
widths (code-point-runs.py keeps the measurement small enough to commit).

    python3 Tools/terminals/assigned-corpus.py > /tmp/assigned.tsv
    /tmp/ghostty-venv/bin/python Tools/terminals/ghostty-vt-measure.py /tmp/assigned.tsv \\
        | python3 Tools/terminals/code-point-runs.py \\
        > Tools/terminals/results/libghostty-vt-pyghostty-0.1.3-assigned.tsv
"""
import os

here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "..", "..", "Corpora", "unicode", "ucd", "DerivedGeneralCategory.txt")
categories = {}
for line in open(path, encoding="utf-8"):
    line = line.split("#")[0].strip()
    if not line:
        continue
    points, category = [field.strip() for field in line.split(";")]
    if category in ("Cn", "Cc", "Cs", "Co"):
        continue
    first, _, last = points.partition("..")
    for code in range(int(first, 16), int(last or first, 16) + 1):
        categories[code] = category
# In code point order (the file is grouped by category), so that code-point-runs.py folds
# neighbours.
for code in sorted(categories):
    print(f"{code:04X}\t\t{categories[code]}")
