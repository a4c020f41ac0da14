#!/usr/bin/env python3
"""Shapes the pixel sweep's Arabic and Urdu texts (and a few joining cases) with HarfBuzz's
hb-shape and writes what it did to Corpora/fonts/harfbuzz-arabic.json: per text, the glyphs in
logical order with their clusters (scalar indices) and advances in font units (positioning
included, marks zeroed). ArabicShaperTests compares the Arabic shaper with it glyph by glyph.
The sweep's Khmer and Myanmar texts (and a few syllable cases) go the same way to
harfbuzz-khmer.json and harfbuzz-myanmar.json, in HarfBuzz's output order (left to right), for
KhmerShaperTests and MyanmarShaperTests.

Needs: apt-get install libharfbuzz-bin. Run: python3 Tools/fonts/harfbuzz-shapes.py
"""
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
FONTS = os.path.normpath(os.path.join(HERE, "..", "..", "Corpora", "fonts"))
OUT = os.path.join(FONTS, "harfbuzz-arabic.json")
FONT_FOR = {"arabic": "NotoSansArabic-Subset.ttf", "urdu": "NotoNastaliqUrdu-Subset.ttf"}
# Joining around a ZWJ (Noto Sans Arabic only: in Noto Nastaliq Urdu, HarfBuzz's contextual lookups
# stop at a ZWJ, which the preparer keeps out of the glyph run) (U+200D) and a ZWNJ (U+200C), a lone letter, a mark between two letters.
EXTRA = [("arabic", "ar", "ك\u200d ب\u200dب ل\u200cا"), ("arabic", "ar", "ب بًب لا")]


def shape(font, text, lang, script="arab"):
    advances = subprocess.run(["hb-shape", "--script=" + script, "--language=" + lang, "--no-glyph-names",
                               os.path.join(FONTS, font), text], capture_output=True, text=True, check=True).stdout
    glyphs = []
    for item in advances.strip()[1:-1].split("|"):
        gid, rest = item.split("=")
        cluster, position = rest.split("@") if "@" in rest else (rest.split("+")[0], "0,0+" + rest.split("+")[1])
        if "+" in cluster:
            cluster = cluster.split("+")[0]
        advance = position.split("+")[1]
        glyphs.append([int(gid), int(cluster), int(advance)])
    if script != "arab":
        return glyphs
    return list(reversed(glyphs))  # hb-shape prints right-to-left runs in visual order


def main():
    texts = []
    with open(os.path.join(FONTS, "sweep-texts.tsv"), encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            group, lang, text = line.rstrip("\n").split("\t", 2)
            if group in FONT_FOR:
                texts.append((group, lang, text))
    version = subprocess.run(["hb-shape", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    shapes = [{"font": FONT_FOR[g], "language": lang, "text": text, "glyphs": shape(FONT_FOR[g], text, lang)}
              for g, lang, text in texts + EXTRA]
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"harfbuzz": version, "columns": ["glyph", "cluster", "advance"], "shapes": shapes}, f, ensure_ascii=False)
        f.write("\n")
    print("%s: %d texts from %s" % (OUT, len(shapes), version))
    write_syllabic(version)


# Khmer syllables: COENG RO (moved before its base, `pref`), a pre-base vowel, split vowels
# (U+17C4 = U+17C1 + its own part), two subscripts, a Robatic sign, a broken cluster, digits.
KHMER_EXTRA = ["ស្រី ក្រុម ម៉ោង សៀវភៅ", "ស្ត្រី ខ្មែរ កើត ក្បាល", "ប៉ុន្តែ ៗ ១២៣ ្ក កុំ"]
# Myanmar syllables: kinzi (moved after its base), medial RA and the vowel E (before the base),
# stacked consonants, below-base vowels and marks, a lone asat, digits.
MYANMAR_EXTRA = ["မင်္ဂလာ ကြေး ပြော သင်္ချိုင်း", "မြန်မာ ကျွန်တော် ဗုဒ္ဓ ၁၂၃", "ကို ့ ် ရှိတယ်"]
SYLLABIC = [("khmer", "km", "khmr", "NotoSansKhmer-Subset.ttf", KHMER_EXTRA, "harfbuzz-khmer.json"),
            ("myanmar", "my", "mymr", "NotoSansMyanmar-Subset.ttf", MYANMAR_EXTRA, "harfbuzz-myanmar.json")]


def write_syllabic(version):
    for group_name, lang, script, font, extra, name in SYLLABIC:
        out = os.path.join(FONTS, name)
        texts = []
        with open(os.path.join(FONTS, "sweep-texts.tsv"), encoding="utf-8") as lines:
            for line in lines:
                if line.startswith("#") or not line.strip():
                    continue
                group, _, text = line.rstrip("\n").split("\t", 2)
                if group == group_name:
                    texts.append(text)
        shapes = [{"font": font, "language": lang, "text": text, "glyphs": shape(font, text, lang, script)}
                  for text in texts + extra]
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"harfbuzz": version, "columns": ["glyph", "cluster", "advance"], "shapes": shapes}, f, ensure_ascii=False)
            f.write("\n")
        print("%s: %d texts from %s" % (out, len(shapes), version))


if __name__ == "__main__":
    main()
