#!/usr/bin/env python3
"""Writes a corpus for ghostty-vt-measure.py: every East Asian Ambiguous code point of the
committed UCD extract (Corpora/unicode/ucd/DerivedEastAsianWidth.txt, Unicode 15.0) that draws a
glyph of its own: private use, variation selectors, marks, controls and format characters left
out. Names and general categories come from Python's unicodedata.

    python3 Tools/terminals/ambiguous-corpus.py > /tmp/ambiguous.tsv
    /tmp/ghostty-venv/bin/python Tools/terminals/ghostty-vt-measure.py /tmp/ambiguous.tsv \
        > Tools/terminals/results/libghostty-vt-pyghostty-0.1.3-ambiguous.tsv
"""
import os
import unicodedata

here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "..", "..", "Corpora", "unicode", "ucd", "DerivedEastAsianWidth.txt")
for line in open(path, encoding="utf-8"):
    line = line.split("#")[0].strip()
    if not line:
        continue
    points, value = [field.strip() for field in line.split(";")]
    if value != "A":
        continue
    first, _, last = points.partition("..")
    for code in range(int(first, 16), int(last or first, 16) + 1):
        if 0xE000 <= code <= 0xF8FF or code >= 0xF0000 or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
            continue
        if unicodedata.category(chr(code)) in ("Mn", "Me", "Cc", "Cf", "Cn"):
            continue
        print(f"{code:X}\t\tEast Asian Ambiguous {unicodedata.name(chr(code), '?').lower()}")
