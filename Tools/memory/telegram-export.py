#!/usr/bin/env python3
"""Writes a large Telegram Desktop full export (result.json) to standard output, for memory runs.

    Tools/memory/telegram-export.py MEGABYTES > /tmp/result.json

Two chats in Telegram Desktop's shape (a full export: personal_information, then chats.list with
each chat's name, type, id and messages, pretty-printed with one-space indents as it writes them),
messages of about 300 bytes each, until the file is about MEGABYTES MiB. Made up, never a real chat.
"""
import sys

target = int(sys.argv[1]) << 20 if len(sys.argv) > 1 else 300 << 20
out = sys.stdout
written = 0


def put(text):
    global written
    out.write(text)
    written += len(text.encode())


put('{\n "personal_information": {\n  "user_id": 1000,\n  "first_name": "Ann",\n  "last_name": ""\n },\n')
put(' "chats": {\n  "about": "This page lists all chats from this export.",\n  "list": [\n')
words = "the climbing wall opens at nine and we meet by the blue route after work".split()
for chat in range(2):
    put('   {\n    "name": "%s",\n    "type": "personal_chat",\n    "id": %d,\n    "messages": [\n' % (["Bob", "Cleo"][chat], 2000 + chat))
    i = 0
    share = target // 2 * (chat + 1)
    while True:
        i += 1
        sender = ("Ann", "user1000") if i % 3 == 0 else (["Bob", "Cleo"][chat], "user%d" % (2000 + chat))
        text = " ".join(words[(i + k) % len(words)] for k in range(6 + i % 9))
        put('     {\n      "id": %d,\n      "type": "message",\n      "date": "2024-05-01T10:02:00",\n'
            '      "date_unixtime": "%d",\n      "from": "%s",\n      "from_id": "%s",\n'
            '      "text": "%s %d",\n      "text_entities": [\n       {\n        "type": "plain",\n'
            '        "text": "%s %d"\n       }\n      ]\n     }' % (i, 1714557720 + i * 7, sender[0], sender[1], text, i, text, i))
        if written >= share:
            put('\n    ]\n   }%s\n' % ("," if chat == 0 else ""))
            break
        put(',\n')
put('  ]\n }\n}\n')
