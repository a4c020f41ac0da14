#!/usr/bin/env python3
"""Checks that two `bubbles heights` outputs give every row the same layout, whatever the order
and row numbers (a sharded run numbers rows per shard). Rows are matched by conversation, id and
width; exits 1 and names the first differences otherwise.

  compare_heights.py single.jsonl spark.jsonl
"""
import json
import sys


def load(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            key = (record.get("conversation"), record["id"], record["width"])
            if key in rows:
                sys.exit(f"{path}: row {key} appears twice")
            rows[key] = {k: v for k, v in record.items() if k != "row"}
    return rows


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    if not a:
        sys.exit(f"{sys.argv[1]}: no rows")
    missing = sorted(set(a) - set(b), key=str)[:5]
    extra = sorted(set(b) - set(a), key=str)[:5]
    differ = [k for k in a if k in b and a[k] != b[k]][:5]
    if missing or extra or differ:
        for k in missing:
            print("only in", sys.argv[1], k)
        for k in extra:
            print("only in", sys.argv[2], k)
        for k in differ:
            print("differs", k, a[k], b[k])
        sys.exit(1)
    print(f"same heights: {len(a)} rows x widths, {len({k[0] for k in a})} conversations")


if __name__ == "__main__":
    main()
