"""Fuzz ``gin score`` and ``gin validate`` with mutated hand records and transcripts.

Valid inputs (the examples, and their declared spreads) are mutated: fields
dropped, duplicated, retyped or renamed, lists emptied or cut short, cards
swapped for the other player's or for unknown ones, huge numbers, NaN, values
moved to the wrong place. Each mutant is scored or replayed in this process
(the code the commands run on each record, every output format) and flagged
when an exception escapes, when an error message shows internal exception
text (``IndexError: ...``, ``'NoneType' object ...``) or the last-resort
"bug in gincli" sentence, when a failing transcript loses the hands it had
finished, or when one input takes more than a few seconds. A finding is cut
down to a small input that still shows it and, with ``--save``, kept in
``tests/corpus/fuzz/`` (which ``tests/test_fuzz_corpus.py`` runs through the
real commands)::

    python tests/fuzz_records.py --seconds 60            # report what it finds
    python tests/fuzz_records.py --seconds 600 --save    # and keep it in the corpus
    python tests/fuzz_records.py --check                 # the corpus only: exit 1 if one still fails

It runs on one core. ``--seed`` repeats a run.
"""

from __future__ import annotations

import argparse
import copy
import csv
import hashlib
import io
import json
import math
import os
import random
import re
import signal
import sys
import time
import tomllib
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CORPUS = ROOT / "tests" / "corpus" / "fuzz"

#: Text that only an exception of Python's, never a sentence about the input, holds.
INTERNAL = re.compile(
    r"Traceback|\b[A-Z][A-Za-z]*(Error|Exception|Interrupt|Iteration)\b:|object has no attribute|list index|"
    r"index out of range|pop from|unhashable|NoneType|object is not (subscriptable|iterable|callable)|"
    r"not supported between|unsupported operand|positional argument|unexpected keyword|invalid literal for|"
    r"can't multiply|must be str, not|must be real number|argument of type|object of type|not JSON serializable|"
    r"'(dict|list|str|int|float|bool|tuple|set)' object|maximum recursion|cannot convert float|"
    r"math domain error|int too large|exceeds the limit|division by zero")
#: The last-resort sentence: a record that reached it found a bug.
FALLBACK = "a bug in gincli"
#: Mutants kept to be mutated further, at most (for each command).
POOL = 2000
#: Seconds one input may take before it is a finding.
SLOW = 5.0

RANKS, SUITS = "A23456789TJQK", "shdc"
ALL_CARDS = [r + s for s in SUITS for r in RANKS]
FIELDS = ["id", "variant", "upcard", "knocker", "hands", "melds", "layoffs", "multiplier", "outcome", "offerer",
          "format", "scoring", "options", "players", "cut", "deck", "deal", "moves", "result", "dealer", "player",
          "action", "from", "card", "cards", "forfeit", "stalled", "plugins", "winner", "points", "reason", "games",
          "scores", "totals", "box", "teams", "capped"]
WORDS = ["standard", "oklahoma", "doubling", "gin-only", "round-the-corner", "nope", "game", "hand", "hollywood",
         "match-500", "cutthroat", "chouette", "partnership", "eaai", "pass", "draw", "discard", "knock", "layoff",
         "double", "accept", "decline", "stock", "discard", "declined", "gin", "big_gin", "knock", "undercut",
         "dead", "forfeit", "upcard", "off", "winner", "high", "gincli-transcript/1", "ann", "bob", "cat", "dan"]
ODD = [None, True, False, 0, -1, 1, 2, 3, 10, 11, 52, 2001, 10**30, -10**30, 2**63, 1.5, -0.0, 1e308,
       "", "x", "Xx", "1s", "AS", "10♥", "T♦", "As", "\ud800", " ",
       [], {}, [[]], [{}], {"": []}, [None], ["As"], [["As", "2s", "3s"]], {"ann": []}]


# -- the seeds ------------------------------------------------------------------------------------

def seed_records() -> list[Any]:
    """Valid hand records: the examples, each also with its spread declared as scored."""
    records = []
    for name in ("hands.jsonl", "bad-hands.jsonl", "corner.jsonl"):
        for line in (EXAMPLES / name).read_text().splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                pass
    records.append(tomllib.loads((EXAMPLES / "hand.toml").read_text()))
    plain = [r for r in records if isinstance(r, dict) and r.get("variant") in (None, "standard")]
    records += [dict(r, variant="doubling", multiplier=2) for r in plain[:2]]
    records.append({"id": "declined", "variant": "doubling", "outcome": "declined", "offerer": "ann",
                    "multiplier": 2, "hands": plain[-1]["hands"]})
    records.append(dict(plain[0], variant="gin-only"))
    declared = []
    for r, result in zip(records, score_all(records), strict=True):
        k, d = result.get("knocker"), result.get("defender")
        if k and d:
            declared.append(dict(r, melds={k["name"]: k["melds"], d["name"]: d["melds"]}, layoffs=d["layoffs"]))
    return records + declared


def seed_transcripts() -> list[Any]:
    """Valid transcripts: the examples, long ones cut to their first hands (no claimed session result)."""
    docs = []
    for path in sorted(EXAMPLES.glob("*.json")):
        doc = json.loads(path.read_text())
        if not isinstance(doc, dict) or "format" not in doc:
            continue
        docs.append(doc)
        if len(doc["hands"]) > 3:
            for n in (1, 3):
                short = dict(doc, hands=doc["hands"][:n], id=f"{doc.get('id')}-{n}")
                short.pop("result", None)
                docs.append(short)
    return docs


# -- mutation -------------------------------------------------------------------------------------

def paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every node's path (keys and indexes from the root), the root first, parents before children."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, path + (i,))
    return out


def get(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def put(root: Any, path: tuple, new: Any) -> Any:
    """``root`` with the node at ``path`` replaced (the root itself when the path is empty)."""
    if not path:
        return new
    get(root, path[:-1])[path[-1]] = new
    return root


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return list(value) + [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def mutate(value: Any, rng: random.Random, times: int | None = None) -> Any:
    """A mutant of ``value`` (a copy): one to four mutations at nodes chosen at random."""
    value = copy.deepcopy(value)
    for _ in range(times or rng.choice((1, 1, 1, 2, 2, 3, 4))):
        value = _mutate_once(value, rng)
    return value


def _mutate_once(root: Any, rng: random.Random) -> Any:
    nodes = paths(root)
    path = rng.choice(nodes)
    while "deck" in path and rng.random() < 0.9:  # 52 cards a hand: the rest would hardly be reached
        path = rng.choice(nodes)
    node = get(root, path)
    parent = get(root, path[:-1]) if path else None
    texts = strings(root) or ["x"]
    cards = [s for s in texts if s in ALL_CARDS] or ALL_CARDS
    op = rng.randrange(16)
    if op == 0 and parent is not None:  # drop
        del parent[path[-1]]
        return root
    if op == 1 and isinstance(parent, list):  # duplicate
        parent.insert(path[-1], copy.deepcopy(node))
        return root
    if op == 2:  # retype
        return put(root, path, copy.deepcopy(rng.choice(ODD)) if rng.random() < 0.9 else
                   rng.choice([math.nan, math.inf, -math.inf]))
    if op == 3:  # a value from elsewhere: wrong nesting
        return put(root, path, copy.deepcopy(get(root, rng.choice(nodes))))
    if op == 4 and isinstance(node, str):  # another card: the other player's, one twice, or any
        return put(root, path, rng.choice(cards) if rng.random() < 0.7 else rng.choice(ALL_CARDS))
    if op == 5:  # wrap
        return put(root, path, [node] if rng.random() < 0.6 else {rng.choice(FIELDS + texts): node})
    if op == 6 and isinstance(node, (list, dict)) and node:  # unwrap
        return put(root, path, rng.choice(list(node.values()) if isinstance(node, dict) else node))
    if op == 7:  # empty
        return put(root, path, type(node)() if isinstance(node, (list, dict, str)) else None)
    if op == 8 and isinstance(node, list) and node:  # cut short
        del node[rng.randrange(len(node)):]
        return root
    if op == 9 and isinstance(node, (int, float)) and not isinstance(node, bool):  # numbers
        return put(root, path, rng.choice([0, -1, -node, node * 2, node + 1, 10**rng.randrange(3, 40), node + 0.5,
                                           str(node), True, None]))
    if op == 10 and isinstance(node, dict):  # a field where it does not belong
        node[rng.choice(FIELDS)] = copy.deepcopy(rng.choice(ODD + [get(root, rng.choice(nodes))]))
        return root
    if op == 11 and isinstance(node, list) and len(node) > 1:  # swap
        i, j = rng.sample(range(len(node)), 2)
        node[i], node[j] = node[j], node[i]
        return root
    if op == 12 and isinstance(node, dict) and node:  # rename a key
        key = rng.choice(list(node))
        node[rng.choice(FIELDS + texts + WORDS)] = node.pop(key)
        return root
    if op == 13 and isinstance(node, str):  # another word: a name, a field's value elsewhere
        return put(root, path, rng.choice(texts + WORDS))
    if op == 14 and isinstance(node, list):  # one card more: a meld of five, a hand of eleven
        node.insert(rng.randrange(len(node) + 1), rng.choice(cards) if rng.random() < 0.5 else rng.choice(ALL_CARDS))
        return root
    lists = [p for p in nodes if isinstance(get(root, p), list) and p != path and p[:len(path)] != path]
    if op == 15 and isinstance(node, list) and lists:  # two lists as one: two melds, a meld and a hand
        node.extend(copy.deepcopy(get(root, rng.choice(lists))))
        return root
    return put(root, path, copy.deepcopy(rng.choice(ODD)))


def encode(value: Any) -> bytes:
    """A mutant as one line of JSON Lines (NaN and Infinity as the tokens a hostile file holds)."""
    text = json.dumps(value, allow_nan=True, ensure_ascii=False)
    try:
        return text.encode() + b"\n"
    except UnicodeEncodeError:  # a lone surrogate: escaped, as JSON writes it
        return json.dumps(value, allow_nan=True).encode() + b"\n"


# -- running one input ----------------------------------------------------------------------------

_STATE: dict[str, Any] = {}


def _states() -> dict[str, Any]:
    if not _STATE:
        from gincli.cli import score, validate
        from gincli.formats.records import HandScorer
        from gincli.plugin.registry import load_registry
        from gincli.work.validate import validation_defaults

        registry = load_registry()
        _STATE["score"] = {m: score.chunk_state(HandScorer(registry, None), m, False) for m in ("json", "text", "csv")}
        defaults = validation_defaults(registry, None, None, {})
        _STATE["validate"] = {m: validate.chunk_state(registry, defaults, m, False)
                              for m in ("json", "text", "brief", "csv")}
    return _STATE


def score_all(records: list[Any]) -> list[dict[str, Any]]:
    from gincli.formats.containers import Item
    from gincli.work.score import json_lines, score_chunk

    items = [Item("<fuzz>", i, i + 1, None, raw=encode(r)) for i, r in enumerate(records)]
    state = {k: v for k, v in _states()["score"]["json"].items() if k != "finish"}  # each record, not the chunk's text
    done = score_chunk(state, items)
    return [json.loads(line) for line in json_lines(done.records).splitlines()]


def run_one(kind: str, raw: bytes, mode: str = "json") -> tuple[list[str], list[str]]:
    """Score (``kind`` "score") or replay ("validate") one input in ``mode``: the
    error messages it gives, and what is wrong with its output (hands lost)."""
    from gincli.formats.containers import Item

    item = Item("<fuzz>", 0, 1, None, raw=raw)
    if kind == "score":
        from gincli.work.score import Failure, json_lines, score_chunk

        state = _states()["score"][mode]
        if mode != "text":  # each record, not the chunk's text that JSON and CSV are joined into
            state = {k: v for k, v in state.items() if k != "finish"}
        records = score_chunk(state, [item]).records
        if mode != "json":  # what a face writes of a failure is its message
            return [r.message for r in records if isinstance(r, Failure)], []
        return [entry["error"] for entry in map(json.loads, json_lines(records).splitlines()) if "error" in entry], []
    from gincli.work.validate import validate_chunk

    text = validate_chunk(_states()["validate"][mode], [item]).text
    if mode == "csv":
        return [row["message"] for row in csv.DictReader(io.StringIO(text)) if row["message"]], []
    if mode != "json":
        return [text], []
    report = json.loads(text)
    problems = []
    for fault in report["errors"][:1]:
        if fault["hand"] is not None and len(report["hands"]) != fault["hand"]:
            problems.append(f"the fault is at hand {fault['hand']} but {len(report['hands'])} hands are kept "
                            f"({fault['rule']})")
    return [fault["message"] for fault in report["errors"]], problems


class Slow(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Slow()


def signature(kind: str, raw: bytes, mode: str = "json") -> str | None:
    """What is wrong with one input, as a key that names its cause (the exception
    and the function of gincli's that raised it, or the message's shape); None
    when nothing is."""
    def where(exc: BaseException) -> str:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f"{os.sep}gincli{os.sep}" in f.filename]
        f = frames[-1] if frames else traceback.extract_tb(exc.__traceback__)[-1]
        return f"{type(exc).__name__} in {Path(f.filename).stem}.{f.name}"

    # With the tracebacks on, what would become the last-resort sentence goes on as the
    # exception, which names its cause; the other messages are the same.
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, SLOW)
    before = os.environ.get("GINCLI_DEBUG")
    os.environ["GINCLI_DEBUG"] = "1"
    try:
        messages, problems = run_one(kind, raw, mode)
    except Slow:
        return f"{kind}: slower than {SLOW:g} s"
    except Exception as exc:
        return f"{kind}: {where(exc)}"
    finally:
        if before is None:
            del os.environ["GINCLI_DEBUG"]
        else:
            os.environ["GINCLI_DEBUG"] = before
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    bad = [m for m in messages if INTERNAL.search(m) or FALLBACK in m]
    if problems:
        return f"{kind}: {shape(problems[0])}"
    if bad:
        return f"{kind}: message {shape(bad[0])}"
    return None


def shape(message: str) -> str:
    """A message with what comes from the input taken out: quoted text, numbers, cards, names."""
    message = re.sub(r"….*", "", message)
    message = re.sub(r'"[^"]*"|\'[^\']*\'', "Q", message)
    message = re.sub(r"\bnot [\[{].*", "not V", message)
    message = re.sub(r"\b(10|[A2-9TJQK])[shdc♠♥♦♣]\b", "C", message)
    message = re.sub(r"\b(ann|bob|cat|dan)\b", "P", message)
    return re.sub(r"\d+", "N", message)[:120]


# -- cutting a finding down -----------------------------------------------------------------------

def minimise(value: Any, still: Callable[[Any], bool], seconds: float = 20.0) -> Any:
    """A smaller value for which ``still`` holds: nodes dropped and lists halved,
    biggest first, while it holds (at most ``seconds``)."""
    end = time.monotonic() + seconds
    progress = True
    while progress and time.monotonic() < end:
        progress = False
        for path in paths(value):
            if time.monotonic() > end:
                break
            for candidate in _shrinks(value, path):
                if still(candidate):
                    value, progress = candidate, True
                    break
            if progress:
                break
    return value


def _shrinks(root: Any, path: tuple) -> list[Any]:
    out = []
    node = get(root, path)
    if isinstance(node, list) and len(node) > 1:
        half = len(node) // 2
        for part in (node[:half], node[half:]):
            out.append(put(copy.deepcopy(root), path, copy.deepcopy(part)))
    if path:
        smaller = copy.deepcopy(root)
        del get(smaller, path[:-1])[path[-1]]
        out.append(smaller)
    return out


# -- the corpus -----------------------------------------------------------------------------------

def corpus_files(kind: str) -> list[Path]:
    return sorted((CORPUS / kind).glob("*.jsonl"))


def slug(sig: str) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", sig.split(": ", 1)[-1].lower()).strip("-")[:48].strip("-")
    return f"{words}-{hashlib.sha1(sig.encode()).hexdigest()[:6]}"


def check_corpus() -> int:
    failing = 0
    for kind in ("score", "validate"):
        for path in corpus_files(kind):
            for mode in MODES[kind]:
                sig = signature(kind, path.read_bytes(), mode)
                if sig is not None:
                    failing += 1
                    print(f"{path.relative_to(ROOT)} ({mode}): {sig}")
                    break
    total = len(corpus_files("score")) + len(corpus_files("validate"))
    print(f"corpus: {total} inputs, {failing} still failing")
    return 1 if failing else 0


MODES = {"score": ("json", "text", "csv"), "validate": ("json", "brief", "text", "csv")}


def fuzz(seconds: float, rng: random.Random, save: bool, quiet: bool) -> int:
    pools = {"score": seed_records(), "validate": seed_transcripts()}
    seen_messages: set[str] = set()
    found: dict[str, Path | None] = {}
    runs = {"score": 0, "validate": 0}
    spent = {"score": 1e-9, "validate": 1e-9}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        kind = min(spent, key=spent.get)  # the same time on each
        start = time.monotonic()
        parent = rng.choice(pools[kind])
        child = mutate(parent, rng)
        raw = encode(child)
        mode = "json" if rng.random() < 0.7 else rng.choice(MODES[kind])
        sig = signature(kind, raw, mode)
        runs[kind] += 1
        if sig is None and mode == "json":
            # A mutant that gives a message not seen before is kept, to be mutated further.
            try:
                shapes = {shape(m) for m in run_one(kind, raw)[0]}
            except Exception:
                shapes = set()
            if shapes - seen_messages:
                seen_messages |= shapes
                pool = pools[kind]
                if len(pool) < POOL:
                    pool.append(child)
                else:
                    pool[rng.randrange(len(pool))] = child
        elif sig is not None and sig not in found:
            small = minimise(child, lambda v, kind=kind, mode=mode, sig=sig: signature(kind, encode(v), mode) == sig)
            path = None
            if save:
                path = CORPUS / kind / f"{slug(sig)}.jsonl"
                path.parent.mkdir(parents=True, exist_ok=True)
                if not path.exists():
                    path.write_bytes(encode(small))
            found[sig] = path
            print(f"found: {sig}\n  {encode(small).decode('utf-8', 'replace')[:300].rstrip()}"
                  + (f"\n  kept in {path.relative_to(ROOT)}" if path else ""), flush=True)
        spent[kind] += time.monotonic() - start
        if not quiet and sum(runs.values()) % 2000 == 0:
            print(f"  {runs['score']:,} records, {runs['validate']:,} transcripts, {len(found)} findings, "
                  f"{len(seen_messages)} messages", file=sys.stderr, flush=True)
    print(f"fuzzed {runs['score']:,} records and {runs['validate']:,} transcripts in {seconds:g} s: "
          f"{len(found)} distinct findings, {len(seen_messages)} distinct messages")
    return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="the random seed (default: random, printed)")
    parser.add_argument("--save", action="store_true", help="keep each finding in tests/corpus/fuzz/")
    parser.add_argument("--check", action="store_true", help="only run the corpus; exit 1 if an input still fails")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    import tempfile

    os.environ["GINCLI_CONFIG_DIR"] = tempfile.mkdtemp(prefix="gin-fuzz-")  # none of the user's plugins or config
    if args.check:
        return check_corpus()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"seed {seed}")
    return fuzz(args.seconds, random.Random(seed), args.save, args.quiet)


if __name__ == "__main__":
    sys.exit(main())
