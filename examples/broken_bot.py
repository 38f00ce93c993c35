#!/usr/bin/env python3
"""A bot with two classic faults, to see what gincli tells its author
(docs/bot-protocol.md, "Debugging a bot"):

- it prints a debugging line on its standard output at the wall (the last turn),
  where only replies belong: a protocol error, the hand forfeited;
- it discards the card it has just taken from the discard pile, which the rules
  forbid: an illegal move, the hand forfeited.

    gin bots check exec:"python3 examples/broken_bot.py"
"""

import json
import sys


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":  # a new session: what it logs goes to standard error (gin match --bot-log DIR)
            print(f"broken 0.1: a new session, seed {message['seed']}", file=sys.stderr, flush=True)
            reply = {"type": "ready", "name": "broken", "version": "0.1"}
        elif kind == "decide":
            view = message["view"]
            if view["stock_count"] == 2 and view["phase"] == "discard":
                print("at the wall, thinking...", flush=True)  # fault 1: this belongs on stderr
            # fault 2: when it took a card, it discards the card just taken
            reply = {"action": "discard", "card": view["taken"]} if view["taken"] else dict(message["legal"][0])
        elif kind == "bye":
            break
        else:
            continue
        reply["id"] = message["id"]
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
