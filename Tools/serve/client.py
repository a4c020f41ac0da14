#!/usr/bin/env python3
"""A client of `bubbles serve`, using only Python's standard library.

`BubblesService` starts `bubbles serve` as a child process and speaks JSON-RPC 2.0 to it, one
JSON object a line on its standard input and output. Responses may come out of order across
conversations; each is matched to its request by id.

    with BubblesService("bubbles") as service:
        service.call("open", conversation="chat", width=320, units="points",
                     fonts=["NotoSans-Regular.ttf"], size=16, lineHeight=20)
        rows = service.call("append", conversation="chat", messages=[
            {"id": "1", "type": "text", "from": "Ana", "date": "2024-05-01T09:00:00Z", "text": "Hi!"}])["rows"]
        for row in rows:
            print(row["row"], row["id"], row["height"])

Run as a script with --check LOG to append a JSON Lines log, compare every row with what
`bubbles heights` prints for it, then resize, edit and remove a message.
"""

import argparse
import itertools
import json
import subprocess
import sys
import threading


class ServiceError(Exception):
    """A JSON-RPC error response: its code and message."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class BubblesService:
    """`bubbles serve` as a child process; `call` is safe to use from several threads."""

    def __init__(self, bubbles="bubbles", *arguments):
        self._process = subprocess.Popen([bubbles, "serve", *arguments], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, encoding="utf-8")
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._waiting = {}
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self._process.stdout:
            response = json.loads(line)
            slot = self._waiting.pop(response.get("id"), None)
            if slot is not None:
                slot["response"] = response
                slot["done"].set()
        for slot in list(self._waiting.values()):
            slot["done"].set()

    def call(self, method, **params):
        """Sends one request and waits for its response: the result, or ServiceError."""
        slot = {"done": threading.Event(), "response": None}
        with self._lock:
            request_id = next(self._ids)
            self._waiting[request_id] = slot
            line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params},
                              ensure_ascii=False)
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        slot["done"].wait()
        response = slot["response"]
        if response is None:
            raise ServiceError(-1, "the service ended before answering")
        if "error" in response:
            raise ServiceError(response["error"]["code"], response["error"]["message"])
        return response["result"]

    def close(self):
        """Ends the service: end of input, then its exit code."""
        self._process.stdin.close()
        return self._process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def compact(row):
    return json.dumps(row, separators=(",", ":"), ensure_ascii=False)


def check(bubbles, log, width):
    """Appends LOG, compares the rows with `heights`, then resizes, edits and removes."""
    with open(log, encoding="utf-8") as file:
        messages = [json.loads(line) for line in file if line.strip()]
    # serve counts cells as the library does (unicode); heights to a pipe counts for a terminal later.
    heights = subprocess.run([bubbles, "heights", log, "--width", str(width), "--tz", "UTC", "--cell-widths", "unicode"],
                             capture_output=True, text=True, encoding="utf-8", check=False).stdout.splitlines()
    with BubblesService(bubbles) as service:
        service.call("open", conversation="check", width=width, timeZone="UTC")
        service.call("append", conversation="check", messages=messages)
        rows = service.call("rows", conversation="check")["rows"]
        if [compact(row) for row in rows] != [compact(json.loads(line)) for line in heights]:
            print("rows differ from heights", file=sys.stderr)
            return 1
        print(f"{len(rows)} rows match heights")
        resized = service.call("resize", conversation="check", width=width // 2)
        print(f"resized to {resized['width']}: {resized['count']} rows, {resized['height']} rows tall")
        edited = dict(messages[0], text="edited " * 20)
        changed = service.call("update", conversation="check", messages=[edited])["rows"]
        print("edit laid out again:", ", ".join(row["id"] for row in changed))
        after = service.call("remove", conversation="check", ids=[messages[1]["id"]])
        print(f"after removing {messages[1]['id']}: {after['count']} rows")
        stats = service.call("stats")
        print(f"cache: {stats['cache']['hits']} hits, {stats['cache']['misses']} misses, {stats['bytes']} bytes")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bubbles", default="bubbles", help="the bubbles executable (default: bubbles on PATH)")
    parser.add_argument("--check", metavar="LOG", help="append LOG and compare the rows with bubbles heights")
    parser.add_argument("--width", type=int, default=60, help="container width in cells for --check (default 60)")
    arguments = parser.parse_args()
    if arguments.check:
        return check(arguments.bubbles, arguments.check, arguments.width)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
