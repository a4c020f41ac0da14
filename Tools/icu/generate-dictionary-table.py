#!/usr/bin/env python3
"""Generates Sources/BubbleText/LineBreaking/DictionaryWords.swift: the word lists of ICU's
dictionary break engines (Thai, Lao, Khmer, Myanmar) as the ICU data file a browser ships has them.

Source: the compiled dictionaries brkitr/{thai,lao,khmer,burmese}dict.dict inside an ICU common data
file (Chromium's icudtl.dat by default), made by ICU's gendict from icu4c/source/data/brkitr/
dictionaries/*.txt. Each is an ICU BytesTrie whose bytes are code points minus a per-script offset;
this tool walks the trie and lists every word it holds, so the table has exactly the words the browser
matches (words with characters outside the script's block were dropped by gendict and are not here).

The table: per script, the words sorted by their bytes (a byte per scalar, `scalar - offset`, 0xFE
for ZWNJ and 0xFF for ZWJ, as ICU's transform), each after its length in a byte, all of it in one
base64 string literal decoded once at first use; and the script's letters of Line_Break SA, and
those of them that are marks (General_Category M), from the UCD in /usr/share/unicode.

The word lists are data of the Unicode Consortium, under the Unicode licence (see LICENSE).

Usage: python3 Tools/icu/generate-dictionary-table.py [--icu-data FILE] [--check | --version]
(--version prints the ICU version of the data file.)
"""
import base64
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Sources/BubbleText/LineBreaking/DictionaryWords.swift")
DEFAULT_DATA = "/usr/lib/chromium/icudtl.dat"
UCD = "/usr/share/unicode"
SCRIPTS = [("thai", "thai", "Thai"), ("lao", "lao", "Lao"), ("khmer", "khmer", "Khmer"), ("myanmar", "burmese", "Myanmar")]


def common_data_items(data):
    """Name -> bytes of every item in an ICU common data file (header, then a table of contents)."""
    header_size = struct.unpack_from("<H", data, 0)[0]
    if data[2:4] != b"\xda\x27":
        raise SystemExit("not an ICU data file")
    toc = header_size
    count = struct.unpack_from("<I", data, toc)[0]
    entries = [struct.unpack_from("<II", data, toc + 4 + 8 * i) for i in range(count)]
    items = {}
    for i, (name_offset, data_offset) in enumerate(entries):
        end = data.index(b"\0", toc + name_offset)
        name = data[toc + name_offset:end].decode("ascii")
        stop = toc + entries[i + 1][1] if i + 1 < count else len(data)
        items[name.split("/", 1)[1]] = data[toc + data_offset:stop]
    return items


def read_value(b, pos, lead):
    """The value whose lead byte (already shifted right by one) was read before pos; (value, pos after)."""
    if lead < 0x51:
        return lead - 0x10, pos
    if lead < 0x6C:
        return ((lead - 0x51) << 8) | b[pos], pos + 1
    if lead < 0x7E:
        return ((lead - 0x6C) << 16) | (b[pos] << 8) | b[pos + 1], pos + 2
    if lead == 0x7E:
        return (b[pos] << 16) | (b[pos + 1] << 8) | b[pos + 2], pos + 3
    return struct.unpack_from(">i", b, pos)[0], pos + 4


def jump(b, pos):
    """Where a compact jump delta starting at pos leads."""
    d = b[pos]
    pos += 1
    if d < 0xC0:
        pass
    elif d < 0xF0:
        d = ((d - 0xC0) << 8) | b[pos]
        pos += 1
    elif d < 0xFE:
        d = ((d - 0xF0) << 16) | (b[pos] << 8) | b[pos + 1]
        pos += 2
    elif d == 0xFE:
        d = (b[pos] << 16) | (b[pos + 1] << 8) | b[pos + 2]
        pos += 3
    else:
        d = struct.unpack_from(">i", b, pos)[0]
        pos += 4
    return pos + d, pos


def trie_words(b, start):
    """Every byte string a BytesTrie holds (iteratively: branches nest deeply)."""
    words = []
    stack = [("node", start, b"")]
    while stack:
        kind, pos, prefix = stack.pop()
        if kind == "branch":
            length, pos = pos
            while length > 5:
                pos += 1  # the split byte: keys below it are in the first half
                target, after = jump(b, pos)
                stack.append(("branch", (length >> 1, target), prefix))
                length -= length >> 1
                pos = after
            for _ in range(length - 1):
                key, node = b[pos], b[pos + 1]
                value, pos = read_value(b, pos + 2, node >> 1)
                if node & 1:
                    words.append(prefix + bytes([key]))
                else:
                    stack.append(("node", pos + value, prefix + bytes([key])))
            stack.append(("node", pos + 1, prefix + bytes([b[pos]])))
            continue
        while True:
            node = b[pos]
            pos += 1
            if node >= 0x20:
                words.append(prefix)
                if node & 1:
                    break
                _, pos = read_value(b, pos, node >> 1)
            elif node < 0x10:
                length = node
                if length == 0:
                    length = b[pos]
                    pos += 1
                stack.append(("branch", (length + 1, pos), prefix))
                break
            else:
                n = node - 0x10 + 1
                prefix += b[pos:pos + n]
                pos += n
    return words


def dictionary(item):
    """(offset, sorted transformed words) of a compiled .dict item."""
    header_size = struct.unpack_from("<H", item, 0)[0]
    if item[12:16] != b"Dict":
        raise SystemExit("not an ICU dictionary")
    indexes = struct.unpack_from("<8i", item, header_size)
    trie_offset, trie_type, transform = indexes[0], indexes[4], indexes[5]
    if trie_type & 7 != 0 or transform & 0x7F000000 != 0x01000000:
        raise SystemExit("not a byte trie with an offset transform")
    words = trie_words(item, header_size + trie_offset)
    if any(not w or len(w) > 255 for w in words):
        raise SystemExit("a word of no or too many bytes")
    return transform & 0x1FFFFF, sorted(set(words))


def ucd_ranges(path, field_values):
    """Code points whose value in a `range; value` UCD file is one of `field_values`."""
    points = set()
    for line in open(os.path.join(UCD, path), encoding="utf-8"):
        line = line.split("#")[0].strip()
        if not line:
            continue
        cps, value = [f.strip() for f in line.split(";")[:2]]
        if value not in field_values:
            continue
        first, _, last = cps.partition("..")
        points.update(range(int(first, 16), int(last or first, 16) + 1))
    return points


def marks():
    """Code points of general category M (Mn, Mc, Me)."""
    points = set()
    for line in open(os.path.join(UCD, "UnicodeData.txt"), encoding="utf-8"):
        fields = line.split(";")
        if fields[2].startswith("M"):
            points.add(int(fields[0], 16))
    return points


def swift_ranges(points):
    """`a...b` ranges of a set of code points, in order."""
    out, run = [], None
    for cp in sorted(points):
        if run and cp == run[1] + 1:
            run[1] = cp
        else:
            if run:
                out.append(run)
            run = [cp, cp]
    if run:
        out.append(run)
    return ", ".join("0x%04X...0x%04X" % (a, b) for a, b in out)


def render(data, source):
    items = common_data_items(data)
    complex_context = ucd_ranges("LineBreak.txt", {"SA"})
    mark = marks()
    lines = [
        "// Generated by Tools/icu/generate-dictionary-table.py from the break dictionaries in an ICU data",
        "// file (" + source + ") and the UCD's LineBreak.txt, Scripts.txt and UnicodeData.txt. Do not edit.",
        "//",
        "// The word lists are ICU's (icu4c/source/data/brkitr/dictionaries): Copyright (C) 2016 and later",
        "// Unicode, Inc. and others; Copyright (c) 2006-2015 International Business Machines Corporation,",
        "// Apple Inc., and others. Under the Unicode License (see LICENSE, third-party section).",
        "",
        "extension DictionaryWords {",
    ]
    for name, icu, script in SCRIPTS:
        offset, words = dictionary(items["brkitr/" + icu + "dict.dict"])
        blob = b"".join(bytes([len(w)]) + w for w in words)
        text = base64.b64encode(blob).decode("ascii")
        letters = complex_context & ucd_ranges("Scripts.txt", {script})
        lines.append("    /// %d words; a word is its length, then a byte per scalar (`scalar - offset`)." % len(words))
        lines.append("    static let %s = DictionaryWords(" % name)
        lines.append("        offset: 0x%04X, count: %d," % (offset, len(words)))
        lines.append("        letters: [%s]," % swift_ranges(letters))
        lines.append("        marks: [%s]," % swift_ranges(letters & mark))
        lines.append("        base64: \"\"\"")
        for i in range(0, len(text), 120):
            lines.append("        " + text[i:i + 120])
        lines.append("        \"\"\")")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    args = sys.argv[1:]
    path = DEFAULT_DATA
    if "--icu-data" in args:
        path = args[args.index("--icu-data") + 1]
    with open(path, "rb") as f:
        data = f.read()
    if "--version" in args:
        print(icu_version(data))
        return
    source = "ICU " + icu_version(data)
    text = render(data, source)
    if "--check" in args:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit(OUT + " differs from what Tools/icu/generate-dictionary-table.py makes from " + path)
        return
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)


def icu_version(data):
    """The ICU data version, from the item names' package prefix (icudt78l -> 78)."""
    header_size = struct.unpack_from("<H", data, 0)[0]
    name_offset = struct.unpack_from("<I", data, header_size + 4)[0]
    end = data.index(b"/", header_size + name_offset)
    package = data[header_size + name_offset:end].decode("ascii")
    return package[len("icudt"):-1]


if __name__ == "__main__":
    main()
