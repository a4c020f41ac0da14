#!/usr/bin/env python3
"""Writes a JSON Lines log of ten short messages around one tall one, for `bubbles bench --viewer`.

    Tools/bench/tall-message-log.py word  > /tmp/tall-word.jsonl    # one word of 15,000,000 letters
    Tools/bench/tall-message-log.py words > /tmp/tall-words.jsonl   # 15 MB of random words, a newline
                                                                     # after about one word in twelve
"""
import json
import random
import sys


def record(i, text, sender):
    return json.dumps({"id": str(i), "type": "text", "from": sender, "date": 1714550400 + i * 60, "text": text},
                      ensure_ascii=False)


def tall_text(kind):
    if kind == "word":
        return "a" * 15_000_000
    random.seed(7)
    parts, size = [], 0
    while size < 14_750_000:
        word = "".join(random.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(random.randint(1, 8)))
        parts.append(word)
        parts.append("\n" if random.random() < 0.08 else " ")
        size += len(word) + 1
    return "".join(parts) + "needle-at-the-end"


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("word", "words"):
        sys.exit("usage: tall-message-log.py word|words")
    lines = [record(i, "short message %d before" % i, "Bob" if i % 2 else "Alice") for i in range(5)]
    lines.append(record(5, tall_text(sys.argv[1]), "Carol"))
    lines += [record(i, "short message %d after" % i, "Bob" if i % 2 else "Alice") for i in range(6, 11)]
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
