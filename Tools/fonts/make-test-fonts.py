#!/usr/bin/env python3
"""Makes the small test fonts in Corpora/fonts from Debian's font packages.

Subsets keep every metric a measurer reads (hmtx, hhea, OS/2, cmap incl. format 14, GPOS, GSUB,
kern, CBDT/CBLC), so tests run on machines without the font packages. Run it again after changing
the character sets below; it needs fonttools (pip) and fonts-noto-core (Noto Sans, Hebrew, Thai, Arabic, Devanagari, Nastaliq Urdu, Lao, Khmer, Myanmar), fonts-noto-cjk,
fonts-noto-color-emoji and fonts-dejavu-core (apt-get).
"""
import os
import sys

from fontTools import subset
from fontTools.ttLib import TTFont, TTCollection

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "..", "Corpora", "fonts"))


def ranges(*spans):
    cps = set()
    for first, last in spans:
        cps.update(range(first, last + 1))
    return cps


LATIN = ranges((0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2027), (0x2030, 0x203A), (0x20AC, 0x20AC))
GREEK_CYRILLIC = ranges((0x370, 0x3FF), (0x400, 0x45F))
HEBREW = ranges((0x5D0, 0x5EA), (0x5B0, 0x5C7))
CJK_TEXT = "今日は良い天気ですね。「こんにちは」、ありがとう！中文测试你好世界，我们明天见？東京大阪京都漢字日本語"
KANA = ranges((0x3000, 0x303F), (0x3041, 0x3096), (0x30A1, 0x30FA), (0xFF01, 0xFF5E))
HANGUL_TEXT = "안녕하세요 오늘 날씨가 좋네요 감사합니다 한국어"
EMOJI = ["😀", "👋", "👋🏽", "❤️", "☀️", "👨‍👩‍👧", "🇯🇵", "🇩🇪", "1️⃣", "✈️", "🎉", "🙏", "👍", "🫠", "🏳️‍🌈"]


def sweep_text():
    """Every character of the Chromium sweep's texts, so the subsets cover what the sweep draws."""
    path = os.path.join(OUT, "sweep-texts.tsv")
    with open(path, encoding="utf-8") as lines:
        return "".join(line.rstrip("\n").split("\t", 2)[2] for line in lines if not line.startswith("#"))


def subset_font(source, target, unicodes, font_number=0, text=""):
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.hinting = False
    options.notdef_outline = True
    options.font_number = font_number
    font = subset.load_font(source, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes, text=text + sweep_text())
    subsetter.subset(font)
    return font


def main():
    os.makedirs(OUT, exist_ok=True)
    noto = "/usr/share/fonts/truetype/noto/"
    subset_font(noto + "NotoSans-Regular.ttf", None, LATIN | GREEK_CYRILLIC).save(os.path.join(OUT, "NotoSans-Subset.ttf"))
    subset_font(noto + "NotoSansHebrew-Regular.ttf", None, HEBREW | ranges((0x20, 0x7E))).save(os.path.join(OUT, "NotoSansHebrew-Subset.ttf"))
    # Scripts that need shaping (measured and reported, approximate): the sweep's texts only, plus
    # ASCII, with every GSUB/GPOS lookup the subsetter keeps for them.
    for source, target in (("NotoSansThai-Regular.ttf", "NotoSansThai-Subset.ttf"),
                           ("NotoSansArabic-Regular.ttf", "NotoSansArabic-Subset.ttf"),
                           ("NotoNastaliqUrdu-Regular.ttf", "NotoNastaliqUrdu-Subset.ttf"),
                           ("NotoSansDevanagari-Regular.ttf", "NotoSansDevanagari-Subset.ttf"),
                           ("NotoSansLao-Regular.ttf", "NotoSansLao-Subset.ttf"),
                           ("NotoSansKhmer-Regular.ttf", "NotoSansKhmer-Subset.ttf"),
                           ("NotoSansMyanmar-Regular.ttf", "NotoSansMyanmar-Subset.ttf")):
        # Thai SARA AM is shaped as NIKHAHIT + SARA AA (HarfBuzz's Thai shaper decomposes it), a
        # glyph the subsetter's closure does not know to keep.
        extra = {0x0E4D} if "Thai" in source else set()
        subset_font(noto + source, None, ranges((0x20, 0x7E)) | extra).save(os.path.join(OUT, target))
    subset_font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", None, LATIN | GREEK_CYRILLIC | HEBREW).save(os.path.join(OUT, "DejaVuSans-Subset.ttf"))
    emoji_text = "".join(EMOJI)
    subset_font(noto + "NotoColorEmoji.ttf", None, set(), text=emoji_text).save(os.path.join(OUT, "NotoColorEmoji-Subset.ttf"))
    # A two-face collection (CFF outlines): Noto Sans CJK JP (face 0) and KR (face 1) subsets.
    cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    collection = TTCollection()
    for face in (0, 1):
        collection.fonts.append(subset_font(cjk, None, KANA | ranges((0x20, 0x7E)), font_number=face,
                                            text=CJK_TEXT + HANGUL_TEXT))
    collection.save(os.path.join(OUT, "NotoSansCJK-Subset.ttc"))
    # A font with only the old `kern` table (no GPOS): Noto Sans with three known pairs, written by
    # fontTools, so the reader's kern path is checked against an independent writer.
    from fontTools.ttLib import newTable
    from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0
    legacy = TTFont(os.path.join(OUT, "NotoSans-Subset.ttf"))
    del legacy["GPOS"]
    kern = newTable("kern")
    kern.version = 0
    table = KernTable_format_0()
    table.version, table.coverage, table.format = 0, 1, 0
    table.kernTable = {("A", "V"): -80, ("V", "A"): -75, ("T", "o"): -60}
    kern.kernTables = [table]
    legacy["kern"] = kern
    legacy.save(os.path.join(OUT, "NotoSans-KernTable.ttf"))
    for name in sorted(os.listdir(OUT)):
        if not name.endswith((".ttf", ".ttc")):
            continue
        print(name, os.path.getsize(os.path.join(OUT, name)))


if __name__ == "__main__":
    sys.exit(main())
