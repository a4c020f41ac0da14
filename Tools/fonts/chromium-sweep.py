#!/usr/bin/env python3
"""Lays out chat texts in headless Chromium and writes what it did to Corpora/fonts/chromium-sweep.json.

The sweep is texts × widths × sizes × font chains × line heights. Fonts come only from the files in
Corpora/fonts, through @font-face: Chromium runs with a fontconfig that lists no font directory at
all, so no system font can take part, and every text is checked (with fontTools) to be covered by
its chain. For each item the page records the line count, each line's width and the block height,
in Chromium's LayoutUnits (1/64 px). The Swift tests compare the pixel measurer with this file, so
`swift test` needs no browser.

Needs: apt-get install chromium; pip install fonttools. Run: python3 Tools/fonts/chromium-sweep.py
"""
import html
import json
import os
import re
import subprocess
import sys
import tempfile

from fontTools.ttLib import TTFont

HERE = os.path.dirname(os.path.abspath(__file__))
FONTS = os.path.normpath(os.path.join(HERE, "..", "..", "Corpora", "fonts"))
OUT = os.path.join(FONTS, "chromium-sweep.json")

# A chain is an ordered font-family list, each entry a (file, face) in Corpora/fonts.
CHAINS = {
    "noto": [("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "dejavu": [("DejaVuSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "hebrew": [("NotoSansHebrew-Subset.ttf", 0), ("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "cjk-jp": [("NotoSansCJK-Subset.ttc", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "cjk-kr": [("NotoSansCJK-Subset.ttc", 1), ("NotoColorEmoji-Subset.ttf", 0)],
    "thai": [("NotoSansThai-Subset.ttf", 0), ("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "arabic": [("NotoSansArabic-Subset.ttf", 0), ("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "urdu": [("NotoNastaliqUrdu-Subset.ttf", 0), ("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "devanagari": [("NotoSansDevanagari-Subset.ttf", 0), ("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "lao": [("NotoSansLao-Subset.ttf", 0), ("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "khmer": [("NotoSansKhmer-Subset.ttf", 0), ("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
    "myanmar": [("NotoSansMyanmar-Subset.ttf", 0), ("NotoSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0)],
}
CHAINS_FOR_GROUP = {
    "latin": ["noto", "dejavu"], "cyrillic": ["noto", "dejavu"], "greek": ["noto", "dejavu"],
    "hebrew": ["hebrew"], "cjk": ["cjk-jp"], "korean": ["cjk-kr"],
    "hebrew-pointed": ["hebrew"], "cjk-trim": ["cjk-jp"], "thai": ["thai"], "arabic": ["arabic"], "urdu": ["urdu"], "devanagari": ["devanagari"],
    "emoji": ["noto", "dejavu"], "whitespace": ["noto", "dejavu"], "cjk-space": ["cjk-jp"],
    "lao": ["lao"], "khmer": ["khmer"], "myanmar": ["myanmar"],
}
WIDTHS = [40, 64, 96, 140, 180, 217, 260, 300, 330, 375, 400]
SIZES = [13, 15, 16, 17.5]
LINE_HEIGHTS = ["normal", "20px", "1.4", "23.9px"]
IGNORABLE = {0x200D, 0xFE0F, 0xFE0E} | set(range(0x1F3FB, 0x1F400)) | set(range(0xE0020, 0xE0080))


def read_texts():
    texts = []
    with open(os.path.join(FONTS, "sweep-texts.tsv"), encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            group, lang, text = line.rstrip("\n").split("\t", 2)
            # In the text column, \n and \t stand for a newline and a tab, \\ for a backslash.
            text = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)
            texts.append({"group": group, "lang": lang, "text": text})
    return texts


def face_file(workdir, name, index):
    """A single-face copy for the browser (CSS cannot pick a face of a collection)."""
    if not name.endswith(".ttc"):
        return os.path.join(FONTS, name)
    target = os.path.join(workdir, "%s-face%d.otf" % (name[:-4], index))
    if not os.path.exists(target):
        TTFont(os.path.join(FONTS, name), fontNumber=index).save(target)
    return target


def covered(text, chain_fonts):
    cmaps = [font.getBestCmap() for font in chain_fonts]
    return all(ord(c) in IGNORABLE or c in "\n\t" or any(ord(c) in cmap for cmap in cmaps) for c in text)


def page(texts, workdir):
    families = {}
    css = []
    for chain in CHAINS.values():
        for name, index in chain:
            key = "%s#%d" % (name, index)
            if key not in families:
                families[key] = "sweep%d" % len(families)
                url = "file://" + face_file(workdir, name, index)
                css.append("@font-face { font-family: %s; src: url('%s'); }" % (families[key], url))
    loaded = {}
    for key in families:
        name, index = key.rsplit("#", 1)
        loaded[key] = TTFont(face_file(workdir, name, int(index)))
    items = []
    divs = []
    natural = []
    widths = []
    for t, entry in enumerate(texts):
        for chain_name in CHAINS_FOR_GROUP[entry["group"]]:
            chain = CHAINS[chain_name]
            keys = ["%s#%d" % f for f in chain]
            if not covered(entry["text"], [loaded[k] for k in keys]):
                sys.exit("text %d (%r) is not covered by chain %s: run make-test-fonts.py" % (t, entry["text"], chain_name))
            family = ", ".join(families[k] for k in keys)
            for size in SIZES:
                # The natural (max-content) width, unwrapped: exact to the LayoutUnit.
                natural.append('<span lang="%s" style="font-family:%s;font-size:%spx">%s</span>'
                               % (entry["lang"], family, size, html.escape(entry["text"])))
                widths.append([t, chain_name, size])
                for lh in LINE_HEIGHTS:
                    for width in WIDTHS:
                        style = ("font-family:%s;font-size:%spx;line-height:%s;width:%dpx" % (family, size, lh, width))
                        divs.append('<div lang="%s" style="%s">%s</div>' % (entry["lang"], style, html.escape(entry["text"])))
                        items.append([t, chain_name, size, lh, width])
    script = """
<script>
async function measure() {
  await Promise.all([...document.fonts].map(f => f.load()));
  await document.fonts.ready;
  const out = [];
  for (const div of document.querySelectorAll('#sweep > div')) {
    const box = div.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(div);
    // Line boxes by their top edge (rect widths are whole pixels, so only the count is kept).
    const tops = new Set();
    for (const r of range.getClientRects()) {
      if (r.width === 0 && r.height === 0) continue;
      tops.add(Math.round((r.top - box.top) * 64));
    }
    out.push([tops.size, Math.round(box.height * 64)]);
  }
  const natural = [...document.querySelectorAll('#natural > span')].map(s => Math.round(s.getBoundingClientRect().width * 64));
  const fonts = [...document.fonts].map(f => [f.family, f.status]);
  document.body.innerHTML = '';
  const pre = document.createElement('pre');
  pre.id = 'result';
  pre.textContent = JSON.stringify({fonts, out, natural, userAgent: navigator.userAgent});
  document.body.appendChild(pre);
}
measure();
</script>"""
    style = ("#natural > span { display: inline-block; width: max-content; white-space: pre; margin: 0; padding: 0;"
             " font-kerning: auto; font-weight: 400; }\n"
             # Each item is laid out at the page's origin (they overlap): stacked, the lower items sat
             # hundreds of thousands of px down, where getBoundingClientRect's floats lose LayoutUnits
             # (and LayoutUnit itself saturates near 2^25 / 64 px).
             "#sweep { position: relative; }\n"
             "#sweep > div { position: absolute; top: 0; left: 0; white-space: pre-wrap; overflow-wrap: break-word; word-break: normal; margin: 0; "
             "padding: 0; border: 0; letter-spacing: normal; font-kerning: auto; font-weight: 400; font-style: normal; }")
    doc = ("<!doctype html><html><head><meta charset='utf-8'><style>%s\n%s</style></head><body>"
           "<div id='natural'>%s</div><div id='sweep'>%s</div>%s</body></html>") % (
               "\n".join(css), style, "\n".join(natural), "\n".join(divs), script)
    return doc, items, widths


def main():
    texts = read_texts()
    with tempfile.TemporaryDirectory() as workdir:
        doc, items, widths = page(texts, workdir)
        path = os.path.join(workdir, "sweep.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc)
        # The only font directory this browser sees is Corpora/fonts: no system font can take part,
        # and the browser's own UI still finds a font to start with. Hinting is off, as on HiDPI
        # screens and Android: Chromium then positions glyphs at subpixel precision (linear
        # advances, runs rounded up to 1/64 px). With hinting on (fontconfig's hintslight, at
        # device scale 1) it rounds each advance to whole pixels through the hinter instead.
        conf = os.path.join(workdir, "fonts.conf")
        with open(conf, "w") as f:
            f.write("<?xml version='1.0'?><!DOCTYPE fontconfig SYSTEM 'fonts.dtd'><fontconfig><dir>%s</dir>"
                    "<match target='font'><edit name='hinting' mode='assign'><bool>false</bool></edit>"
                    "<edit name='hintstyle' mode='assign'><const>hintnone</const></edit>"
                    "<edit name='autohint' mode='assign'><bool>false</bool></edit></match>"
                    "<cachedir>%s</cachedir></fontconfig>" % (FONTS, os.path.join(workdir, "fc-cache")))
        env = dict(os.environ, FONTCONFIG_FILE=conf, HOME=workdir)
        version = subprocess.run(["chromium", "--version"], capture_output=True, text=True, env=env).stdout.strip()
        run = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                              "--virtual-time-budget=60000", "--run-all-compositor-stages-before-draw",
                              "--font-render-hinting=none", "--dump-dom", "file://" + path],
                             capture_output=True, text=True, env=env, timeout=600)
        dom = run.stdout
        start = dom.find('<pre id="result">')
        if start < 0:
            sys.exit("Chromium wrote no result:\n" + run.stderr[-2000:])
        payload = html.unescape(dom[start + len('<pre id="result">'):dom.find("</pre>", start)])
        result = json.loads(payload)
    bad = [f for f in result["fonts"] if f[1] != "loaded"]
    if bad:
        sys.exit("fonts did not load: %r" % bad)
    if len(result["out"]) != len(items):
        sys.exit("%d items laid out, %d expected" % (len(result["out"]), len(items)))
    fixture = {
        "chromium": version,
        "rendering": "fontconfig hinting off (subpixel glyph positioning), device scale factor 1",
        "userAgent": result["userAgent"],
        "fontsUsed": {name: [list(f) for f in chain] for name, chain in CHAINS.items()},
        "texts": texts,
        "naturalColumns": ["text", "chain", "size", "naturalWidth64"],
        "natural": [w + [measured] for w, measured in zip(widths, result["natural"])],
        "columns": ["text", "chain", "size", "lineHeight", "width", "lines", "height64"],
        "items": [item + measured for item, measured in zip(items, result["out"])],
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print("%s: %d items from %s" % (OUT, len(items), version))


if __name__ == "__main__":
    main()
