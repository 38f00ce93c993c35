"""The optional C accelerator of ``gin score``'s hot path
(``gincli/rulebook/_stdscore.c``) against its pure-Python reference
(``scoring.plain_pieces``) and the brute force of tests/reference.py: the same
answers, text for text; and ``gin score`` writing the same bytes with it and
without it (``GINCLI_PURE=1``). tests/test_score_fast.py runs its hot-path tests
under both too. Its tables are the ones the Python writes; it and the learning
environments' compiled play (``gincli/rl/_stdplay.c``), both on the one header
of the standard melds (``_melds.h``), and the search of a plugin's meld rules
(``gincli/rulebook/_meldsearch.c``; tests/test_meld_search.py holds it to a brute
force), all on the one header of the bit operations (``_bits.h``), build
warning-free with each compiler here (GCC, Clang), each build answering as the
Python does, and read as MSVC reads them."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

import pytest
import reference as ref
from conftest import ROOT
from hypothesis import example, given, settings, strategies as st

from gincli.rulebook import meldrules, melds as std_melds, scoring
from gincli.rulebook.cards import card_str

try:
    from gincli.rulebook._stdscore import labels as compiled_labels, plain as compiled, spreads as compiled_spreads
except ImportError:  # not built: test_the_accelerator_is_built_where_a_compiler_is says whether it should be
    compiled = compiled_spreads = compiled_labels = None

try:
    from gincli.rulebook._stdscore import deadwood as compiled_deadwood
except ImportError:
    compiled_deadwood = None

try:
    from gincli.rulebook._meldsearch import Search as compiled_search
except ImportError:
    compiled_search = None

needs_compiled = pytest.mark.skipif(compiled is None, reason="the accelerator is not built here")


def _compiler() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "").split()
    return shutil.which(cc[0]) if cc else None


def test_the_accelerator_is_built_where_a_compiler_is():
    """pip install builds it from source wherever Python's C compiler is (as in CI):
    then it is the one the hot path runs, unless GINCLI_PURE=1 says otherwise."""
    if _compiler() is None:
        assert compiled is None or (os.environ.get("GINCLI_PURE", "") in ("", "0")) == scoring.ACCELERATED
        return
    assert compiled is not None, "a C compiler is here, but gincli.rulebook._stdscore was not built"
    assert compiled_search is not None, "a C compiler is here, but gincli.rulebook._meldsearch was not built"
    assert importlib.util.find_spec("gincli.base._heap") is not None, "a C compiler is here, but _heap was not built"
    assert (os.environ.get("GINCLI_PURE", "") in ("", "0")) == scoring.ACCELERATED == meldrules.ACCELERATED


def test_gincli_pure_turns_the_accelerator_off(tmp_path):
    """(In a folder of its own: from a checkout, ``python -c`` would import the
    checkout's gincli, which an install from it does not build in place.)"""
    code = ("from gincli.rulebook import meldrules, scoring; "
            "print(scoring.ACCELERATED, scoring._plain is scoring.plain_pieces, meldrules.ACCELERATED)")
    env = dict(os.environ, GINCLI_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout
    assert out.split() == ["False", "True", "False"]
    env["GINCLI_PURE"] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout
    assert out.split() == [str(compiled is not None), str(compiled is None), str(compiled_search is not None)]


def deal_knock(rng: random.Random) -> tuple[int, int]:
    """A knocker's ten cards mostly in melds (sets, four of a kind, runs, cards
    in both a set and a run, so that the choices and the layoffs all come up),
    the defender's ten from the rest of the deck, often what extends the
    knocker's melds: two card masks."""
    deck = list(range(52))
    rng.shuffle(deck)
    knocker: list[int] = []
    for _ in range(rng.randint(0, 8)):
        r, s = deck[0] % 13, deck[0] // 13
        if rng.random() < 0.5:
            meld = [t * 13 + r for t in range(4) if t * 13 + r in deck][:rng.randint(3, 4)]
        else:
            meld = [s * 13 + x for x in range(r, min(13, r + rng.randint(3, 6))) if s * 13 + x in deck]
        if len(meld) >= 3 and len(knocker) + len(meld) <= 10:
            knocker += meld
            deck = [c for c in deck if c not in meld]
        else:
            deck = deck[1:] + deck[:1]
    low = [c for c in deck if c % 13 < rng.choice((2, 4, 6, 13))]
    knocker += low[:10 - len(knocker)]
    deck = [c for c in deck if c not in knocker]
    knocker += deck[:10 - len(knocker)]
    deck = [c for c in deck if c not in knocker]
    if rng.random() < 0.5:
        near = [c for c in deck if any(abs(c - k) == 1 and c // 13 == k // 13 or c % 13 == k % 13 for k in knocker)]
        deck = near + [c for c in deck if c not in near]
    return sum(1 << c for c in knocker), sum(1 << c for c in deck[:10])


knocks = st.randoms(use_true_random=False).map(deal_knock)


@needs_compiled
@settings(max_examples=1500, deadline=None)
@given(knocks, st.sampled_from((10, 0, 5, 51)))
@example((2696434171904, 35236450273412), 10)  # two ways to lay off that tie: the first is taken
@example((549771526144, 41787952472082), 10)
def test_the_accelerator_answers_as_the_pure_python_does(hands, limit):
    k, d = hands
    assert compiled(k, d, limit) == scoring.plain_pieces(k, d, limit)


@st.composite
def any_knock(draw: st.DrawFn) -> tuple[int, int]:
    """Any ten cards for the knocker (now and then eleven, as for big gin) and
    any ten of the rest for the defender: two card masks."""
    deck = draw(st.permutations(range(52)))
    n = draw(st.sampled_from((10, 10, 10, 11)))
    return sum(1 << c for c in deck[:n]), sum(1 << c for c in deck[n:n + 10])


@needs_compiled
@settings(max_examples=1000, deadline=None)
@given(st.one_of(knocks, any_knock()), st.integers(-1, 120))
def test_the_accelerator_answers_as_the_pure_python_does_on_any_hands_and_limits(hands, limit):
    """Whatever the hands and the knock limit: the compiled path and the one
    definition in Python (plain_pieces, through scoring.defend) agree, None for a
    knock over the limit included."""
    k, d = hands
    assert compiled(k, d, limit) == scoring.plain_pieces(k, d, limit)
    assert compiled_spreads(k, d, limit) == scoring.plain_spreads(k, d, limit)
    assert compiled_labels(k, d, limit) == scoring.plain_labels(k, d, limit)


@needs_compiled
def test_the_accelerator_answers_as_the_pure_python_does_on_many_deals():
    """20,000 deals of one seed: ties between layoffs (as much deadwood left, as
    many cards laid) come up about once in a thousand, and are broken the same way;
    the spreads (gin score for people, as CSV) as the texts (as JSON)."""
    rng = random.Random(2026)
    for _ in range(20_000):
        k, d = deal_knock(rng)
        assert compiled(k, d, 10) == scoring.plain_pieces(k, d, 10), (k, d)
        assert compiled_spreads(k, d, 10) == scoring.plain_spreads(k, d, 10), (k, d)
        assert compiled_labels(k, d, 10) == scoring.plain_labels(k, d, 10), (k, d)


@needs_compiled
@settings(max_examples=200, deadline=None)
@given(knocks)
def test_the_accelerator_scores_as_the_brute_force_does(hands):
    k, d = hands
    k_dw, d_dw, *texts = compiled(k, d, 100)
    k_hand = frozenset(ref.card(card_str(c)) for c in range(52) if k >> c & 1)
    d_hand = frozenset(ref.card(card_str(c)) for c in range(52) if d >> c & 1)
    assert k_dw == ref.min_deadwood(k_hand)
    outcome, _, points = ref.score_hand(k_hand, d_hand)
    if outcome == "gin":
        assert (d_dw + 25, texts[3]) == (points, "")
    elif outcome == "knock":
        assert d_dw - k_dw == points
    else:
        assert k_dw - d_dw + 25 == points


@needs_compiled
@pytest.mark.parametrize("k, d, error", [
    (1 << 52, 0, ValueError),  # not a card
    ((1 << 12) - 1, 0, ValueError),  # twelve cards
    (-1, 0, OverflowError),
    ("As", 0, TypeError),
])
def test_the_accelerator_refuses_what_it_was_not_built_for(k, d, error):
    with pytest.raises(error):
        compiled(k, d, 10)
    with pytest.raises(TypeError):
        compiled(0, 0)  # type: ignore[call-arg]


hands = st.lists(st.integers(0, 51), max_size=12, unique=True).map(lambda cards: sum(1 << c for c in cards))


@needs_compiled
@settings(max_examples=1500, deadline=None)
@given(hands)
@example(0x8004002001 | 0x8004002001 << 1 | 0x8004002001 << 2)  # three ranks of four: every way of the sets tried
@example(0b111 | 0b111 << 13 | 0b111 << 26 | 1 << 39)  # runs or sets of the same nine cards, and one more
def test_the_compiled_deadwood_answers_as_the_python_and_the_brute_force_do(mask):
    """Melds and deadwood: the least deadwood the engine, the views and the bots ask
    of the rule book's melds (``STANDARD.deadwood``) is the compiled twin's where it
    is built, and gives melds.py's answer and the brute force's, for any hand of up
    to twelve cards."""
    assert meldrules.STANDARD.deadwood is compiled_deadwood
    expected = std_melds.deadwood(mask)
    assert compiled_deadwood(mask) == expected
    if mask.bit_count() <= 11:
        assert expected == ref.min_deadwood(frozenset(ref.card(card_str(c)) for c in range(52) if mask >> c & 1))


@needs_compiled
@pytest.mark.parametrize("mask, error", [(1 << 52, ValueError), (-1, OverflowError), ("As", TypeError)])
def test_the_compiled_deadwood_refuses_what_is_no_hand(mask, error):
    with pytest.raises(error):
        compiled_deadwood(mask)


#: Files of records of every kind: plain, declared melds and layoffs, errors,
#: dead hands, other variants (oklahoma, round the corner, doubling).
FILES = ["examples/hands.jsonl", "examples/bad-hands.jsonl", "examples/corner.jsonl", "examples/hand.toml"]


@needs_compiled
@pytest.mark.parametrize("args", [
    ["--format", "json"], ["--format", "json", "--summary"], ["--format", "csv"],
    ["--format", "text"], ["--format", "json", "--variant", "oklahoma"], ["--format", "json", "--variant", "gin-only"],
    ["--format", "json", "--option", "corner_runs=true"], ["--format", "json", "--option", "gin_bonus=30"],
    ["--format", "json", "--variant", "doubling"],
])
def test_gin_score_writes_the_same_bytes_with_the_accelerator_and_without(args, tmp_path):
    rng = random.Random(25)
    with open(tmp_path / "knocks.jsonl", "w") as out:
        for i in range(400):
            k, d = deal_knock(rng)
            hands = {"ann": [card_str(c) for c in range(52) if k >> c & 1],
                     "bob": [card_str(c) for c in range(52) if d >> c & 1]}
            out.write(json.dumps({"id": i, "hands": hands, "knocker": "ann" if i % 7 else None,
                                  "upcard": card_str(next(c for c in range(52) if not (k | d) >> c & 1))}) + "\n")
    files = [*(str(ROOT / f) for f in FILES), str(tmp_path / "knocks.jsonl")]

    def run(pure: str) -> tuple[bytes, bytes, int]:
        env = dict(os.environ, GINCLI_PURE=pure, NO_COLOR="1")
        done = subprocess.run([sys.executable, "-m", "gincli", "score", "-q", "--workers", "1", *args, *files], env=env,
                              capture_output=True, cwd=tmp_path)
        return done.stdout, done.stderr, done.returncode

    fast, pure = run("0"), run("1")
    assert fast == pure
    check = "from gincli.rulebook import scoring; print(scoring.ACCELERATED)"
    assert subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=tmp_path,
                          env=dict(os.environ, GINCLI_PURE="0")).stdout.split() == ["True"]  # the gin that ran
    assert fast[0]  # something was written


def test_the_tables_header_is_what_the_python_definition_writes():
    """_stdscore.c's tables and constants come from the rule book's Python
    (cards.py, melds.py) through gincli/rulebook/_stdscore_tables.py: the header
    committed is the one it writes now, so a change to the rules there cannot
    leave the compiled path behind."""
    from gincli.rulebook import _stdscore_tables

    committed = (ROOT / "gincli/rulebook/_stdscore_tables.h").read_text(encoding="utf-8")
    assert committed == _stdscore_tables.header(), (
        "gincli/rulebook/_stdscore_tables.h is out of date: run python -m gincli.rulebook._stdscore_tables")


#: How the builds below compile: standard C with every warning, each an error (no
#: compiler's extensions, no arrays sized at run time: what MSVC builds too).
STRICT = ["-std=c11", "-pedantic", "-Wall", "-Wextra", "-Wvla", "-Werror"]


#: The compiled modules, each by its source: all but _meldsearch stand on the rule
#: book's one header of the standard melds (gincli/rulebook/_melds.h), all on
#: that of the bit operations (gincli/rulebook/_bits.h).
SOURCES = {"_stdscore": ROOT / "gincli/rulebook/_stdscore.c", "_stdplay": ROOT / "gincli/rl/_stdplay.c",
           "_meldsearch": ROOT / "gincli/rulebook/_meldsearch.c", "_playout": ROOT / "gincli/hand/_playout.c",
           "_heap": ROOT / "gincli/base/_heap.c"}
#: The headers each includes.
HEADERS = {"_stdscore": {"_bits.h", "_melds.h", "_stdscore_tables.h", "_knock.h"},
           "_stdplay": {"_bits.h", "_melds.h", "_stdscore_tables.h"}, "_meldsearch": {"_bits.h"},
           "_playout": {"_bits.h", "_melds.h", "_stdscore_tables.h", "_knock.h"}, "_heap": set()}


def build(cc: str, name: str, folder: Path, *flags: str, source: Path | None = None) -> ModuleType:
    """The compiled module ``name`` (of SOURCES, or ``source``: a copy of its
    source) built with the compiler ``cc`` into ``folder``, loaded (a build's
    warnings fail the test: see STRICT)."""
    target = folder / (name + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    done = subprocess.run([cc, "-O2", "-shared", "-fPIC", *STRICT, *flags, "-I", sysconfig.get_paths()["include"],
                           str(source or SOURCES[name]), "-o", str(target)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr
    loader = importlib.machinery.ExtensionFileLoader(name, str(target))
    spec = importlib.util.spec_from_file_location(name, str(target), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def scores_as_the_python(module: ModuleType) -> None:
    """A build of _stdscore answers as the pure Python does on a few thousand
    knocks, at several knock limits, and refuses twelve cards."""
    rng = random.Random(2027)
    for _ in range(3_000):
        k, d = deal_knock(rng)
        for limit in (10, 0, 3):
            assert module.plain(k, d, limit) == scoring.plain_pieces(k, d, limit), (k, d, limit)
            assert module.labels(k, d, limit) == scoring.plain_labels(k, d, limit), (k, d, limit)
    with pytest.raises(ValueError):
        module.plain((1 << 12) - 1, 0, 10)  # twelve cards: the plain count sees them too
    for _ in range(20_000):
        mask = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 11)))
        assert module.deadwood(mask) == std_melds.deadwood(mask), mask


def plays_as_the_python(module: ModuleType) -> None:
    """A build of _stdplay answers as the Python code does: tests/test_rl_fast.py's
    check (which skips, as that file does, without the learning environments'
    dependencies)."""
    from test_rl_fast import held_to_the_python

    held_to_the_python(module)


def searches_as_the_python(module: ModuleType) -> None:
    """A build of _meldsearch answers as the Python search does on a few
    thousand hands, under the rule book's melds and under any three cards of
    consecutive ranks melding (suits mixed)."""
    mixed = [1 << (a * 13 + r) | 1 << (b * 13 + r + 1) | 1 << (c * 13 + r + 2)
             for r in range(11) for a in range(4) for b in range(4) for c in range(4)]
    rng = random.Random(2028)
    for melds in (meldrules.standard_melds(), meldrules.standard_melds() + mixed):
        values = [rng.randrange(12) for _ in range(52)]
        python = meldrules.HandSearch(melds, values)
        search = module.Search(melds, values, python.solve)
        for _ in range(2_000):
            hand = sum(1 << c for c in rng.sample(range(52), rng.choice((10, 11))))
            assert search.deadwood(hand) == python.solve(hand), hand
            card = rng.randrange(52)
            assert search.forms_meld(hand, card) == python.forms_meld(hand, card)


def plays_out_as_the_python(module: ModuleType) -> None:
    """A build of _playout plays out and searches as the Python does, on a few
    hundred dealt positions."""
    from gincli.hand import playout

    rng = random.Random(2028)
    saved = playout.PLAYOUT
    for i in range(300):
        deck = rng.sample(range(52), 52)
        mine, theirs, pile, stock = (sum(1 << c for c in deck[:11]), sum(1 << c for c in deck[11:21]), deck[21:23],
                                     deck[23:])
        rules = (10, 25, 25, -1 if i % 2 else 31, i % 11, (i * 3) % 11, i % 5)
        weights = bytes(1 + c % 7 if (theirs >> c & 1 or c in stock) else 0 for c in range(52))
        candidates = [playout.DISCARD_ID + deck[0], playout.KNOCK_ID + deck[1], playout.DISCARD_ID + deck[2]]
        try:
            playout.PLAYOUT = None
            took = mine & -mine
            expected = (playout.playout(mine, pile, 0, playout.DISCARD, -1, took, 0, theirs, stock, rules),
                        playout.search(mine, pile, playout.DISCARD, -1, took, 0, weights, len(stock), rules,
                                       candidates, 3, i, i % 4))
        finally:
            playout.PLAYOUT = saved
        got = (module.playout(mine, bytes(pile), 0, playout.DISCARD, -1, took, 0, theirs, bytes(stock), rules, -1),
               module.search(mine, bytes(pile), 0, playout.DISCARD, -1, took, 0, weights, len(stock), rules,
                             bytes(candidates), 3, i, i % 4))
        assert got == expected, i


def keeps_what_is_freed(module: ModuleType) -> None:
    """A build of _heap sets the GNU C library's thresholds (True), sets nothing
    elsewhere (False), and refuses thresholds that are not positive ints."""
    import platform

    assert module.keep(4 << 20, 32 << 20) is (platform.libc_ver()[0] == "glibc")
    for bad in ((0, 1), (1, -5), (1 << 40, 1)):
        with pytest.raises(ValueError):
            module.keep(*bad)


@pytest.mark.parametrize("name, held", [("_stdscore", scores_as_the_python), ("_stdplay", plays_as_the_python),
                                        ("_meldsearch", searches_as_the_python),
                                        ("_playout", plays_out_as_the_python), ("_heap", keeps_what_is_freed)],
                         ids=["_stdscore", "_stdplay", "_meldsearch", "_playout", "_heap"])
@pytest.mark.parametrize("bits", ["the compiler's own bit operations", "GINCLI_PORTABLE_BITS"])
@pytest.mark.parametrize("cc", ["gcc", "clang"])
def test_each_module_builds_with_each_compiler_and_answers_as_the_python_does(cc, bits, name, held, tmp_path):
    """Each compiled module built with GCC and with Clang (each where it is
    installed), warning-free, with the compiler's builtins and with the plain C
    that a compiler with neither GCC's builtins nor MSVC's intrinsics gets:
    every build answers as the Python code does."""
    path = shutil.which(cc)
    if path is None:
        pytest.skip(f"{cc} is not installed here")
    held(build(path, name, tmp_path, *(["-DGINCLI_PORTABLE_BITS"] if bits == "GINCLI_PORTABLE_BITS" else [])))


@pytest.mark.parametrize("name", SOURCES)
def test_each_module_reads_as_msvc_reads_it(name, tmp_path):
    """MSVC is not here; Clang aimed at it is: _MSC_VER set and GCC's not, so
    the MSVC intrinsics are the bit operations compiled, and long of 32 bits.
    Each module's source is checked so (syntax and types, every warning an
    error), with Python's headers of this machine: skipped where those do not
    read so."""
    clang = shutil.which("clang")
    if clang is None:
        pytest.skip("clang is not installed here")
    multiarch = sysconfig.get_config_var("MULTIARCH")
    include = ["-isystem", "/usr/include", *(["-isystem", f"/usr/include/{multiarch}"] if multiarch else []),
               "-I", sysconfig.get_paths()["include"]]
    msvc = [clang, "--target=x86_64-pc-windows-msvc", *include]
    (tmp_path / "python_only.c").write_text("#include <Python.h>\n")
    if subprocess.run([*msvc, "-fsyntax-only", str(tmp_path / "python_only.c")], capture_output=True).returncode:
        pytest.skip("this machine's Python headers do not read under clang's MSVC target")
    defined = subprocess.run([*msvc[:2], "-dM", "-E", "-x", "c", "-"], input="", capture_output=True,
                             text=True).stdout
    assert "#define _MSC_VER " in defined and "__GNUC__" not in defined and "#define __SIZEOF_LONG__ 4" in defined
    source = str(SOURCES[name])
    done = subprocess.run([*msvc, "-fsyntax-only", "-Wall", "-Wextra", "-Wvla", "-Werror", source],
                          capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr
    # Clang knows GCC's builtins under any target, MSVC does not: none may be left in what MSVC would compile.
    lines = preprocessed([*msvc, "-E", source])
    ours = [line for file, line in lines if Path(file).resolve().is_relative_to(ROOT / "gincli")]
    assert {Path(file).name for file, _ in lines} >= {Path(source).name, *HEADERS[name]}
    assert ours and not [line for line in ours if "__builtin_" in line or "__attribute__" in line]


def preprocessed(command: list[str]) -> list[tuple[str, str]]:
    """The lines a preprocessor ``command`` writes, each with the file it came
    from (by the line markers, ``# 12 "file.c"``)."""
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    current, lines = "", []
    for line in out.splitlines():
        if line.startswith("# ") and '"' in line:
            current = line.split('"')[1]
        elif line.strip():
            lines.append((current, line))
    return lines


@needs_compiled
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.lists(st.sampled_from([b"{", b"}", b" ", b"\t", b"\r", b"\x0b", b"\x0c", b"\xa0", b"x", b"\x00"]),
                         max_size=6), max_size=12))
def test_the_compiled_record_count_is_the_line_readers(lines):
    """_stdscore.records counts the lines of JSON Lines that are not blank
    (bytes.isspace's whitespace only), as the reader's Python does."""
    from gincli.rulebook._stdscore import records

    data = b"".join(b"".join(line) + b"\n" for line in lines)
    assert records(data) == sum(1 for raw in data.split(b"\n")[:-1] if raw and not raw.isspace())
    assert records(memoryview(data)) == records(bytearray(data)) == records(data)


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=200).map(lambda b: b.replace(b"x", b"\n")))
def test_the_compiled_line_count_is_bytes_count(data):
    """_stdscore.lines counts the newlines of the bytes, as bytes.count does (what
    formats/containers.py counts a chunk's lines by, without the accelerator)."""
    from gincli.rulebook._stdscore import lines

    assert lines(data) == data.count(b"\n") == lines(memoryview(data)) == lines(bytearray(data))


@needs_compiled
@settings(max_examples=1000, deadline=None)
@given(st.binary(min_size=1, max_size=100), st.data())
def test_the_compiled_checksum_sees_a_byte_changed_two_words_swapped_or_the_length(data, draw):
    """_stdscore.checksum, what a worker checks the lines it reads in the input by
    (a file changed while gin read it): another byte anywhere, two unequal
    8-byte words swapped, or a zero byte more at the end give another sum."""
    from gincli.rulebook._stdscore import checksum

    assert checksum(data) == checksum(bytearray(data)) == checksum(memoryview(data))
    at = draw.draw(st.integers(0, len(data) - 1))
    other = draw.draw(st.integers(0, 255).filter(lambda b: b != data[at]))
    assert checksum(data[:at] + bytes([other]) + data[at + 1:]) != checksum(data)
    assert checksum(data + b"\0") != checksum(data)
    words = [data[i:i + 8] for i in range(0, len(data) - len(data) % 8, 8)]
    if len(words) >= 2 and words[0] != words[-1]:
        swapped = words[-1] + b"".join(words[1:-1]) + words[0] + data[8 * len(words):]
        assert checksum(swapped) != checksum(data)
