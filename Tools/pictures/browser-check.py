#!/usr/bin/env python3
"""Checks `bubbles render --format html|svg` in headless Chromium, and writes what it found as JSON.

    Tools/pictures/browser-check.py [--bubbles PATH] [--chromium PATH] [--out FILE]

HTML: every row's rendered height (getBoundingClientRect, the row's spacing included) is compared
with the `data-height` our layout gave it, and every text's widest rendered line with `data-text-width`;
a text holding a web address must copy (textContent) as written.
They must be equal to the LayoutUnit (1/64 px) for the scripts the pixel engine is exact on
(Latin, Cyrillic, Greek, CJK, Korean, emoji the bundled fonts cover); rows with other scripts
(Arabic, Hebrew, Thai, Devanagari, Urdu), with characters no bundled font covers, or with CJK
punctuation trimming (it depends on the page's `lang`) are listed when they differ.
SVG: every text line's extent (its x and getComputedTextLength) lies inside its bubble's outline
(getBBox), the lines of a bubble go down the page, and no two rows' bubbles overlap.

The documents are rendered with --embed-fonts, so Chromium uses the bundled fonts only. The page
is opened with --dump-dom after a measuring script (ours, added to a copy) writes its results
into the DOM; the writer's own output has no script. Exit code 1 when a check fails.
"""
import argparse, html, json, math, os, re, subprocess, sys, tempfile, unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FONTS = ["NotoSans-Subset.ttf", "NotoSansCJK-Subset.ttc", "NotoSansArabic-Subset.ttf", "NotoSansHebrew-Subset.ttf",
         "NotoSansThai-Subset.ttf", "NotoSansDevanagari-Subset.ttf", "NotoColorEmoji-Subset.ttf"]
WIDTHS = [240, 375, 600]
# cjk-trim (text-spacing-trim) is listed, not failed: what the browser trims depends on the
# page's `lang`, which a transcript does not know (the sweep that the engine matches set it).
EXACT_GROUPS = {"latin", "cyrillic", "greek", "cjk", "korean", "emoji"}

MEASURE_HTML = """<script>
document.fonts.ready.then(() => {
  const out = [];
  for (const row of document.querySelectorAll('.row')) {
    const text = row.querySelector('.text');
    let widest = null;
    if (text) {
      // The widest line: from its first character's box to its last non-space one's (spaces
      // hang at a line's end; leading spaces count).
      // Every text node: a web address is a span of its own.
      const range = document.createRange();
      const lines = new Map();
      const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const data = node.data;
        for (let i = 0; i < data.length; i++) {
          const unit = data.charCodeAt(i);
          const pair = unit >= 0xD800 && unit < 0xDC00 ? 2 : 1;
          const space = /\s/.test(data[i]);
          range.setStart(node, i); range.setEnd(node, i + pair);
          for (const r of range.getClientRects()) {
            if (r.width === 0) continue;
            const key = Math.round(r.top + r.height / 2);
            const [l, rt] = lines.get(key) || [Infinity, -Infinity];
            lines.set(key, [Math.min(l, r.left), space ? rt : Math.max(rt, r.right)]);
          }
          i += pair - 1;
        }
      }
      widest = Math.max(0, ...[...lines.values()].filter(([l, r]) => r > l).map(([l, r]) => r - l));
    }
    out.push({id: row.dataset.id, kind: row.className, height: row.getBoundingClientRect().height,
              expected: parseFloat(row.dataset.height),
              width: widest, expectedWidth: text ? parseInt(row.dataset.textWidth) : null,
              copied: text ? text.textContent : null});
  }
  const pre = document.createElement('pre'); pre.id = 'results'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""

MEASURE_SVG = """<script>
document.fonts.ready.then(() => {
  const out = [];
  for (const row of document.querySelectorAll('g.row')) {
    const path = row.querySelector('path.bubble');
    const lines = [...row.children].filter(e => e.tagName === 'text' && e.getAttribute('class') === 't');
    const box = path ? path.getBBox() : null;
    out.push({id: row.dataset.id, kind: row.dataset.kind, y: parseFloat(row.dataset.y), height: parseFloat(row.dataset.height),
              bubble: box ? [box.x, box.y, box.width, box.height] : null,
              lines: lines.map(t => { const b = t.getBBox(); return {x: t.getStartPositionOfChar(0).x,
                 length: t.getComputedTextLength(), width: parseFloat(t.dataset.width), y: parseFloat(t.getAttribute('y')),
                 top: b.y, bottom: b.y + b.height, text: t.textContent}; })});
  }
  const pre = document.createElement('pre'); pre.id = 'results'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def run_chromium(chromium, path):
    dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                          "--virtual-time-budget=20000", "--dump-dom", "file://" + path],
                         capture_output=True, text=True, timeout=180).stdout
    match = re.search(r'<pre id="results">(.*?)</pre>', dom, re.S)
    if not match:
        raise SystemExit("chromium gave no results for " + path)
    return json.loads(html.unescape(match.group(1)))


def covered_codepoints(path):
    """The code points a font's cmap (format 4 or 12; a collection's first face) maps to a glyph."""
    import struct
    data = open(path, "rb").read()
    base = struct.unpack(">I", data[12:16])[0] if data[:4] == b"ttcf" else 0
    count = struct.unpack(">H", data[base + 4:base + 6])[0]
    cmap = None
    for i in range(count):
        tag, _, offset, _ = struct.unpack(">4sIII", data[base + 12 + 16 * i:base + 28 + 16 * i])
        if tag == b"cmap":
            cmap = offset
    covered = set()
    tables = struct.unpack(">H", data[cmap + 2:cmap + 4])[0]
    for i in range(tables):
        _, _, offset = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
        t = cmap + offset
        fmt = struct.unpack(">H", data[t:t + 2])[0]
        if fmt == 4:
            segs = struct.unpack(">H", data[t + 6:t + 8])[0] // 2
            ends = struct.unpack(">%dH" % segs, data[t + 14:t + 14 + 2 * segs])
            starts = struct.unpack(">%dH" % segs, data[t + 16 + 2 * segs:t + 16 + 4 * segs])
            for a, b in zip(starts, ends):
                covered.update(range(a, b + 1))
        elif fmt == 12:
            groups = struct.unpack(">I", data[t + 12:t + 16])[0]
            for g in range(groups):
                a, b, _ = struct.unpack(">III", data[t + 16 + 12 * g:t + 28 + 12 * g])
                covered.update(range(a, b + 1))
    return covered


COVERED = set()


def script_group(text):
    """'exact' when every letter is of a script the pixel engine is exact on, else the first other script,
    or 'uncovered' when no bundled font has a character (Chromium then takes an installed font)."""
    for ch in text:
        if ord(ch) > 0x7F and ord(ch) not in COVERED and not unicodedata.category(ch).startswith(("Z", "C", "M")) \
                and ch not in "\u200d\ufe0f":
            return "uncovered"
        name = unicodedata.name(ch, "")
        for script in ("ARABIC", "HEBREW", "THAI", "DEVANAGARI"):
            if name.startswith(script):
                return script.lower()
    return "exact"


def sweep_log(directory):
    """The Chromium sweep's chat texts (Corpora/fonts/sweep-texts.tsv) as a log, with their groups."""
    groups, lines = {}, []
    with open(os.path.join(ROOT, "Corpora/fonts/sweep-texts.tsv"), encoding="utf-8") as f:
        for n, line in enumerate(f):
            if line.startswith("#") or not line.strip():
                continue
            group, _, text = line.rstrip("\n").split("\t", 2)
            mid = "s%03d" % n
            groups[mid] = group
            lines.append(json.dumps({"id": mid, "type": "text", "from": ["Ana", "Ben"][n % 2], "outgoing": n % 3 == 0,
                                     "date": "2024-05-01T09:%02d:00Z" % (n % 60), "text": text}, ensure_ascii=False))
    path = os.path.join(directory, "sweep.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path, groups


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bubbles", default=os.path.join(ROOT, ".build/debug/bubbles"))
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--out", default=os.path.join(ROOT, "Tools/pictures/results/browser-check.json"))
    args = parser.parse_args()
    for f in FONTS:
        COVERED.update(covered_codepoints(os.path.join(ROOT, "Corpora/fonts", f)))
    fonts = [a for f in FONTS for a in ("--font", os.path.join(ROOT, "Corpora/fonts", f))]
    version = subprocess.run([args.chromium, "--version"], capture_output=True, text=True).stdout.strip()
    cases, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        sweep, groups = sweep_log(tmp)
        texts = {}
        for log in [sweep, os.path.join(ROOT, "Corpora/logs/sample.jsonl"), os.path.join(ROOT, "Corpora/logs/conversations.jsonl")]:
            bodies = {}
            for line in open(log, encoding="utf-8"):
                record = json.loads(line)
                texts[record["id"]] = (record.get("text") or "") + (record.get("from") or "")
                bodies[record["id"]] = record.get("text") or ""
            name = os.path.relpath(log, ROOT) if log != sweep else "sweep-texts"
            for width in WIDTHS:
                for fmt in ("html", "svg"):
                    document = subprocess.run([args.bubbles, "render", log, "--format", fmt, "--width", str(width),
                                               "--embed-fonts"] + fonts, capture_output=True, text=True).stdout
                    page = os.path.join(tmp, "page.html")
                    if fmt == "html":
                        document = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", document)
                        document = document.replace("</body>", MEASURE_HTML + "</body>")
                    else:
                        document = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">" + re.sub(r"^<\?xml[^>]*>", "", document) \
                            + MEASURE_SVG + "</body></html>"
                    with open(page, "w", encoding="utf-8") as f:
                        f.write(document)
                    results = run_chromium(args.chromium, page)
                    case = {"log": name, "width": width, "format": fmt, "rows": len(results), "failures": [], "mismatches": []}
                    if fmt == "html":
                        case["heights"] = {}
                        for r in results:
                            if not r["id"]:
                                continue
                            case["heights"][r["id"]] = r["expected"]
                            group = groups.get(r["id"]) if name == "sweep-texts" else None
                            found = script_group(texts.get(r["id"], ""))
                            exact = (group in EXACT_GROUPS and found != "uncovered") if group else found == "exact"
                            wrong = []
                            if abs(r["height"] - r["expected"]) > 1 / 64 + 1e-9:
                                wrong.append("height %s, ours %s" % (r["height"], r["expected"]))
                            # Ours is the widest line in px rounded up (the bubble holds it).
                            if r["width"] is not None and math.ceil(r["width"] - 1e-9) != r["expectedWidth"]:
                                wrong.append("widest line %s, ours %s" % (r["width"], r["expectedWidth"]))
                            # What a reader copies is the text as written: a web address
                            # unchanged, nothing invisible added.
                            body = bodies.get(r["id"], "")
                            if r["copied"] is not None and "://" in body and r["copied"] != body.replace("\t", " "):
                                case["failures"].append({"id": r["id"], "found": ["copied text %r, written %r" % (r["copied"], body)]})
                            if wrong:
                                entry = {"id": r["id"], "script": found if found == "uncovered" else group or found, "found": wrong}
                                (case["failures"] if exact else case["mismatches"]).append(entry)
                    else:
                        bottom = None
                        for r in results:
                            if r["bubble"]:
                                x, y, w, h = r["bubble"]
                                if bottom is not None and y < bottom - 1e-6:
                                    case["failures"].append({"id": r["id"], "found": ["bubble overlaps the one above"]})
                                bottom = y + h
                                last = None
                                for line in r["lines"]:
                                    problems = []
                                    if line["x"] < x - 0.5 or line["x"] + line["length"] > x + w + 0.5:
                                        problems.append("line [%.2f, %.2f] outside bubble [%.2f, %.2f]" % (line["x"], line["x"] + line["length"], x, x + w))
                                    if line["y"] < y or line["y"] > y + h:
                                        problems.append("baseline %.2f outside bubble [%.2f, %.2f]" % (line["y"], y, y + h))
                                    if last is not None and line["y"] <= last:
                                        problems.append("line not below the one before")
                                    last = line["y"]
                                    if problems:
                                        exact = script_group(line["text"]) == "exact"
                                        entry = {"id": r["id"], "script": script_group(line["text"]), "found": problems}
                                        (case["failures"] if exact else case["mismatches"]).append(entry)
                    failures += len(case["failures"])
                    print("%-28s %4d px %-4s %3d rows, %d failures, %d other-script mismatches" % (
                        name, width, fmt, case["rows"], len(case["failures"]), len(case["mismatches"])), flush=True)
                    cases.append(case)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"chromium": version, "fonts": FONTS, "cases": cases}, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    print("%d failures; results in %s" % (failures, os.path.relpath(args.out, ROOT)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
