#!/usr/bin/env python3
"""Writes a large native JSON Lines log by repeating a small one (Corpora/logs/sample.jsonl by
default): each copy gets fresh ids (replies follow them) and is moved on by whole days, so copies
never share a day. With --conversations K, copy r belongs to conversation "c<r mod K>" and copies
are interleaved message by message, so every conversation stays in date order while the stream
mixes them (what a cluster job partitions by).

  generate_log.py --messages 150000 > multilingual.jsonl
  generate_log.py --messages 20000 --conversations 8 > multi.jsonl
"""
import argparse
import datetime
import json
import os
import sys

SAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Corpora", "logs", "sample.jsonl")


def unix_seconds(value):
    if isinstance(value, (int, float)):
        return float(value)
    return datetime.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", default=SAMPLE)
    parser.add_argument("--messages", type=int, default=150000)
    parser.add_argument("--conversations", type=int, default=0)
    args = parser.parse_args()

    with open(args.source, encoding="utf-8") as f:
        base = [json.loads(line) for line in f if line.strip()]
    start = min(unix_seconds(r["date"]) for r in base)
    span_days = int((max(unix_seconds(r["date"]) for r in base) - start) // 86400) + 2

    def copy(r):
        for record in base:
            out = dict(record)
            out["id"] = f"{record['id']}-{r}"
            if "replyTo" in out:
                out["replyTo"] = f"{out['replyTo']}-{r}"
            out["date"] = int(unix_seconds(record["date"]) + 86400 * span_days * (r if not args.conversations else r // args.conversations))
            if args.conversations:
                out["conversation"] = f"c{r % args.conversations}"
            yield out

    write = sys.stdout.write
    written = 0
    r = 0
    if not args.conversations:
        while written < args.messages:
            for out in copy(r):
                if written == args.messages:
                    break
                write(json.dumps(out, ensure_ascii=False) + "\n")
                written += 1
            r += 1
        return
    # Interleave K copies at a time, one message from each in turn.
    while written < args.messages:
        batch = [list(copy(r + k)) for k in range(args.conversations)]
        for i in range(len(base)):
            for b in batch:
                if written == args.messages:
                    return
                write(json.dumps(b[i], ensure_ascii=False) + "\n")
                written += 1
        r += args.conversations


if __name__ == "__main__":
    main()
