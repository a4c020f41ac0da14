#!/usr/bin/env python3
"""Writes Corpora/logs/hostile.jsonl: messages whose text tries to drive the terminal.

Written for BubbleLayout. Every string below is ours. Controls are written as JSON escapes where
JSON requires it (C0), and as raw UTF-8 otherwise (C1 controls, bidi controls), as real logs do.
"""
import json, os

ESC = "\x1b"
records = [
    ("text", "Mallory", "cursor up two, right ten: " + ESC + "[2A" + ESC + "[10Cmoved here" + ESC + "[0m"),
    ("text", "Mallory", "clear screen and home: " + ESC + "[2J" + ESC + "[H" + ESC + "[3J gone?"),
    ("text", "Mallory", "set title (OSC 0, BEL): " + ESC + "]0;pwned title" + "\x07 after"),
    ("text", "Mallory", "set title (OSC 2, ST): " + ESC + "]2;another title" + ESC + "\\ after"),
    ("text", "Mallory", "clipboard write (OSC 52): " + ESC + "]52;c;cm0gLXJmIH4vKg==" + "\x07 copied"),
    ("text", "Mallory", "hyperlink (OSC 8): " + ESC + "]8;;https://evil.example/login" + ESC + "\\click me" + ESC + "]8;;" + ESC + "\\ end"),
    ("text", "Mallory", "DCS and APC: " + ESC + "P1$qm" + ESC + "\\ and " + ESC + "_hidden apc" + ESC + "\\ done"),
    ("text", "Mallory", "C1 CSI in UTF-8: \u009b31mred via C1\u009b0m and C1 OSC \u009d0;c1 title\u009c end"),
    ("text", "Mallory", "bidi override left open: \u202eevil.exe.txt and isolate \u2067open"),
    ("text", "Mallory", "embeddings \u202aLRE \u202bRLE \u202cPDF, marks \u200eLRM \u200fRLM \u061cALM, isolates \u2066LRI\u2068FSI\u2069PDI"),
    ("text", "Mallory", "bell\x07 backspace ab\x08\x08XY carriage\roverwritten delete\x7f nul\x00 after nul"),
    ("text", "Mallory", "form feed\x0c vertical tab\x0b tab\there escape alone " + ESC + " end"),
    ("text", "Mallory", "SGR bomb: " + (ESC + "[38;5;196m█" ) * 8 + ESC + "[0m"),
    ("text", "Mallory\x1b[31m red name" + ESC + "[0m", "the sender name carries SGR"),
    ("text", "\u202eyrolaM", "the sender name carries a right-to-left override"),
    ("text", "Eve\x07\x08", "the sender name carries BEL and BS"),
    ("image", "Mallory", ("evil" + ESC + "]0;title\x07.png", 640, 480, "caption clears: " + ESC + "[2J" + ESC + "[H")),
    ("image", "Mallory", ("\u202egnp.exe", None, None, "file name with RLO, caption with OSC 52 " + ESC + "]52;c;ZXZpbA==\x07")),
    ("system", None, "Mallory renamed the group to " + ESC + "]0;owned\x07" + ESC + "[2J"),
    ("text", "Alice", "an innocent message that Mallory will quote"),
    ("text", "Mallory", "unterminated OSC at the very end: " + ESC + "]0;this title never ends and eats everything"),
    ("text", "Bob", "ZWJ, variation selectors and skin tones must pass: 👨‍👩‍👧‍👦 ❤️ 👍🏽 🏳️‍🌈 1️⃣"),
]

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out_path = os.path.join(here, "..", "logs", "hostile.jsonl")
    lines = []
    for n, (kind, sender, payload) in enumerate(records, start=1):
        r = {"id": f"h{n:02d}", "type": kind}
        if sender is not None:
            r["from"] = sender
        r["date"] = f"2024-06-01T12:{n:02d}:00Z"
        if kind == "image":
            name, w, h, caption = payload
            image = {}
            if w:
                image["width"], image["height"] = w, h
            image["name"] = name
            r["image"] = image
            r["text"] = caption
        else:
            r["text"] = payload
        lines.append(r)
    # Replies whose quoted original is hostile.
    lines.append({"id": "h90", "type": "text", "from": "Alice", "date": "2024-06-01T13:00:00Z", "replyTo": "h02", "text": "replying to the screen clear"})
    lines.append({"id": "h91", "type": "text", "from": "Alice", "date": "2024-06-01T13:01:00Z", "replyTo": "h21", "text": "replying to the unterminated OSC"})
    lines.append({"id": "h92", "type": "text", "from": "Mallory", "outgoing": True, "date": "2024-06-01T13:02:00Z", "replyTo": "h09", "status": "read", "text": "outgoing, replying to the open bidi override \u202e"})
    with open(out_path, "w", encoding="utf-8") as f:
        for r in lines:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(lines)} records to {out_path}")

main()
