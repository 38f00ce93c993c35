"""gin report on a tournament's transcripts: the page and the summary gin
tournament gave (its crosstable, rating list and chart), the chart drawing an
unbounded rating as unbounded in a real headless browser, and every file it
cannot draw refused in one sentence, exit 2, no page."""

from __future__ import annotations

import json
import re

import pytest
from test_report import assert_drawn, assert_self_contained, gin, needs_chromium, render

pytest.importorskip("plotly")

TOURNAMENT = ("tournament", "--bots", "expert,simple,random", "--games", "4", "--seed", "1")


def figure(page: str, div: str) -> tuple[list, dict]:
    """The data and layout of chart ``div`` as the page hands them to Plotly,
    read as strict JSON (NaN or Infinity would fail)."""
    start = re.search(r'Plotly\.newPlot\(\s*"' + div + r'",\s*', page).end()

    def strict(token: str):
        raise AssertionError(f"the chart's JSON holds {token}")

    decoder = json.JSONDecoder(parse_constant=strict)
    data, end = decoder.raw_decode(page, start)
    layout, _ = decoder.raw_decode(page, page.index("{", end))
    return data, layout


def without_machine(summary: dict) -> dict:
    """gin tournament's summary less what transcripts do not hold (its Python, its platform)."""
    return {k: v for k, v in summary.items() if k not in ("python", "platform")}


def pre(page: str) -> list[str]:
    """The summary the page prints, as lines, less the last (gincli, Python, platform)."""
    return re.search(r'<pre class="summary">(.*?)</pre>', page, re.S).group(1).splitlines()[:-1]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One tournament, played once: its transcripts, its summary, its page."""
    where = tmp_path_factory.mktemp("tournament")
    res = gin(*TOURNAMENT, "--option", "gin_bonus=30", "--sprt", "0,200", "--anchor", "simple=1500",
              "--transcripts", str(where / "t.jsonl"), "--report", str(where / "played.html"), "-q", "-f", "json")
    assert res.returncode == 0, res.stderr
    return where, json.loads(res.stdout)


def test_gin_report_gives_the_summary_and_page_gin_tournament_gave(played, tmp_path):
    where, summary = played
    page = tmp_path / "r.html"
    res = gin("report", str(where / "t.jsonl"), "--sprt", "0,200", "--anchor", "simple=1500", "--output", str(page),
              "-f", "json")
    assert res.returncode == 0, res.stderr
    assert res.stderr == f"gin report: report written to {page}\n"
    reported = json.loads(res.stdout)
    assert reported == without_machine(summary)
    assert [p["name"] for p in reported["players"]] == ["expert", "simple", "random"]
    assert reported["anchor"] == {"name": "simple", "rating": 1500.0} and reported["options"] == {"gin_bonus": 30}
    text, original = page.read_text(), (where / "played.html").read_text()
    assert_self_contained(text)
    assert pre(text) == pre(original)  # the rating list and the crosstable, line for line
    assert "crosstable: the row&#x27;s wins-losses" in text and "-∞ (lost every game)" in text
    assert figure(text, "ratings") == figure(original, "ratings")
    assert "measured under standard · game with gin_bonus=30 (every other option at its default), seed 1" in text


def test_the_text_and_the_rows_are_gin_tournament_s(played, tmp_path):
    where, _ = played
    transcripts = str(where / "t.jsonl")
    res = gin("report", transcripts, "--anchor", "simple=1500", "--output", str(tmp_path / "a.html"))
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "standard · game · seed 1 · round robin of 3 · 4 games a pairing"
    assert ("ratings: the maximum-likelihood Bradley–Terry fit of every game, simple held at +1500; 95% intervals"
            in " ".join(res.stdout.split()))
    assert lines[-1] == "gincli 0.1.0"  # the gincli that wrote the transcripts; no Python nor platform
    rows = gin("report", transcripts, "--output", str(tmp_path / "b.html"), "-f", "csv")
    assert rows.returncode == 0, rows.stderr
    assert rows.stdout.splitlines()[0].startswith("pairing,player_1,bot_1,player_2,bot_2,unit,games,wins_1")
    pairings = rows.stdout.split("\n\n")[0].splitlines()
    assert [r.split(",")[0] for r in pairings[1:]] == ["expert v simple", "expert v random", "simple v random"]


def test_a_tournament_cut_short_draws_what_was_played(played, tmp_path):
    where, _ = played
    part = tmp_path / "part.jsonl"
    part.write_text("".join((where / "t.jsonl").read_text().splitlines(keepends=True)[:5]))
    res = gin("report", str(part), "--output", str(tmp_path / "p.html"), "-f", "json")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert [p["sessions"] for p in s["pairings"]] == [4, 1, 0] and s["per_pairing"] == 4
    assert {p["name"]: p["games"] for p in s["players"]} == {"expert": 5, "simple": 4, "random": 1}


def test_a_record_a_tournament_cannot_use_is_left_out_and_named(played, tmp_path):
    where, _ = played
    lines = (where / "t.jsonl").read_text().splitlines()
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join([lines[0], "not json", lines[2], lines[1]] + lines[3:]) + "\n")
    page = tmp_path / "m.html"
    res = gin("report", str(mixed), "--output", str(page), "-f", "json")
    assert res.returncode == 1
    assert res.stderr.splitlines() == [
        f"gin: error: {mixed}:2: line 2 is not valid JSON: Expecting value at column 1",
        f"gin: error: {mixed}:3: not pairing 0's next session (p0s1): its session id is \"p0s2\", not p0s1",
        f"gin: error: {mixed}:5: not pairing 0's next session (p0s2): its session id is \"p0s3\", not p0s2",
        f"gin report: report written to {page}"]
    assert [p["sessions"] for p in json.loads(res.stdout)["pairings"]] == [2, 4, 4] and page.exists()


@pytest.mark.parametrize("case", ["match after", "match before", "play", "notes", "objects", "empty", "no first",
                                  "anchor of a match", "unknown anchor"])
def test_what_gin_report_cannot_draw_is_refused_and_no_page_is_left(played, tmp_path, case):
    where, _ = played
    tournament = (where / "t.jsonl").read_text()

    def match(games: int = 1) -> str:
        gin("match", "--bots", "simple,random", "--games", str(games), "--seed", "3", "--transcripts",
            str(tmp_path / "m.jsonl"), "-q")
        return (tmp_path / "m.jsonl").read_text()

    f = tmp_path / "in.jsonl"
    args = []
    if case == "match after":
        f.write_text(tournament + match())
        said = f"{f}:13 is a session of a match, but {f}:1 began a session of a tournament"
    elif case == "match before":
        f.write_text(match() + tournament)
        said = f"{f}:2 is a session of a tournament, but {f}:1 began a session of a match"
    elif case == "play":
        quit = tmp_path / "quit.json"
        gin("play", "--seed", "1", "--name", "ann", "--bot", "simple", "--transcript", str(quit), input="q\n")
        f.write_text(tournament + json.dumps(json.loads(quit.read_text())) + "\n")
        said = f"{f}:13 is a session of gin play (or one without a match), but {f}:1 began a session of a tournament"
    elif case == "notes":
        f.write_text("my notes\non the tournament\n")
        said = (f"no session to report in {f}: none of its 2 records could be drawn (the first, {f}:1: line 1 is not "
                "valid JSON: Expecting value at column 1); no page written")
    elif case == "objects":
        f.write_text('{"id": 1}\n[1, 2]\n{"format": "gincli-transcript/1"}\n')
        said = (f"no session to report in {f}: none of its 3 records could be drawn (the first, {f}:1: not a "
                "transcript of gincli's")
    elif case == "empty":
        f.write_text("")
        said = f"no session to report: {f} holds no record"
    elif case == "no first":  # a match's second session without its first: nothing it can draw
        f.write_text(match(2).splitlines(keepends=True)[1])
        said = (f"no session to report in {f}: its one record could not be drawn (the first, {f}:1: not the match's "
                "next session (s0): its session id is \"s1\", not s0); no page written")
    elif case == "anchor of a match":
        f.write_text(match())
        args = ["--anchor", "simple"]
        said = f"--anchor is for a tournament's ratings, and {f} holds a session of a match"
    else:
        f.write_text(tournament)
        args = ["--anchor", "zed"]
        said = "--anchor \"zed\" is not one of the players (expert, simple, random)"
    page = tmp_path / "page.html"
    page.write_text("the page before\n")
    res = gin("report", str(f), "--output", str(page), "--force", "-f", "json", *args)
    assert res.returncode == 2, res.stderr
    assert res.stdout == ""
    assert len(res.stderr.splitlines()) == 1 and res.stderr.startswith(f"gin: error: {said}"), res.stderr
    assert page.read_text() == "the page before\n"  # untouched, and nothing left beside it
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".html" or p.name.startswith(".")) == ["page.html"]


@needs_chromium
def test_an_unbounded_rating_is_drawn_unbounded_in_a_real_browser(played, tmp_path):
    where, summary = played
    players = {p["name"]: p for p in summary["players"]}
    assert players["random"]["rating"] is None and players["random"]["unbounded"] == "below"  # lost every game
    page = tmp_path / "t.html"
    res = gin("report", str(where / "t.jsonl"), "--output", str(page))
    assert res.returncode == 0, res.stderr
    text = page.read_text()
    data, layout = figure(text, "ratings")
    assert all(trace["type"] == "scatter" for trace in data)  # dots on lines: no bar to draw finite
    axis = layout["yaxis"]
    rows = {label.split(". ", 1)[1]: y for y, label in zip(axis["tickvals"], axis["ticktext"], strict=True)}
    dots = next(t for t in data if t["name"] == "rating")
    assert rows["random"] not in dots["y"] and {rows["expert"], rows["simple"]} <= set(dots["y"])
    off = next(t for t in data if t["name"] == "unbounded")
    low, high = layout["xaxis"]["range"]
    assert off["y"] == [rows["random"]] and off["text"] == ["−∞ (lost every game)"]
    assert off["marker"]["symbol"] == ["triangle-left"] and low < off["x"][0] < 0
    assert [(a["x"], a["y"]) for a in layout["annotations"]] == [(low, rows["random"])]  # the arrow off the left edge
    dom = render(page, tmp_path)
    assert_drawn(dom, ("ratings",))
    shown = " ".join(dom.charts["ratings"]["text"])
    assert "−∞ (lost every game)" in shown and "3. random" in shown and "1. expert" in shown


def test_a_player_unbounded_against_the_rated_players_only_is_said_so(tmp_path):
    page = tmp_path / "four.html"
    res = gin("tournament", "--bots", "expert,random,random,simple", "--players", "a,b,c,d", "--games", "3", "--seed",
              "1", "--report", str(page), "-q", "-f", "json")
    assert res.returncode == 0, res.stderr
    players = {p["name"]: p for p in json.loads(res.stdout)["players"]}
    assert players["b"]["unbounded"] == "below" and 0 < players["b"]["score"] < 1  # it beat c, lost to a and d
    data, layout = figure(page.read_text(), "ratings")
    off = next(t for t in data if t["name"] == "unbounded")
    assert off["text"] == ["−∞ (lost every game against the rated players)"] * 2
    assert len(layout["annotations"]) == 2 and all(a["x"] == layout["xaxis"]["range"][0] for a in layout["annotations"])
    assert "-∞ (lost every game against the rated players)" in page.read_text()  # the rating list says so too
