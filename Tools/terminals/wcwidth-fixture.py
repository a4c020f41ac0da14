#!/usr/bin/env python3
"""Writes the widths Python's `wcwidth` package (jquast; PyPI) gives a corpus of graphemes, as
Ghostty draws them (`term_program='ghostty'`, which wcwidth says matches Ghostty's master in
ucs-detect's language tests) and by its default rules, one grapheme a line:

    python3 -m venv /tmp/wcwidth-venv && /tmp/wcwidth-venv/bin/pip install wcwidth
    /tmp/wcwidth-venv/bin/python Tools/terminals/wcwidth-fixture.py /usr/share/unicode \
        > Tools/terminals/results/python-wcwidth-VERSION.tsv

The corpus is made from the UCD given (Unicode 15.0): every letter of Devanagari, Bengali,
Tamil, Gujarati, Telugu, Malayalam and Thai alone and with each mark of its script,
consonant + virama + consonant conjuncts with and without a vowel sign, Hangul jamo sequences,
every sequence of emoji-test.txt (fully qualified and not), every emoji variation sequence
(VS15, VS16), keycaps with and without VS16, skin-tone modifiers after bases and after other
characters, and prepended concatenation marks. Lines: CODE POINTS (hex) <TAB> GHOSTTY <TAB>
DEFAULT <TAB> NAME. The widths are wcwidth's, nothing here computes one.
"""
import sys

import wcwidth

ucd = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"


def ranges(path):
    for line in open(f"{ucd}/{path}", encoding="utf-8"):
        line = line.split("#")[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(";")]
        low, _, high = fields[0].partition("..")
        yield int(low, 16), int(high or low, 16), fields[1:]


category = {}
for low, high, fields in ranges("extracted/DerivedGeneralCategory.txt"):
    for cp in range(low, high + 1):
        category[cp] = fields[0]
script = {}
for low, high, fields in ranges("Scripts.txt"):
    for cp in range(low, high + 1):
        script[cp] = fields[0]
syllabic = {}
for low, high, fields in ranges("IndicSyllabicCategory.txt"):
    for cp in range(low, high + 1):
        syllabic[cp] = fields[0]

rows = []


def add(name, cps):
    rows.append((name, cps))


for name in ["Devanagari", "Bengali", "Tamil", "Gujarati", "Telugu", "Malayalam", "Thai"]:
    cps = sorted(cp for cp, s in script.items() if s == name)
    letters = [cp for cp in cps if category.get(cp) == "Lo"]
    marks = [cp for cp in cps if category.get(cp) in ("Mn", "Mc")]
    consonants = [cp for cp in letters if syllabic.get(cp) == "Consonant"]
    viramas = [cp for cp in marks if syllabic.get(cp) in ("Virama", "Pure_Killer", "Invisible_Stacker")]
    vowel_signs = [cp for cp in marks if syllabic.get(cp) == "Vowel_Dependent"]
    # Every letter alone, and every mark on a fifth of the letters (a different fifth per mark).
    for letter in letters:
        add(f"{name} letter", [letter])
    for j, mark in enumerate(marks):
        for letter in letters[j % 5::5]:
            add(f"{name} letter + mark", [letter, mark])
    # Conjuncts: each consonant with a few others, and with a vowel sign after.
    for i, first in enumerate(consonants):
        for second in consonants[i % 17::17]:
            for virama in viramas:
                add(f"{name} conjunct", [first, virama, second])
                add(f"{name} conjunct + ZWJ", [first, virama, 0x200D, second])
                for sign in vowel_signs[i % 7::7]:
                    add(f"{name} conjunct + vowel sign", [first, virama, second, sign])
                    add(f"{name} three-consonant conjunct + vowel sign",
                        [first, virama, second, virama, consonants[(i * 5) % len(consonants)], sign])

# Hangul: leading, vowel and trailing jamo in sequences, and syllables.
leading = [cp for cp in range(0x1100, 0x1160, 9)]
vowels = [cp for cp in range(0x1161, 0x11A8, 7)]
trailing = [cp for cp in range(0x11A8, 0x1200, 11)]
for l in leading:
    add("Hangul L", [l])
    add("Hangul L L", [l, l])
    add("Hangul L x6", [l] * 6)
    for v in vowels:
        add("Hangul L V", [l, v])
        for t in trailing[l % 3::3]:
            add("Hangul L V T", [l, v, t])
for v in vowels:
    add("Hangul V alone", [v])
for cp in range(0xAC00, 0xD7A4, 397):
    add("Hangul syllable", [cp])
    for t in trailing:
        add("Hangul syllable + T", [cp, t])

# Emoji: every sequence of emoji-test.txt.
for line in open(f"{ucd}/emoji/emoji-test.txt", encoding="utf-8"):
    data, _, comment = line.partition("#")
    if ";" not in data:
        continue
    cps = [int(c, 16) for c in data.split(";")[0].split()]
    status = data.split(";")[1].strip()
    add(f"emoji {status}", cps)
    if 0xFE0F in cps:
        add(f"emoji {status} without VS16", [c for c in cps if c != 0xFE0F])

# Variation sequences: both styles of each base, and the base alone.
for line in open(f"{ucd}/emoji/emoji-variation-sequences.txt", encoding="utf-8"):
    data = line.split("#")[0]
    if ";" not in data:
        continue
    base, selector = [int(c, 16) for c in data.split(";")[0].split()]
    add("variation sequence", [base, selector])
    if selector == 0xFE0E:
        add("variation base alone", [base])

# Keycaps, modifiers in odd places, flags, prepended marks.
for base in [0x23, 0x2A] + list(range(0x30, 0x3A)):
    add("keycap without VS16", [base, 0x20E3])
    add("keycap with VS15", [base, 0xFE0E, 0x20E3])
for modifier in range(0x1F3FB, 0x1F400):
    add("modifier alone", [modifier])
    for base in [0x61, 0x1F680, 0x270C, 0x261D, 0x1F44D, 0x0915, 0x4E00]:
        add("modifier after", [base, modifier])
for first in range(0x1F1E6, 0x1F200, 5):
    add("regional indicator alone", [first])
    for second in range(0x1F1E6, 0x1F200, 3):
        add("regional indicator pair", [first, second])
for mark in [0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x8E2, 0x110BD]:
    for after in [0x62, 0x628, 0x661, 0x4E00]:
        add("prepended mark", [mark, after])

print(f"# python wcwidth {wcwidth.__version__} (PyPI): width(term_program='ghostty') and width()")
seen = set()
for name, cps in rows:
    key = tuple(cps)
    if key in seen:
        continue
    seen.add(key)
    text = "".join(map(chr, cps))
    ghostty = wcwidth.width(text, term_program="ghostty")
    default = wcwidth.width(text)
    print(" ".join(f"{c:X}" for c in cps), ghostty, default, name, sep="\t")
