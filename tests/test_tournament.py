"""``gin tournament`` (issue 21): every pairing plays a match, a crosstable and
Bradley–Terry ratings of them all, transcripts naming their pairing, --resume
exact, --sprt per pairing, a gauntlet, an anchor; checked against the
transcripts themselves and an independent fit."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GIN = str(Path(sys.executable).with_name("gin"))
BOT = f"exec:{sys.executable} {ROOT / 'examples' / 'bot.py'}"


def gin(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "GINCLI_CONFIG_DIR": str(tmp_path / "config"), "HOME": str(tmp_path)}
    return subprocess.run([GIN, *args], capture_output=True, text=True, cwd=tmp_path, timeout=600, env=env)


def brute_bt(players: list[str], pairings: list[dict]) -> dict[str, float]:
    """An independent maximum-likelihood Bradley–Terry fit: coordinate ascent on
    the log-likelihood, mean 0, 400·log10 scale (only for players who are bounded)."""
    r = dict.fromkeys(players, 0.0)
    for _ in range(4000):
        for p in players:
            def ll(x: float, p: str = p, r: dict[str, float] = r) -> float:
                total = 0.0
                for pr in pairings:
                    a, b = pr["players"]
                    if p not in (a, b):
                        continue
                    other = b if p == a else a
                    n, s = pr["games"], pr["wins"][p] + pr["draws"] / 2
                    d = (x - r[other]) * math.log(10) / 400
                    total += s * -math.log1p(math.exp(-d)) + (n - s) * -math.log1p(math.exp(d))
                return total
            lo, hi = r[p] - 200, r[p] + 200
            for _ in range(60):  # golden-section search of the player's rating, the others fixed
                m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
                if ll(m1) < ll(m2):
                    lo = m1
                else:
                    hi = m2
            r[p] = (lo + hi) / 2
        mean = sum(r.values()) / len(r)
        r = {p: v - mean for p, v in r.items()}
    return r


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    """A real round robin of four bots (one of them an external program), with its transcripts."""
    tmp = tmp_path_factory.mktemp("four")
    res = gin(tmp, "tournament", "--bots", f"expert,simple,random,{BOT}", "--players", "expert,simple,random,ext",
              "--games", "4", "--seed", "11", "--transcripts", "t.jsonl", "-f", "json", "-q")
    assert res.returncode == 0, res.stderr
    return tmp, json.loads(res.stdout), [json.loads(line) for line in (tmp / "t.jsonl").read_text().splitlines()]


def test_a_round_robin_plays_every_pairing_once_and_its_transcripts_name_it(four):
    _, summary, lines = four
    pairs = [tuple(p["players"]) for p in summary["pairings"]]
    assert pairs == [("expert", "simple"), ("expert", "random"), ("expert", "ext"), ("simple", "random"),
                     ("simple", "ext"), ("random", "ext")]
    assert [(d["match"]["pairing"], d["id"]) for d in lines] == [(k, f"p{k}s{i}") for k in range(6) for i in range(4)]
    assert all(d["match"]["tournament"]["names"] == ["expert", "simple", "random", "ext"] for d in lines)
    assert all(d["gincli"] == summary["gincli"] for d in lines)
    assert any(d.get("programs", {}).get("ext", {}).get("name") == "example" for d in lines)  # its handshake


def test_the_crosstable_is_what_the_transcripts_hold(four):
    _, summary, lines = four
    for k, pr in enumerate(summary["pairings"]):
        won = [d["result"]["winner"] for d in lines if d["match"]["pairing"] == k]
        a, b = pr["players"]
        assert pr["games"] == len(won) == 4
        assert pr["wins"] == {a: won.count(a), b: won.count(b)} and pr["draws"] == won.count(None)
        assert pr["score"] == pytest.approx((won.count(a) + won.count(None) / 2) / 4, abs=1e-4)
    for p in summary["players"]:
        mine = [pr for pr in summary["pairings"] if p["name"] in pr["players"]]
        assert p["games"] == sum(pr["games"] for pr in mine) == 12
        assert p["points"] == sum(pr["wins"][p["name"]] + pr["draws"] / 2 for pr in mine)


def test_the_ratings_are_the_maximum_likelihood_fit(four):
    _, summary, _ = four
    bounded = [p for p in summary["players"] if p["rating"] is not None]
    unbounded = [p for p in summary["players"] if p["rating"] is None]
    for p in unbounded:  # all won or all lost: no finite rating, never the number a fit stopped at
        assert p["unbounded"] == ("above" if p["score"] == 1 else "below") and p["score"] in (0, 1)
    if len(bounded) >= 2 and not unbounded:
        expected = brute_bt([p["name"] for p in bounded], summary["pairings"])
        for p in bounded:
            assert p["rating"] == pytest.approx(expected[p["name"]], abs=0.5)
            assert p["rating_low"] < p["rating"] < p["rating_high"]
    ranks = [p["rank"] for p in summary["players"]]
    assert ranks == list(range(1, 5))


def test_a_known_field_rates_as_an_independent_fit_does(tmp_path):
    """Where nobody won or lost everything, the fit agrees with a brute-force one."""
    from gincli.matches.stats import bradley_terry

    pairings = [{"players": ["a", "b"], "games": 10, "wins": {"a": 7, "b": 3}, "draws": 0},
                {"players": ["a", "c"], "games": 10, "wins": {"a": 6, "c": 2}, "draws": 2},
                {"players": ["b", "c"], "games": 10, "wins": {"b": 4, "c": 5}, "draws": 1}]
    fit = bradley_terry([(p["players"][0], p["players"][1], p["wins"][p["players"][0]], p["wins"][p["players"][1]],
                          p["draws"]) for p in pairings])
    expected = brute_bt(["a", "b", "c"], pairings)
    for name in "abc":
        assert fit[name].elo == pytest.approx(expected[name], abs=0.5)


def test_csv_gives_a_row_a_pairing_then_the_rating_list_and_the_text_a_crosstable(four, tmp_path):
    tmp, summary, _ = four
    res = gin(tmp, "tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "1", "-f", "csv", "-q")
    pairings, ratings = res.stdout.split("\n\n")
    rows = list(csv.DictReader(io.StringIO(pairings + "\n", newline="")))
    assert [r["pairing"] for r in rows] == ["expert v simple", "expert v random", "simple v random"]
    assert all(int(r["wins_1"]) + int(r["wins_2"]) + int(r["draws"]) == 2 for r in rows)
    assert all(r["forfeits_1"] == r["time_outs_2"] == r["stale_replies_1"] == "0" for r in rows)
    listed = list(csv.DictReader(io.StringIO(ratings, newline="")))
    data = json.loads(gin(tmp, "tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "1", "-f",
                          "json", "-q").stdout)
    assert [(r["rank"], r["player"], r["games"], r["score"], r["rating"], r["rating_low"], r["rating_high"])
            for r in listed] == [(str(p["rank"]), p["name"], str(p["games"]), str(p["score"]),
                                  *("" if p[k] is None else str(p[k]) for k in ("rating", "rating_low", "rating_high")))
                                 for p in data["players"]]
    text = gin(tmp, "tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "1", "-q").stdout
    assert "rank" in text and "crosstable" in text and "Bradley–Terry" in text


def test_resume_finishes_a_stopped_tournament_exactly(tmp_path):
    args = ["tournament", "--bots", "expert,simple,random", "--games", "3", "--seed", "4", "-f", "json", "-q"]
    whole = gin(tmp_path, *args, "--transcripts", "whole.jsonl")
    assert whole.returncode == 0, whole.stderr
    lines = (tmp_path / "whole.jsonl").read_bytes().splitlines(keepends=True)
    for keep in (0, 2, 3, 5, 8):  # inside a pairing, at its end, a line cut short
        part = tmp_path / f"part{keep}.jsonl"
        part.write_bytes(b"".join(lines[:keep]) + (lines[keep][:40] if keep < len(lines) else b""))
        done = gin(tmp_path, *args, "--transcripts", str(part), "--resume")
        assert done.returncode == 0, done.stderr
        assert part.read_bytes() == b"".join(lines)
        assert json.loads(done.stdout) == json.loads(whole.stdout)


def test_resume_refuses_a_file_from_another_tournament(tmp_path):
    gin(tmp_path, "tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "4", "--transcripts",
        "t.jsonl", "-q")
    res = gin(tmp_path, "tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "5",
              "--transcripts", "t.jsonl", "--resume", "-q")
    assert res.returncode == 2 and "is from another tournament" in res.stderr and "Traceback" not in res.stderr


def test_a_gauntlet_pairs_the_first_bots_with_the_rest(tmp_path):
    res = gin(tmp_path, "tournament", "--bots", "expert,simple,random,simple", "--gauntlet", "1", "--games", "2",
              "--seed", "2", "-f", "json", "-q")
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert [p["players"] for p in summary["pairings"]] == [["expert", "simple-1"], ["expert", "random"],
                                                           ["expert", "simple-2"]]
    assert summary["kind"] == "gauntlet"


def test_an_anchor_holds_its_player_at_its_rating(tmp_path):
    res = gin(tmp_path, "tournament", "--bots", "expert,simple,simple", "--games", "6", "--seed", "3", "--anchor",
              "simple-1=1500", "-f", "json", "-q")
    summary = json.loads(res.stdout)
    anchored = next(p for p in summary["players"] if p["name"] == "simple-1")
    assert anchored["rating"] == 1500 or anchored["rating"] is None
    bad = gin(tmp_path, "tournament", "--bots", "expert,simple,random", "--games", "2", "--anchor", "zed")
    assert bad.returncode == 2 and "--anchor \"zed\" is not one of the players" in bad.stderr


def test_the_sprt_may_stop_each_pairing_early(tmp_path):
    res = gin(tmp_path, "tournament", "--bots", "expert,random,simple", "--games", "40", "--seed", "1", "--sprt",
              "0,200,0.1,0.1", "--transcripts", "t.jsonl", "-f", "json", "-q")
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    stopped = [p for p in summary["pairings"] if p["sprt"]["result"] != "continue"]
    assert stopped and all(p["sessions"] < 40 for p in stopped)
    counts = [sum(1 for line in (tmp_path / "t.jsonl").read_text().splitlines()
                  if json.loads(line)["match"]["pairing"] == k) for k in range(3)]
    assert counts == [p["sessions"] for p in summary["pairings"]]


def test_duplicate_pairings_count_their_pairs(tmp_path):
    res = gin(tmp_path, "tournament", "--bots", "expert,simple,random", "--games", "4", "--duplicate", "--seed", "6",
              "-f", "json", "-q")
    for p in json.loads(res.stdout)["pairings"]:
        pairs = p["pairs"]
        assert pairs["won_both"] + pairs["split"] + pairs["lost_both"] == 2


def test_under_duplicate_the_intervals_come_from_the_pairs(tmp_path):
    """A pairing's win rate and Elo are gin match's on the same deals; the ratings are the fit of every hand,
    their intervals counting each pairing's hands as the independent hands its pairs are worth: n m (1 - m) /
    var over its pair scores (read from the transcripts, the statistics module's variance)."""
    import statistics

    from gincli.matches.stats import bradley_terry

    res = gin(tmp_path, "tournament", "--bots", "expert,simple,random", "--hands", "60", "--duplicate", "--seed", "3",
              "--transcripts", "t.jsonl", "-f", "json", "-q")
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    alone = gin(tmp_path, "match", "--bots", "expert,simple", "--hands", "60", "--duplicate", "--seed", "3", "-f",
                "json", "-q")
    match = json.loads(alone.stdout)
    first = summary["pairings"][0]
    assert first["players"] == ["expert", "simple"]
    assert first["win_rate"] == match["win_rate"] and first["elo"] == match["elo"]
    docs = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    worth, totals = {}, []
    for pr in summary["pairings"]:
        a, b = pr["players"]
        mine = [d for d in docs if d["match"]["pairing"] == summary["pairings"].index(pr)]
        score = [1.0 if d["hands"][0]["result"]["winner"] == a else 0.5 if d["hands"][0]["result"]["winner"] is None
                 else 0.0 for d in mine]
        pairs = [(x + y) / 2 for x, y in zip(score[0::2], score[1::2], strict=True)]
        m, var = statistics.mean(pairs), statistics.variance(pairs)
        worth[(a, b)] = len(pairs) * m * (1 - m) / var if var > 0 and 0 < m < 1 else len(pairs)
        totals.append((a, b, pr["wins"][a], pr["wins"][b], pr["draws"]))
    fit = bradley_terry(totals, effective=worth)
    plain = bradley_terry(totals)
    for p in summary["players"]:
        assert p["rating"] == pytest.approx(plain[p["name"]].elo, abs=0.051)
        assert p["rating_low"] == pytest.approx(fit[p["name"]].low, abs=0.051)
        assert p["rating_high"] == pytest.approx(fit[p["name"]].high, abs=0.051)
    assert any(fit[n].error != pytest.approx(plain[n].error, abs=0.5) for n in fit)


def test_a_tournament_says_what_its_bots_did(tmp_path):
    """Forfeits, time-outs and stale replies per player and per pairing, in the JSON, the text, the CSV and gin
    report's reading of the transcripts; each external bot as its handshake named it. Counted against the
    transcripts' forfeits and the bot's own doings."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_match import script_bot

    bot = tmp_path / "flaky.py"  # an extra (stale) reply at its 2nd decision, a hang at its 4th (then restarted)
    bot.write_text(script_bot("if n == 2: out(reply)\nif n == 4: time.sleep(3)"))
    args = ("tournament", "--bots", f"exec:{sys.executable} {bot},simple,random", "--hands", "6", "--seed", "2",
            "--time-limit", "0.4", "--max-forfeits", "0", "--workers", "1", "-q")
    res = gin(tmp_path, *args, "--transcripts", "t.jsonl", "-f", "json")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    docs = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    ext = next(p for p in s["players"] if p["name"] == "external")
    assert ext["program"] == {"name": "test", "version": "1"}
    forfeits = [h["forfeit"] for d in docs for h in d["hands"] if h.get("forfeit")]
    assert forfeits and all(f["player"] == "external" for f in forfeits)
    assert ext["forfeits"] == len(forfeits) and ext["time_outs"] == len(forfeits)  # each one a hang
    assert all(f["reason"] == "did not answer within 0.4 s" for f in forfeits)
    assert ext["stale_replies"] >= 1
    for k, pr in enumerate(s["pairings"]):
        mine = [h["forfeit"] for d in docs if d["match"]["pairing"] == k for h in d["hands"] if h.get("forfeit")]
        a, b = pr["players"]
        assert pr["forfeits"] == {a: sum(f["player"] == a for f in mine), b: sum(f["player"] == b for f in mine)}
        assert pr["time_outs"] == pr["forfeits"]
        assert pr["programs"] == ({"external": {"name": "test", "version": "1"}} if "external" in (a, b) else {})
        assert sum(g["count"] for g in pr["forfeit_reasons"]) == len(mine)
    assert sum(pr["stale_replies"]["external"] for pr in s["pairings"] if "external" in pr["players"]) \
        == ext["stale_replies"]
    text = gin(tmp_path, *args).stdout
    assert "external (test 1)" in text and "external is test 1" in text and "time-outs" in text
    assert "forfeits in external v simple: external" in text
    rows = gin(tmp_path, *args, "-f", "csv").stdout.split("\n\n")[1]
    listed = {r["player"]: r for r in csv.DictReader(io.StringIO(rows, newline=""))}
    assert (listed["external"]["forfeits"], listed["external"]["time_outs"], listed["external"]["stale_replies"],
            listed["external"]["program"]) == (str(ext["forfeits"]), str(ext["time_outs"]),
                                               str(ext["stale_replies"]), "test")
    again = json.loads(gin(tmp_path, "report", "t.jsonl", "--output", "t.html", "-f", "json").stdout)
    for key in ("forfeits", "time_outs", "stale_replies", "program"):
        assert next(p for p in again["players"] if p["name"] == "external")[key] == ext[key]
    if importlib.util.find_spec("plotly") is not None:  # the report page holds the same rating list
        page = (tmp_path / "t.html").read_text()
        assert "time-outs" in page and "stale replies" in page and "external is test 1" in page


def test_no_rating_is_minus_zero():
    from gincli.cli.summary import net_text, rating_text

    assert rating_text({"rating": -0.4, "rating_low": -200.4, "rating_high": 199.6, "score": 0.5}) \
        == "+0 (-200 to +200)"
    assert net_text({"mean": -0.3, "low": -40.2, "high": 0.4}) == "+0 (-40 to +0)"


@pytest.mark.parametrize("args, said", [
    (["--bots", "expert,simple", "--games", "2"], "takes three bots or more"),
    (["--bots", "expert,simple,random"], "give either --hands N or --games N"),
    (["--bots", "expert,simple,random", "--games", "2", "--gauntlet", "3"], "leaves no bot to play"),
    (["--bots", "expert,simple,random", "--games", "2", "--scoring", "cutthroat"], "takes 3 players"),
    (["--bots", "expert,simple,random", "--games", "2", "--transcripts", "-"], "--transcripts takes a file"),
])
def test_what_a_tournament_cannot_be_is_one_sentence(tmp_path, args, said):
    res = gin(tmp_path, "tournament", *args)
    assert res.returncode == 2 and said in res.stderr and "Traceback" not in res.stderr


def test_the_same_tournament_whatever_the_workers(tmp_path):
    outs = []
    for w in ("1", "2"):
        res = gin(tmp_path, "tournament", "--bots", "expert,simple,random", "--games", "4", "--seed", "8",
                  "--workers", w, "--transcripts", f"w{w}.jsonl", "-f", "json", "-q")
        outs.append(json.loads(res.stdout))
    assert outs[0] == outs[1]
    assert (tmp_path / "w1.jsonl").read_bytes() == (tmp_path / "w2.jsonl").read_bytes()


def test_the_report_page_holds_the_crosstable_and_the_ratings(tmp_path):
    pytest.importorskip("plotly")
    res = gin(tmp_path, "tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "1",
              "--report", "t.html", "-q")
    assert res.returncode == 0, res.stderr
    page = (tmp_path / "t.html").read_text()
    assert "crosstable" in page and 'id="ratings"' in page and "measured under standard · game" in page
