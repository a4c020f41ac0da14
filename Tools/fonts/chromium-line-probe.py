#!/usr/bin/env python3
"""Prints where headless Chromium breaks texts into lines, with the sweep's fonts and page setup.

Usage: python3 Tools/fonts/chromium-line-probe.py CHAIN SIZE WIDTH TEXT... (CHAIN is one of
chromium-sweep.py's chains). Each text is laid out in a box WIDTH px wide (white-space: pre-wrap,
overflow-wrap: break-word), and its lines are printed joined by " | ", one text a line, as JSON.
Used to learn how Chromium breaks dictionary-script words (DictionaryRestartAfterCutTests).
"""
import html
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sweep", os.path.join(HERE, "chromium-sweep.py"))
sweep = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sweep)


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in sweep.CHAINS:
        sys.exit("usage: chromium-line-probe.py CHAIN SIZE WIDTH TEXT...")
    chain, size, width, texts = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    with tempfile.TemporaryDirectory() as workdir:
        css, families = [], []
        for name, index in sweep.CHAINS[chain]:
            family = "probe%d" % len(families)
            families.append(family)
            css.append("@font-face { font-family: %s; src: url('file://%s'); }" % (family, sweep.face_file(workdir, name, index)))
        style = ("div { white-space: pre-wrap; overflow-wrap: break-word; word-break: normal; margin: 0; padding: 0;"
                 " font-kerning: auto; font-weight: 400; font-family: %s; font-size: %spx; width: %dpx; }"
                 % (", ".join(families), size, width))
        divs = "".join("<div>%s</div>" % html.escape(t) for t in texts)
        script = """<script>
async function measure() {
  await Promise.all([...document.fonts].map(f => f.load()));
  await document.fonts.ready;
  const out = [];
  for (const div of document.querySelectorAll('div')) {
    const node = div.firstChild, text = node.data, lines = [];
    let top = null, line = '';
    for (const ch of text) {
      const i = text.indexOf(ch, lines.join('').length + line.length);
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + ch.length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0 || r.height > 0);
      const t = rects.length ? Math.round(rects[0].top) : top;
      if (top !== null && t !== top) { lines.push(line); line = ''; }
      top = t; line += ch;
    }
    lines.push(line);
    out.push(lines);
  }
  document.body.innerHTML = '';
  const pre = document.createElement('pre'); pre.id = 'result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}
measure();
</script>"""
        path = os.path.join(workdir, "probe.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write("<!doctype html><html><head><meta charset='utf-8'><style>%s\n%s</style></head><body>%s%s</body></html>"
                    % ("\n".join(css), style, divs, script))
        conf = os.path.join(workdir, "fonts.conf")
        with open(conf, "w") as f:
            f.write("<?xml version='1.0'?><!DOCTYPE fontconfig SYSTEM 'fonts.dtd'><fontconfig><dir>%s</dir>"
                    "<match target='font'><edit name='hinting' mode='assign'><bool>false</bool></edit>"
                    "<edit name='hintstyle' mode='assign'><const>hintnone</const></edit>"
                    "<edit name='autohint' mode='assign'><bool>false</bool></edit></match>"
                    "<cachedir>%s</cachedir></fontconfig>" % (sweep.FONTS, os.path.join(workdir, "fc-cache")))
        env = dict(os.environ, FONTCONFIG_FILE=conf, HOME=workdir)
        run = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                              "--virtual-time-budget=20000", "--run-all-compositor-stages-before-draw",
                              "--font-render-hinting=none", "--dump-dom", "file://" + path],
                             capture_output=True, text=True, env=env, timeout=300)
        dom = run.stdout
        start = dom.find('<pre id="result">')
        if start < 0:
            sys.exit("Chromium wrote no result:\n" + run.stderr[-2000:])
        result = json.loads(html.unescape(dom[start + len('<pre id="result">'):dom.find("</pre>", start)]))
    for lines in result:
        print(json.dumps(" | ".join(lines), ensure_ascii=False))


if __name__ == "__main__":
    main()
