#!/usr/bin/env python3
"""Checks what real terminals do with right-to-left text, under Xvfb.

For each terminal it runs a script that draws, one per row: a row of full blocks (to find the
cell grid), the Hebrew letters alef, bet and gimel alone (reference glyphs), the word
alef-bet-gimel as plain text, the same word between BDSM's CSI 8 l and CSI 8 h, and then
`bubbles render` of a one-message log holding that word, run in the terminal itself (so it
sends its mode switch if the terminal's environment asks for one); then `bubbles view` on the
same log. A screenshot is cut into
cells and each cell compared with the reference glyphs, which tells in which order the
terminal put the letters on screen.

    python3 Tools/bidi-terminals/check.py .build/release/bubbles

Needs Xvfb, xwd (x11-apps), the DejaVu fonts, and the terminals to
check (xterm; lxterminal for VTE). Terminals not installed are skipped. Prints one line per
terminal and check; exits 1 when a check could not be read.
"""
import json, os, shutil, struct, subprocess, sys, tempfile, time, zlib

ALEF, BET, GIMEL = "\u05d0", "\u05d1", "\u05d2"
WORD = ALEF + BET + GIMEL
# Spaced, so that a terminal drawing with a proportional fallback font still puts each letter
# at the start of its own cell.
SPACED = " ".join(WORD)
DISPLAY = ":77"


def screenshot():
    """The root window as (width, height, bytes per pixel, bytes per line, pixels), read from
    xwd's dump (XWD file format 7, 24 or 32 bits per pixel)."""
    dump = subprocess.run(["xwd", "-root", "-silent", "-display", DISPLAY], capture_output=True, check=True).stdout
    fields = struct.unpack(">25I", dump[:100])
    header_size, width, height = fields[0], fields[4], fields[5]
    bits_per_pixel, bytes_per_line, colours = fields[11], fields[12], fields[19]
    start = header_size + colours * 12
    return width, height, bits_per_pixel // 8, bytes_per_line, dump[start:]


def lit(image, x, y):
    width, height, size, line, data = image
    at = y * line + x * size
    return data[at] + data[at + 1] + data[at + 2] > 384


def save_png(image, path):
    """Writes the screenshot as a greyscale PNG (for looking at what a check read)."""
    width, height = image[0], image[1]
    rows = b"".join(b"\0" + bytes(255 if lit(image, x, y) else 0 for x in range(width)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def grid(image):
    """The cell grid from the ten full blocks of row 0 and the one of row 1: origin, cell width
    and row pitch."""
    width, height = image[0], image[1]
    def run(x, y):  # the lit run down column x from y: its length
        n = 0
        while y + n < height and lit(image, x, y + n):
            n += 1
        return n
    points = [(x, y) for y in range(min(height, 100)) for x in range(min(width, 400)) if lit(image, x, y)]
    if not points:
        return None
    top = min(y for _, y in points)
    row = [x for x in range(width) if lit(image, x, top + 1)]
    left, right = min(row), max(row)
    cell_width = (right - left + 1) / 10.0
    alone = run(int(left + 5.5 * cell_width), top)   # row 0 only
    both = run(int(left + 0.5 * cell_width), top)    # rows 0 and 1, touching or not
    if both > alone:
        pitch = both // 2 if both >= 2 * alone - 1 else alone
    else:
        below = next((y for y in range(top + alone, min(height, top + 3 * alone)) if lit(image, int(left + 0.5 * cell_width), y)), None)
        if below is None:
            return None
        pitch = below - top
    return left, top, cell_width, pitch


def cell(image, geometry, row, column):
    """The lit pixels of a cell, as (x, y) offsets from its corner."""
    left, top, w, h = geometry
    x0, y0 = int(round(left + column * w)), int(round(top + row * h))
    x1 = int(round(left + (column + 1) * w))
    return {(x - x0, y - y0) for y in range(y0, y0 + h) for x in range(x0, x1) if lit(image, x, y)}


def likeness(a, b):
    """How alike two cells' pixels are (Jaccard), allowing the glyph to sit a few pixels off
    (glyphs from a fallback font are not always placed alike)."""
    best = 0.0
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            moved = {(x + dx, y + dy) for x, y in a}
            union = len(moved | b)
            best = max(best, len(moved & b) / union if union else 1.0)
    return best


def order(image, geometry, row, columns, references):
    """The letters seen in `columns` of `row`, by the reference glyph each cell matches best."""
    seen = []
    for column in columns:
        pixels = cell(image, geometry, row, column)
        scores = {name: likeness(pixels, glyph) for name, glyph in references.items()}
        seen.append(max(scores, key=scores.get))
    return "".join(seen)


def script(bubbles, log, render_lines):
    return "\n".join([
        "printf '\\033[H\\033[2J'",
        "printf '%s\\n' '██████████' '█'",
        f"printf '%s\\n' '{ALEF}' '{BET}' '{GIMEL}' '{SPACED}'",
        f"printf '\\033[8l%s\\n\\033[8h' '{SPACED}'",
        f"'{bubbles}' render '{log}' --width 30 --color never --tz UTC 2>/dev/null",
        "stty -echo 2>/dev/null; sleep 30",
    ])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check.py BUBBLES_BINARY")
    bubbles = os.path.abspath(sys.argv[1])
    for tool in ("Xvfb", "xwd"):
        if not shutil.which(tool):
            sys.exit(f"check.py: {tool} is not installed")
    work = tempfile.mkdtemp(prefix="bidi-terminals-")
    log = os.path.join(work, "rtl.jsonl")
    with open(log, "w") as f:
        f.write(json.dumps({"id": "m1", "type": "text", "from": "Noa", "date": "2024-05-01T10:00:00Z", "text": SPACED}) + "\n")
    # Where the word's letters land, in the order they are written (the piped output: visual
    # lines, no mode switch; the same lines a terminal gets).
    piped = subprocess.run([bubbles, "render", log, "--width", "30", "--color", "never", "--tz", "UTC"],
                           capture_output=True, text=True, check=True).stdout.split("\n")
    target = next(i for i, line in enumerate(piped) if any(c in line for c in WORD))
    columns = [piped[target].index(c) for c in piped[target] if c in WORD]  # every other scalar is one cell
    written = "".join(c for c in piped[target] if c in WORD)
    config = os.path.join(work, "config")
    os.makedirs(os.path.join(config, "lxterminal"))
    with open(os.path.join(config, "lxterminal", "lxterminal.conf"), "w") as f:
        f.write("[general]\nfontname=DejaVu Sans Mono 14\nbgcolor=#000000\nfgcolor=#ffffff\nhidescrollbar=true\n"
                "hidemenubar=true\nhidecursor=true\ngeometry_columns=40\ngeometry_rows=30\n")
    with open(os.path.join(work, "run.sh"), "w") as f:
        f.write(script(bubbles, log, len(piped)) + "\n")
    with open(os.path.join(work, "view.sh"), "w") as f:
        f.write(f"'{bubbles}' view '{log}' --color never --tz UTC 2>/dev/null\n")
    terminals = {
        "xterm": ["xterm", "-geometry", "40x30+0+0", "-fa", "DejaVu Sans Mono", "-fs", "14", "-bg", "black", "-fg", "white",
                  "+sb", "-e", "sh", os.path.join(work, "run.sh")],
        "lxterminal (VTE)": ["lxterminal", "--no-remote", "-e", "sh " + os.path.join(work, "run.sh")],
    }
    server = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "800x1000x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failed = False
    print(f"bubbles render writes the word as {' '.join(hex(ord(c)) for c in written)} (visual order) on row {target}")
    try:
        time.sleep(2)
        for name, command in terminals.items():
            if not shutil.which(command[0]):
                print(f"{name}: not installed, skipped")
                continue
            environment = dict(os.environ, DISPLAY=DISPLAY, XDG_CONFIG_HOME=config, LANG="C.UTF-8", LC_ALL="C.UTF-8")
            environment.pop("TMUX", None)
            terminal = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(6)
            image = screenshot()
            terminal.kill()
            terminal.wait()
            if os.environ.get("BIDI_CHECK_SAVE"):
                save_png(image, os.path.join(os.environ["BIDI_CHECK_SAVE"], name.split()[0] + ".png"))
            geometry = grid(image)
            if geometry is None:
                print(f"{name}: nothing drawn")
                failed = True
                continue
            references = {ALEF: cell(image, geometry, 2, 0), BET: cell(image, geometry, 3, 0), GIMEL: cell(image, geometry, 4, 0)}
            plain = order(image, geometry, 5, range(0, 6, 2), references)
            explicit = order(image, geometry, 6, range(0, 6, 2), references)
            rendered = order(image, geometry, 7 + target, columns, references)
            def say(seen, stored):
                return "cells in the order written" if seen == stored else "reordered" if seen == stored[::-1] else f"unclear ({seen!r})"
            print(f"{name}: plain text: {say(plain, WORD)}; after CSI 8 l: {say(explicit, WORD)}; "
                  f"bubbles render: {say(rendered, written)}, reading "
                  f"{'right to left as stored' if rendered == WORD[::-1] else 'backwards' if rendered == WORD else repr(rendered)}")
            failed |= "unclear" in say(plain, WORD) + say(explicit, WORD) + say(rendered, written)
            # `bubbles view` on the same log: its screen has no reference rows, so the letters
            # are looked for in every cell, by the glyphs read above.
            viewer = list(command)
            viewer[-1] = viewer[-1].replace(os.path.join(work, "run.sh"), os.path.join(work, "view.sh"))
            terminal = subprocess.Popen(viewer, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(6)
            screen = screenshot()
            terminal.kill()
            terminal.wait()
            found = {}
            rows_on_screen = min(30, int((screen[1] - geometry[1]) // geometry[3]))
            for row in range(rows_on_screen):
                for column in range(40):
                    pixels = cell(screen, geometry, row, column)
                    if len(pixels) < 8:
                        continue
                    scores = {name: likeness(pixels, glyph) for name, glyph in references.items()}
                    best = max(scores, key=scores.get)
                    if scores[best] > 0.85:
                        found.setdefault(row, []).append(best)
            rows = [letters for letters in found.values() if len(letters) == 3]
            seen = "".join(rows[0]) if len(rows) == 1 else None
            print(f"{name}: bubbles view: " + (f"{say(seen, written)}, reading "
                  f"{'right to left as stored' if seen == WORD[::-1] else 'backwards' if seen == WORD else repr(seen)}"
                  if seen else f"the word was not found on the screen ({found})"))
            failed |= seen is None or "unclear" in say(seen, written)
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
