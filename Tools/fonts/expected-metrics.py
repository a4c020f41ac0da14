#!/usr/bin/env python3
"""Writes Corpora/fonts/expected-metrics.json: what independent readers say of the test fonts.

fontTools reads cmap (formats 4, 12, 14), hmtx, hhea, OS/2 and CBDT/CBLC; HarfBuzz (uharfbuzz)
shapes every letter pair with only the `kern` feature on, which gives the pair adjustment GPOS (or
the old kern table) applies. The Swift tests compare our reader with this file, so they need
neither Python nor the font packages. Needs: pip install fonttools uharfbuzz.
"""
import json
import os
import random

import uharfbuzz as hb
from fontTools.ttLib import TTFont

HERE = os.path.dirname(os.path.abspath(__file__))
FONTS = os.path.normpath(os.path.join(HERE, "..", "..", "Corpora", "fonts"))
LETTERS = "AVTWYLPFokeyvwar.,'\"-АВГДЕКУаеоуΑΒΓΔΤΥαβγοτ"


def line_metrics(font):
    os2 = font["OS/2"] if "OS/2" in font else None
    if os2 is not None and os2.fsSelection & (1 << 7):
        return os2.sTypoAscender, -os2.sTypoDescender, os2.sTypoLineGap
    hhea = font["hhea"]
    return hhea.ascent, -hhea.descent, hhea.lineGap


def kern_pairs(path, index, font, script):
    blob = hb.Blob.from_file_path(path)
    face = hb.Face(blob, index)
    hb_font = hb.Font(face)
    cmap = font.getBestCmap()
    pairs = []
    text = [c for c in LETTERS if ord(c) in cmap]
    for left in text:
        for right in text:
            buf = hb.Buffer()
            buf.add_str(left + right)
            buf.guess_segment_properties()
            buf.script = script
            hb.shape(hb_font, buf, {"kern": True, "liga": False, "clig": False, "calt": False, "mark": False,
                                    "mkmk": False, "dist": False, "ccmp": False, "locl": False, "rlig": False})
            total = sum(p.x_advance for p in buf.glyph_positions)
            plain = sum(hb_font.get_glyph_h_advance(i.codepoint) for i in buf.glyph_infos)
            if total != plain:
                pairs.append([ord(left), ord(right), total - plain])
    return pairs


SHAPED = {
    "DejaVuSans-Subset.ttf": [("traffic office fl ffl", "Latn", None)],
    "NotoSans-Subset.ttf": [("traffic office fi", "Latn", None)],
    "NotoSansCJK-Subset.ttc": [("한국어 테스트 문장", "Hang", "ko"), ("今日は 良い", "Hani", "ja")],
}


def shaped(path, index, name):
    """Glyphs HarfBuzz gives with only the substitution features we apply (no kerning, no calt)."""
    blob = hb.Blob.from_file_path(path)
    hb_font = hb.Font(hb.Face(blob, index))
    out = []
    for text, script, language in SHAPED.get(name, []):
        buf = hb.Buffer()
        buf.add_str(text)
        buf.guess_segment_properties()
        buf.script = script
        if language:
            buf.language = language
        features = {tag: True for tag in ("ccmp", "locl", "rlig", "liga", "clig")}
        features.update({tag: False for tag in ("kern", "calt", "mark", "mkmk", "dist", "palt", "vert")})
        hb.shape(hb_font, buf, features)
        ot_script = {"Latn": "latn", "Hang": "hang", "Hani": "hani"}[script]
        ot_language = {"ko": "KOR ", "ja": "JAN "}.get(language)
        out.append({"text": text, "script": ot_script, "language": ot_language,
                    "glyphs": [i.codepoint for i in buf.glyph_infos], "clusters": [i.cluster for i in buf.glyph_infos]})
    return out


def describe(name, index=0):
    path = os.path.join(FONTS, name)
    font = TTFont(path, fontNumber=index)
    rng = random.Random(2024)
    cmap = font.getBestCmap()
    order = font.getGlyphOrder()
    ids = {g: i for i, g in enumerate(order)}
    covered = sorted(cmap)
    samples = rng.sample(covered, min(60, len(covered))) + [0x10FFFF, 0xE000, 0x0378]
    hmtx = font["hmtx"].metrics
    ascent, descent, gap = line_metrics(font)
    entry = {
        "file": name, "face": index, "unitsPerEm": font["head"].unitsPerEm, "glyphCount": len(order),
        "ascent": ascent, "descent": descent, "lineGap": gap,
        "cmap": [[cp, ids[cmap[cp]] if cp in cmap else 0] for cp in samples],
        "advances": [[g, hmtx[order[g]][0]] for g in sorted(rng.sample(range(len(order)), min(40, len(order))))],
    }
    sequences = []
    for table in font["cmap"].tables:
        if table.format == 14:
            for selector, mappings in sorted(table.uvsDict.items()):
                for cp, glyph in mappings[:20]:
                    sequences.append([cp, selector, ids[glyph] if glyph else (ids[cmap[cp]] if cp in cmap else 0)])
    entry["variationSequences"] = sequences
    entry["shaped"] = shaped(path, index, name)
    if "CBLC" in font:
        strike = max(font["CBLC"].strikes, key=lambda s: s.bitmapSizeTable.ppemY)
        ppem = strike.bitmapSizeTable.ppemY
        data = font["CBDT"].strikeData[font["CBLC"].strikes.index(strike)]
        bitmaps = []
        for glyph_name, bitmap in sorted(data.items(), key=lambda kv: ids[kv[0]]):
            metrics = bitmap.metrics
            bitmaps.append([ids[glyph_name], getattr(metrics, "horiAdvance", getattr(metrics, "Advance", None))])
        entry["bitmaps"] = {"ppem": ppem, "advances": bitmaps}
    elif ("GPOS" in font or "kern" in font) and sum(ord(c) in cmap for c in LETTERS) >= 10:
        script = "Latn"
        entry["kerning"] = {"script": "latn", "pairs": kern_pairs(path, index, font, script)}
    return entry


def main():
    fonts = [describe("NotoSans-Subset.ttf"), describe("NotoSans-KernTable.ttf"), describe("DejaVuSans-Subset.ttf"),
             describe("NotoSansHebrew-Subset.ttf"), describe("NotoColorEmoji-Subset.ttf"),
             describe("NotoSansCJK-Subset.ttc", 0), describe("NotoSansCJK-Subset.ttc", 1)]
    with open(os.path.join(FONTS, "expected-metrics.json"), "w") as out:
        json.dump({"fonts": fonts}, out, separators=(",", ":"))
        out.write("\n")
    for f in fonts:
        print(f["file"], f["face"], len(f["cmap"]), len(f.get("kerning", {}).get("pairs", [])), len(f["variationSequences"]))


if __name__ == "__main__":
    main()
