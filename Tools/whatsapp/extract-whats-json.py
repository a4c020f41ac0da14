#!/usr/bin/env python3
"""Writes the WhatsApp marker rows taken from starkdmi/whats_json's lib/src/patterns.dart (the
translations it collected from WhatsApp's iOS Localizable.strings and Android strings.xml) as TSV:
kind, text, source. Only the translated strings are taken, not code. Run once to (re)make the
whats_json rows of Tools/whatsapp/markers.tsv:

    python3 Tools/whatsapp/extract-whats-json.py PATH/TO/patterns.dart COMMIT
"""
import re
import sys

source = open(sys.argv[1], encoding="utf-8").read()
commit = sys.argv[2]
where = f"starkdmi/whats_json@{commit[:12]} lib/src/patterns.dart"

def alternation(name):
    """The alternatives of the first group of the raw string assigned to `name`."""
    m = re.search(r"static (?:const |final )?String " + re.escape(name) + r"\s*=\s*r\"(.*?)\"\s*\+?\s*\n", source, re.S)
    if not m:
        raise SystemExit(f"{name} not found")
    body = m.group(1)
    start = body.index("(") + 1
    if body[start:].startswith("^|\\s)"):
        # `(^|\s)` before the words (a document's marker may follow its file name): the next group.
        start = body.index("(", start) + 1
    depth, i = 1, start
    while depth:
        if body[i] == "(" and body[i - 1] != "\\": depth += 1
        elif body[i] == ")" and body[i - 1] != "\\": depth -= 1
        i += 1
    return [a for a in body[start:i - 1].split("|")]

rows = []
def add(kind, texts, note):
    for text in texts:
        text = text.replace("\u200f", "").replace("\u200e", "").strip().lstrip("(")
        if not text or "[" in text or "\\" in text or "%" in text:
            continue
        rows.append((kind, text, f"{where} {note}"))

ios = alternation("_iosAttachmentPattern")
# The iOS alternation is "(name)\s?<(word|word…): (file)>": its second group holds the words.
m = re.search(r"_iosAttachmentPattern =\s*r\"\^\(\?<name>.*?\)\\s\?<\((.*?)\): \(\?<file>", source, re.S)
add("ios-attached", [w.rstrip(">") for w in m.group(1).split("|")], "_iosAttachmentPattern (iOS key zQ+5d)")
m = re.search(r"_androidAttachmentPattern =\s*r\"\^\(\?<file2>\.\*\)\\s\\\((.*?)\)\\\)\"", source, re.S)
add("android-attached", m.group(1).split("|"), "_androidAttachmentPattern (Android email_file_attached)")
for name, kind, key in [
    ("deleted", "deleted", "iOS qBly], Android revoked_msg_incoming"),
    ("youDeleted", "deleted", "iOS GHe7G, S?EA5, Android revoked_msg_outgoing"),
    ("missedCall", "call", "iOS A),w/, f/]I7, Android missed_voice_call"),
    ("missedVideoCall", "call", "iOS PnA`x, Android video_missed_call"),
    ("imageOmitted", "image-omitted", "iOS n*sq0"),
    ("videoOmitted", "video-omitted", "iOS I4|vp"),
    ("audioOmitted", "audio-omitted", "iOS a86Wu"),
    ("stickerOmitted", "sticker-omitted", "iOS 2K_mB"),
    ("gifOmitted", "gif-omitted", "iOS ~.KLq"),
    ("contactCardOmitted", "contact-omitted", "iOS Sk+0p"),
    ("documentOmitted", "document-omitted", "iOS StaLC"),
    ("mediaOmitted", "media-omitted", "Android export_media_omitted"),
]:
    add(kind, alternation(name), f"{name} ({key})")
# English group notices, from the iOS keys quoted in the file's comments ("‎%@ joined using …").
for key, text in re.findall(r"///\s+\"([^\"]+)\":\s*\"\u200e?([^\"]+)\"", source):
    sentence = text.replace("\u200e", "").strip()
    # A deleted message's note stands in the person's place; the rest are the group's notices.
    kind = "deleted-en" if "deleted" in sentence else "notice-en"
    rows.append((kind, sentence, f"{where} comment (iOS key {key})"))

seen = set()
for kind, text, note in rows:
    if (kind, text.lower()) in seen:
        continue
    seen.add((kind, text.lower()))
    print(f"{kind}\t{text}\t{note}")
