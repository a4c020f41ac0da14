#!/usr/bin/env bash
# Regenerates the zip and deflate fixtures from files already in Corpora/, with tools nobody here
# wrote: Info-ZIP's `zip` (3.0) and Python's `zipfile` and `zlib`. Timestamps are pinned so the
# archives come out the same each time. Needs: zip, python3.
#   Corpora/tools/make_zip_fixtures.sh
set -euo pipefail
corpora="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
out="$corpora/zip"
mkdir -p "$out/deflate"

# Info-ZIP: a copy of some corpus files under their Corpora/ paths, with pinned times.
mkdir -p "$work/src"
(cd "$corpora" && cp --parents logs/sample.jsonl logs/hostile.jsonl exports/whatsapp/ios-fr_FR.txt \
  exports/whatsapp/android-de_DE.txt unicode/GraphemeBreakTest.txt "$work/src/")
find "$work/src" -exec touch -h -t 202405010900 {} +
rm -f "$out/info-zip.zip" "$out/info-zip64.zip"
(cd "$work/src" &&
  zip -q -X -9 "$out/info-zip.zip" logs/sample.jsonl unicode/GraphemeBreakTest.txt exports/whatsapp/ios-fr_FR.txt &&
  zip -q -X -1 "$out/info-zip.zip" logs/hostile.jsonl &&
  zip -q -X -0 "$out/info-zip.zip" exports/whatsapp/android-de_DE.txt &&
  echo "An archive comment written by zip -z." | zip -q -X -z "$out/info-zip.zip" &&
  # -fz: Zip64 end records and Zip64 extra fields although nothing needs them.
  zip -q -X -fz "$out/info-zip64.zip" logs/hostile.jsonl exports/whatsapp/ios-fr_FR.txt &&
  # From a pipe into a pipe: an entry named "-", sizes only in a data descriptor after the data.
  # (zip stamps it with the current time, so only this file differs from run to run.)
  cat logs/sample.jsonl | zip -q -X - - | cat > "$out/info-zip-streamed.zip")

python3 - "$corpora" "$out" <<'PY'
import struct, sys, zipfile, zlib
corpora, out = sys.argv[1], sys.argv[2]
def read(rel):
    with open(f"{corpora}/{rel}", "rb") as f:
        return f.read()
when = (2024, 5, 1, 9, 0, 0)

# zipfile: deflate at levels 9, 1 and 0 (stored blocks inside deflate), stored, and a comment.
with zipfile.ZipFile(f"{out}/python-zipfile.zip", "w") as z:
    z.comment = b"Written by Python's zipfile."
    for folder, method, level in [("level9", zipfile.ZIP_DEFLATED, 9), ("level1", zipfile.ZIP_DEFLATED, 1),
                                  ("level0", zipfile.ZIP_DEFLATED, 0), ("stored", zipfile.ZIP_STORED, None)]:
        # Level 0 needs a text over 64 KiB to make two stored blocks; the others keep the archive small.
        texts = ["unicode/GraphemeBreakTest.txt"] if level == 0 else ["logs/sample.jsonl", "exports/whatsapp/ios-en_US.txt"]
        if level == 9: texts.append("unicode/GraphemeBreakTest.txt")
        for rel in texts:
            info = zipfile.ZipInfo(f"{folder}/{rel}", when)
            info.compress_type = method
            z.writestr(info, read(rel), compresslevel=level)
    info = zipfile.ZipInfo("empty.txt", when)
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, b"")

# zipfile writing to a stream it cannot seek: data descriptors after each entry's data.
class Unseekable:
    def __init__(self, f): self.f = f
    def write(self, b): return self.f.write(b)
    def flush(self): self.f.flush()
with open(f"{out}/python-streamed.zip", "wb") as raw:
    with zipfile.ZipFile(Unseekable(raw), "w", zipfile.ZIP_DEFLATED) as z:
        for rel in ["logs/hostile.jsonl", "exports/whatsapp/ios-en_US.txt"]:
            info = zipfile.ZipInfo(rel, when)
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w") as entry:
                entry.write(read(rel))

# Raw deflate streams of one text under each zlib strategy: Huffman-only, run-length, fixed codes.
source = read("unicode/GraphemeBreakTest.txt")
for name, level, strategy in [("level9", 9, zlib.Z_DEFAULT_STRATEGY), ("level1", 1, zlib.Z_DEFAULT_STRATEGY),
                              ("level0", 0, zlib.Z_DEFAULT_STRATEGY), ("fixed", 6, zlib.Z_FIXED),
                              ("huffman-only", 6, zlib.Z_HUFFMAN_ONLY), ("rle", 6, zlib.Z_RLE)]:
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    with open(f"{out}/deflate/GraphemeBreakTest.{name}.deflate", "wb") as f:
        f.write(c.compress(source) + c.flush())

# A bomb: 20 MiB of zeros deflate to about 20 KiB (ratio over 1,000:1).
with zipfile.ZipFile(f"{out}/bomb.zip", "w") as z:
    info = zipfile.ZipInfo("_chat.txt", when)
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, bytes(20 << 20), compresslevel=9)

# An overlapping bomb (the construction in David Fifield's "A better zip bomb"): two central
# directory entries share one local header and its data. Written by hand with struct.
data = b"31/12/23, 21:05 - Ana: hello\n"
crc = zlib.crc32(data)
name = b"_chat.txt"
local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, len(data), len(data), len(name), 0) + name + data
central = b""
for entry in [b"_chat.txt", b"copy.txt"]:
    central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0x21, crc, len(data), len(data),
                           len(entry), 0, 0, 0, 0, 0, 0) + entry
end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 2, 2, len(central), len(local), 0)
with open(f"{out}/overlap.zip", "wb") as f:
    f.write(local + central + end)
PY

# Chat exports as the apps deliver them.
# WhatsApp iOS: "WhatsApp Chat - NAME.zip" holding _chat.txt (and the media, here one small file).
rm -rf "$work/ios" "$work/android" "$work/slack"
mkdir -p "$work/ios" "$work/android" "$work/slack"
cp "$corpora/exports/whatsapp/ios-fr_FR.txt" "$work/ios/_chat.txt"
printf 'not really a JPEG\n' > "$work/ios/00000003-PHOTO-2024-03-09-18-43-10.jpg"
# WhatsApp Android: "WhatsApp Chat with NAME.zip" holding "WhatsApp Chat with NAME.txt".
cp "$corpora/exports/whatsapp/android-en_US-12h.txt" "$work/android/WhatsApp Chat with Ana.txt"
# Slack: the export's files at the archive's root, as Slack's own export zip has them.
cp -R "$corpora/exports/slack/export/." "$work/slack/"
find "$work/ios" "$work/android" "$work/slack" -exec touch -h -t 202405010900 {} +
mkdir -p "$corpora/exports/zip"
rm -f "$corpora/exports/zip/"*.zip
(cd "$work/ios" && zip -q -X "$corpora/exports/zip/WhatsApp Chat - Camille.zip" _chat.txt 00000003-PHOTO-2024-03-09-18-43-10.jpg)
(cd "$work/android" && zip -q -X "$corpora/exports/zip/WhatsApp Chat with Ana.zip" "WhatsApp Chat with Ana.txt")
(cd "$work/slack" && zip -q -X -r "$corpora/exports/zip/slack-export.zip" users.json channels.json general random)
# A damaged chat inside an iOS-style archive: diagnostics must name archive.zip:_chat.txt:LINE.
mkdir -p "$work/damaged" && cp "$corpora/exports/whatsapp/damaged.txt" "$work/damaged/_chat.txt"
# A hostile Slack archive: a channel named "../elsewhere", and a day file that is a symbolic link
# (zip -y stores the link itself) to a file outside the export.
mkdir -p "$work/hostile/general" "$work/hostile/elsewhere"
printf '[{"id":"U1","name":"ann"}]\n' > "$work/hostile/users.json"
printf '[\n  {"id":"C1","name":"general"},\n  {"id":"C2","name":"../elsewhere"}\n]\n' > "$work/hostile/channels.json"
printf '[{"type":"message","user":"U1","text":"hello","ts":"1714557600.000100"}]\n' > "$work/hostile/general/2024-05-01.json"
printf '[{"type":"message","user":"U1","text":"secret","ts":"1714557700.000100"}]\n' > "$work/hostile/elsewhere/2024-05-01.json"
ln -s ../../../etc/passwd "$work/hostile/general/2024-05-02.json"
# Android archives with a shared text document beside the chat: once with the chat's usual
# localised name, once renamed so only its content says which file is the chat.
mkdir -p "$work/document" "$work/renamed"
cp "$corpora/exports/whatsapp/android-es_AR.txt" "$work/document/Chat de WhatsApp con Ana.txt"
printf 'lista de compras: pan, yerba\n' > "$work/document/notas.txt"
cp "$corpora/exports/whatsapp/android-es_AR.txt" "$work/renamed/ana.txt"
printf 'lista de compras: pan, yerba\n' > "$work/renamed/a-notas.txt"
find "$work/damaged" "$work/hostile" "$work/document" "$work/renamed" -exec touch -h -t 202405010900 {} +
(cd "$work/document" && zip -q -X "$corpora/exports/zip/android-with-document.zip" notas.txt "Chat de WhatsApp con Ana.txt")
(cd "$work/renamed" && zip -q -X "$corpora/exports/zip/android-renamed.zip" a-notas.txt ana.txt)
(cd "$work/damaged" && zip -q -X "$corpora/exports/zip/damaged-chat.zip" _chat.txt)
(cd "$work/hostile" && zip -q -X -y "$corpora/exports/zip/slack-hostile.zip" users.json channels.json general/2024-05-01.json general/2024-05-02.json)
# Two Android chats zipped together, beside a shared document: one is read, the other named in a warning.
mkdir -p "$work/two"
cp "$corpora/exports/whatsapp/android-es_AR.txt" "$work/two/WhatsApp Chat with Ana.txt"
cp "$corpora/exports/whatsapp/android-de_DE.txt" "$work/two/WhatsApp Chat with Ben.txt"
printf 'lista de compras: pan, yerba\n' > "$work/two/notas.txt"
find "$work/two" -exec touch -h -t 202405010900 {} +
(cd "$work/two" && zip -q -X "$corpora/exports/zip/two-chats.zip" notas.txt "WhatsApp Chat with Ana.txt" "WhatsApp Chat with Ben.txt")
echo "wrote $out and $corpora/exports/zip"
