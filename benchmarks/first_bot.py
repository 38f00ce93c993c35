"""A trivial external bot for the overhead benchmark: it answers the first legal
move, as fast as Python reads and writes JSON lines (gincli-bot/2)."""

import json
import sys


def main() -> None:
    read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
    while True:
        line = read()
        if not line:
            break
        message = json.loads(line)
        kind = message["type"]
        if kind == "decide":
            reply = message["legal"][0]
        elif kind == "hello":
            reply = {"type": "ready", "name": "first", "version": "1"}
        elif kind == "bye":
            break
        else:
            continue
        reply["id"] = message["id"]
        write(json.dumps(reply) + "\n")
        flush()


if __name__ == "__main__":
    main()
