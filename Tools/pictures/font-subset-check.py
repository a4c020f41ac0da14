#!/usr/bin/env python3
"""Checks the fonts `bubbles render --embed-fonts` embeds with fontTools, and compares a picture
drawn with them against the same picture drawn with the whole fonts in headless Chromium.

    Tools/pictures/font-subset-check.py [--bubbles PATH] [--chromium PATH] [--out FILE]

For each bundled font and each document (the sample logs and the sweep texts, SVG and HTML):
- every embedded subset opens with fontTools and every table decompiles (`ttx -l` lists it, and
  each table is read through `fontTools.ttLib`); the glyph count is the original face's (glyph ids
  are kept); the cmap maps exactly the document's drawn code points the original face covers, each
  to the original's glyph, with the original's advance;
- the glyphs that keep an outline (or bitmap) include every glyph fontTools' own subsetter keeps
  for the same code points with all layout features and kept glyph ids (`--retain-gids
  --layout-features=*`): ours may keep more (every GSUB lookup is followed, whatever its context),
  never fewer;
- the SVG rendered with the subsets and the SVG rendered with the whole fonts (the previous
  embedding, rebuilt here from the same document) give the same screenshot, pixel for pixel.

Results (sizes, glyph counts, differences) go to Tools/pictures/results/font-subsets.json.
Exit code 1 when a check fails.
"""
import argparse, base64, io, json, os, re, subprocess, sys, tempfile

from fontTools import subset as ftsubset
from fontTools.ttLib import TTFont, TTCollection

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FONTS = ["NotoSans-Subset.ttf", "NotoSansCJK-Subset.ttc", "NotoSansArabic-Subset.ttf", "NotoSansHebrew-Subset.ttf",
         "NotoSansThai-Subset.ttf", "NotoSansDevanagari-Subset.ttf", "NotoColorEmoji-Subset.ttf"]
FACE_RULE = re.compile(r'@font-face\{font-family:"bubbles-(\d+)";src:url\("data:font/[a-z]+;base64,([A-Za-z0-9+/=]*)"\)\}')


def drawn_codepoints(document):
    """Code points in the text of our markup (outside tags, our five entities decoded)."""
    body = document[document.index("</style>"):]
    text = re.sub(r"<[^>]*>", "", body)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&#39;", "'").replace("&amp;", "&")
    return {ord(c) for c in text if ord(c) >= 0x20}


def open_face(path, face=0):
    if path.endswith(".ttc"):
        return TTCollection(path).fonts[face]
    return TTFont(path)


def glyphs_with_data(font):
    order = font.getGlyphOrder()
    if "glyf" in font:
        glyf = font["glyf"]
        return {i for i, name in enumerate(order) if glyf[name].numberOfContours != 0}
    if "CFF " in font:
        cff = font["CFF "].cff
        strings = cff[cff.fontNames[0]].CharStrings
        return {i for i, name in enumerate(order) if strings.charStringsIndex[strings.charStrings[name]].bytecode != b"\x0e"}
    if "CBLC" in font:
        kept = set()
        for strike in font["CBLC"].strikes:
            for sub in strike.indexSubTables:
                for name, (start, end) in zip(sub.names, sub.locations):
                    if end > start:
                        kept.add(font.getGlyphID(name))
        return kept | {0}
    return set(range(len(order)))


def fonttools_closure(path, codepoints):
    """The glyph ids fontTools' subsetter keeps for `codepoints` with every feature, ids kept."""
    options = ftsubset.Options()
    options.layout_features = ["*"]
    options.retain_gids = True
    options.notdef_outline = True
    options.name_IDs = ["*"]
    font = open_face(path)
    order = font.getGlyphOrder()
    subsetter = ftsubset.Subsetter(options)
    subsetter.populate(unicodes=codepoints)
    subsetter.subset(font)
    return {order.index(name) for name in subsetter.glyphs_retained if name in order}


def check_subset(data, path, codepoints):
    problems = []
    sub = TTFont(io.BytesIO(data), lazy=False)
    for tag in sub.keys():
        if tag != "GlyphOrder":
            sub[tag]  # decompiles the table; raises on a damaged one
    whole = open_face(path)
    if len(sub.getGlyphOrder()) != len(whole.getGlyphOrder()):
        problems.append("glyph count %d, the font has %d" % (len(sub.getGlyphOrder()), len(whole.getGlyphOrder())))
    want = {cp: whole.getBestCmap()[cp] for cp in codepoints if cp in whole.getBestCmap()}
    want = {cp: g for cp, g in want.items() if whole.getGlyphID(g) != 0}
    have = sub.getBestCmap() or {}
    if set(have) != set(want):
        problems.append("cmap maps %s, wanted %s" % (sorted(set(have) - set(want))[:10], sorted(set(want) - set(have))[:10]))
    for cp, name in want.items():
        if cp in have and sub.getGlyphID(have[cp]) != whole.getGlyphID(name):
            problems.append("U+%04X maps to glyph %d, the font's is %d" % (cp, sub.getGlyphID(have[cp]), whole.getGlyphID(name)))
        elif cp in have and sub["hmtx"][have[cp]][0] != whole["hmtx"][name][0]:
            problems.append("U+%04X advance %d, the font's %d" % (cp, sub["hmtx"][have[cp]][0], whole["hmtx"][name][0]))
    ours = glyphs_with_data(sub)
    theirs = fonttools_closure(path, set(want)) & glyphs_with_data(whole)
    missing = sorted(theirs - ours)
    if missing:
        problems.append("glyphs fontTools keeps and we drop: %s" % missing[:20])
    return problems, {"bytes": len(data), "glyphs": len(sub.getGlyphOrder()), "kept": len(ours), "fonttools kept": len(theirs),
                      "code points": len(want)}


def screenshot(chromium, svg, directory, name):
    width, height = re.search(r'<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"', svg).groups()
    page = os.path.join(directory, name + ".svg")
    with open(page, "w", encoding="utf-8") as f:
        f.write(svg)
    shot = os.path.join(directory, name + ".png")
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=%d,%d" % (int(float(width) + 0.999), int(float(height) + 0.999)),
                    "--virtual-time-budget=10000", "--screenshot=" + shot, "file://" + page],
                   capture_output=True)
    with open(shot, "rb") as f:
        return f.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bubbles", default=os.path.join(ROOT, ".build/debug/bubbles"))
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--out", default=os.path.join(ROOT, "Tools/pictures/results/font-subsets.json"))
    args = parser.parse_args()
    paths = [os.path.join(ROOT, "Corpora/fonts", f) for f in FONTS]
    fonts = [a for p in paths for a in ("--font", p)]
    sys.path.insert(0, os.path.dirname(__file__))
    import importlib
    browser_check = importlib.import_module("browser-check")
    failures, cases = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        sweep, _ = browser_check.sweep_log(tmp)
        for log in [os.path.join(ROOT, "Corpora/logs/sample.jsonl"), os.path.join(ROOT, "Corpora/logs/conversations.jsonl"), sweep]:
            name = os.path.relpath(log, ROOT) if log != sweep else "sweep-texts"
            for fmt in ("svg", "html"):
                document = subprocess.run([args.bubbles, "render", log, "--format", fmt, "--width", "375", "--embed-fonts"] + fonts,
                                          capture_output=True, text=True, check=True).stdout
                codepoints = drawn_codepoints(document) | ({0x2026} if fmt == "html" else set())
                case = {"log": name, "format": fmt, "fonts": {}, "problems": []}
                whole_size = subset_size = 0
                for match in FACE_RULE.finditer(document):
                    index, data = int(match.group(1)), base64.b64decode(match.group(2))
                    problems, facts = check_subset(data, paths[index], codepoints)
                    facts["whole bytes"] = os.path.getsize(paths[index])
                    whole_size += facts["whole bytes"]
                    subset_size += facts["bytes"]
                    case["fonts"][FONTS[index]] = facts
                    case["problems"] += ["%s: %s" % (FONTS[index], p) for p in problems]
                if len(case["fonts"]) != len(FONTS):
                    case["problems"].append("%d embedded fonts, %d given" % (len(case["fonts"]), len(FONTS)))
                if fmt == "svg":
                    # The same document with the whole fonts embedded instead of the subsets.
                    def whole(match):
                        index = int(match.group(1))
                        with open(paths[index], "rb") as f:
                            data = f.read()
                        if paths[index].endswith(".ttc"):
                            out = io.BytesIO()
                            open_face(paths[index]).save(out)
                            data = out.getvalue()
                        return '@font-face{font-family:"bubbles-%d";src:url("data:font/ttf;base64,%s")}' % (
                            index, base64.b64encode(data).decode())
                    same = screenshot(args.chromium, document, tmp, "subset") == screenshot(args.chromium, FACE_RULE.sub(whole, document), tmp, "whole")
                    case["same screenshot"] = same
                    if not same:
                        case["problems"].append("the screenshot with the subsets differs from the one with the whole fonts")
                case["subset bytes"], case["whole bytes"] = subset_size, whole_size
                failures += len(case["problems"])
                print("%-28s %-4s %8d bytes of fonts (whole %8d), %d problems" % (name, fmt, subset_size, whole_size, len(case["problems"])))
                for p in case["problems"]:
                    print("   ", p)
                cases.append(case)
    version = subprocess.run([args.chromium, "--version"], capture_output=True, text=True).stdout.strip()
    import fontTools
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"chromium": version, "fonttools": fontTools.version, "cases": cases}, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    print("%d problems; results in %s" % (failures, os.path.relpath(args.out, ROOT)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
