"""The match page (``gin match --report``, ``gin report``): opened in a real
headless Chromium with the network cut off, each chart must have been drawn by
Plotly; the page of transcripts is the match's; three players; Ctrl-C; the
missing extra in one sentence; hostile names stay text."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT

GIN = str(Path(sys.executable).with_name("gin"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TWO = ("win-rate", "sprt", "points-per-hand", "outcomes")
HOSTILE = "<script>x</script>"

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary: install Debian's chromium package (.ci/run does) to check the "
                             "page in a real browser")


def gin(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([GIN, *args], capture_output=True, text=True, cwd=ROOT, timeout=600, **kw)


class Dom(HTMLParser):
    """What a dumped DOM shows of each chart: its classes, the classes of the
    elements inside it, its legend's text and all the text it shows."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.charts: dict[str, dict[str, list[str]]] = {}
        self._open: list[tuple[str, str | None, bool]] = []  # (tag, the chart it is, a legend's text)

    def _inside(self) -> list[str]:
        return [chart for _, chart, _ in self._open if chart]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        for chart in self._inside():
            self.charts[chart]["inside"] += classes
        chart = a.get("id") if "plotly-graph-div" in classes else None
        if chart:
            self.charts[chart] = {"classes": classes, "inside": [], "legend": [], "text": []}
        if tag not in self.VOID:
            self._open.append((tag, chart, "legendtext" in classes))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                del self._open[i:]
                return

    def handle_data(self, data: str) -> None:
        for chart in self._inside():
            self.charts[chart]["text"].append(data)  # every text the chart's SVG shows
            if self._open and self._open[-1][2]:
                self.charts[chart]["legend"].append(data)


def render(page: Path, tmp_path: Path) -> Dom:
    """The page's DOM once headless Chromium has run its scripts, every request
    to the network failing (a proxy that is not there, names that do not resolve)."""
    profile = tmp_path / "chromium-profile"
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom", page.resolve().as_uri()]
    res = subprocess.run(args, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr[-2000:]
    dom = Dom()
    dom.feed(res.stdout)
    return dom


def assert_drawn(dom: Dom, charts: tuple[str, ...]) -> None:
    assert set(dom.charts) == set(charts)
    for chart in charts:
        c = dom.charts[chart]
        assert "js-plotly-plot" in c["classes"], f"{chart}: Plotly never took the div"
        assert "main-svg" in c["inside"], f"{chart}: no SVG drawn"
        assert "trace" in c["inside"], f"{chart}: no trace drawn"


def assert_self_contained(text: str) -> None:
    assert "<script src=" not in text.replace("\n", "") and 'src="http' not in text
    assert text.count("<script") >= 2 and "Plotly.newPlot" in text


@needs_chromium
def test_a_match_page_draws_every_chart_offline_in_a_real_browser(tmp_path):
    page = tmp_path / "page.html"
    res = gin("match", "--bots", "expert,simple", "--games", "8", "--sprt", "0,100", "--seed", "5",
              "--report", str(page), "-q")
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""  # -q: only errors on stderr, not where the page went
    text = page.read_text()
    assert_self_contained(text)
    assert "standard · game · seed 5" in text and "SPRT [0, 100], alpha 0.05, beta 0.05: LLR" in text  # title, summary
    dom = render(page, tmp_path)
    assert_drawn(dom, TWO)
    assert {"expert", "simple"} <= set(dom.charts["points-per-hand"]["legend"])


@needs_chromium
def test_gin_report_draws_the_transcripts_of_three_players(tmp_path):
    transcripts, page = tmp_path / "m.jsonl", tmp_path / "three.html"
    played = gin("match", "--bots", "simple,expert,random", "--scoring", "cutthroat", "--games", "4", "--seed", "3",
                 "--transcripts", str(transcripts), "-q", "-f", "json")
    res = gin("report", str(transcripts), "--output", str(page), "-f", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == as_reported(json.loads(played.stdout))
    dom = render(page, tmp_path)
    assert_drawn(dom, ("net-per-game", "points-per-hand", "outcomes"))
    assert dom.charts["net-per-game"]["legend"] == ["simple", "expert", "random"]


@needs_chromium
def test_a_hostile_player_name_stays_text(tmp_path):
    page = tmp_path / "hostile.html"
    res = gin("match", "--bots", "expert,simple", "--games", "2", "--names", f"{HOSTILE},b", "--report", str(page),
              "-q")
    assert res.returncode == 0, res.stderr
    text = page.read_text()
    assert HOSTILE not in text and "&lt;script&gt;x&lt;/script&gt;" in text
    dom = render(page, tmp_path)
    assert_drawn(dom, ("win-rate", "points-per-hand", "outcomes"))
    assert HOSTILE in dom.charts["points-per-hand"]["legend"]  # shown as itself, never run


def as_reported(summary: dict) -> dict:
    """gin match's summary as gin report gives it from the transcripts alone: the
    gincli that wrote them, and no Python nor platform (the transcripts hold none)."""
    return {k: v for k, v in summary.items() if k not in ("python", "platform")}


def test_gin_report_gives_the_summary_and_page_of_the_match_that_wrote_the_transcripts(tmp_path):
    transcripts = tmp_path / "m.jsonl"
    played = gin("match", "--bots", "expert,simple", "--games", "6", "--seed", "2", "--sprt", "0,100",
                 "--option", "gin_bonus=30", "--transcripts", str(transcripts), "-q", "-f", "json")
    page = tmp_path / "r.html"
    res = gin("report", str(transcripts), "--sprt", "0,100", "--output", str(page), "-f", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == as_reported(json.loads(played.stdout))
    text = page.read_text()
    assert_self_contained(text)
    assert all(f'id="{chart}"' in text for chart in TWO) and "options: gin_bonus=30" in text
    res = gin("report", "-", "--output", str(page), "--force", input=transcripts.read_text())  # stdin, no SPRT
    assert res.returncode == 0 and "id=\"sprt\"" not in page.read_text()
    assert res.stdout.startswith("standard · game · seed 2")


def test_gin_report_says_which_records_it_left_out(run, tmp_path):
    transcripts = tmp_path / "m.jsonl"
    gin("match", "--bots", "expert,simple", "--games", "3", "--seed", "2", "--transcripts", str(transcripts), "-q")
    lines = transcripts.read_text().splitlines()
    tampered = json.loads(lines[1])
    tampered["hands"][0]["result"]["winner"] = "zed"
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join(["not json", lines[0], '{"a": 1}', lines[2], json.dumps(tampered), lines[1]]) + "\n")
    page = tmp_path / "p.html"
    res = run("report", str(mixed), "--output", str(page), "-f", "json")
    assert res.exit_code == 1
    assert res.stderr.splitlines() == [
        f"gin: error: {mixed}:1: line 1 is not valid JSON: Expecting value at column 1",
        f"gin: error: {mixed}:3: not a transcript of gincli's (its \"format\" is not gincli-transcript/1)",
        f"gin: error: {mixed}:4: not the match's next session (s1): its session id is \"s2\", not s1",
        f"gin: error: {mixed}:5: session s1 holds results that gin match does not write (gin validate says where)",
        f"gin report: report written to {page}"]
    assert json.loads(res.stdout)["sessions"] == 2 and page.exists()


@pytest.mark.parametrize("args,message", [
    (["nothing.jsonl"], "cannot read nothing.jsonl: no such file"),
    (["EMPTY", "--output", "x.html"], "no session to report"),
    (["T", "--output", "page.txt"], "the report is an HTML page: give a file name ending in .html"),
    (["T", "--output", "no/such/folder/p.html"], "the folder no/such/folder does not exist"),
    (["T", "--sprt", "5"], "--sprt takes elo0,elo1"),
])
def test_gin_report_refuses_what_it_cannot_use_in_one_sentence(run, tmp_path, monkeypatch, args, message):
    transcripts = tmp_path / "t.jsonl"
    gin("match", "--bots", "simple,random", "--games", "1", "--transcripts", str(transcripts), "-q")
    (tmp_path / "empty.jsonl").write_text("")
    monkeypatch.chdir(tmp_path)
    args = [{"T": str(transcripts), "EMPTY": "empty.jsonl"}.get(a, a) for a in args]
    res = run("report", *args)
    assert res.exit_code == 2 and res.stdout == ""
    assert len(res.stderr.splitlines()) == 1 and message in res.stderr


def test_the_sprt_of_three_players_is_refused(run, tmp_path):
    transcripts = tmp_path / "t.jsonl"
    gin("match", "--bots", "simple,random,random", "--scoring", "cutthroat", "--games", "1",
        "--transcripts", str(transcripts), "-q")
    res = run("report", str(transcripts), "--sprt", "0,50", "--output", str(tmp_path / "p.html"))
    assert res.exit_code == 2 and "--sprt is for two players" in res.stderr
    assert not (tmp_path / "p.html").exists()


def test_without_plotly_the_report_names_the_extra_before_any_work(tmp_path):
    shim = tmp_path / "shim" / "plotly"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text('raise ImportError("No module named \'plotly\'")\n')
    env = dict(os.environ, PYTHONPATH=str(shim.parent))
    transcripts = tmp_path / "m.jsonl"
    for args in (["match", "--bots", "expert,simple", "--games", "2", "--transcripts", str(transcripts)],
                 ["report", str(ROOT / "README.md")]):
        res = gin(*args, "--report" if args[0] == "match" else "--output", str(tmp_path / "p.html"), env=env)
        assert res.returncode == 2 and res.stdout == ""
        assert res.stderr == ("gin: error: the report page draws its charts with Plotly, which is not installed: "
                              "pip install 'gincli[report]'\n")
    assert not transcripts.exists() and not (tmp_path / "p.html").exists()


def test_after_ctrl_c_the_page_shows_what_was_played(tmp_path):
    transcripts, page = tmp_path / "c.jsonl", tmp_path / "c.html"
    proc = subprocess.Popen([GIN, "match", "--bots", "expert,expert", "--games", "40", "--seed", "1", "--workers",
                             "2", "--transcripts", str(transcripts), "--report", str(page), "-f", "json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not transcripts.exists() or transcripts.stat().st_size == 0):
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err and f"report written to {page}" in err
    played = json.loads(out)["sessions"]
    assert 0 < played < 40 and played == len(transcripts.read_text().splitlines())
    assert f"in {played} session{'s' if played != 1 else ''}" in page.read_text()


def test_the_page_never_overwrites_the_transcripts(run, tmp_path):
    same = tmp_path / "m.html"
    res = run("match", "--bots", "simple,random", "--games", "1", "--transcripts", str(same), "--report", str(same))
    assert res.exit_code == 2 and "--report and --transcripts name the same file" in res.stderr
    assert not same.exists()


def note(page: Path) -> str:
    """The page's line of the rules it was measured under."""
    import re

    return re.search(r'<p class="note">(measured under [^<]*)</p>', page.read_text()).group(1)


def test_a_page_names_only_the_options_that_differ_from_the_defaults(tmp_path):
    plain, set_ = tmp_path / "plain.html", tmp_path / "set.html"
    res = gin("match", "--bots", "simple,random", "--games", "1", "--seed", "1", "--report", str(plain), "-q")
    assert res.returncode == 0, res.stderr
    assert note(plain).startswith("measured under standard · game, every option at its default, seed 1; gincli 0.1.0")
    assert "knock_limit" not in plain.read_text().split("<pre")[0]  # nothing listed above the summary
    res = gin("match", "--bots", "simple,random", "--games", "1", "--seed", "1", "--option", "gin_bonus=25",
              "--option", "undercut_bonus=30", "--report", str(set_), "-q")
    assert res.returncode == 0, res.stderr
    assert note(set_).startswith("measured under standard · game with undercut_bonus=30 (every other option at its "
                                 "default), seed 1; ")  # gin_bonus=25 is the default: not one that differs


def test_an_unfinished_session_is_counted_unfinished_not_drawn(tmp_path):
    quit, page = tmp_path / "quit.json", tmp_path / "quit.html"
    res = gin("play", "--seed", "1", "--name", "ann", "--bot", "simple", "--transcript", str(quit), input="q\n")
    assert res.returncode == 0, res.stderr
    res = gin("report", str(quit), "--output", str(page), "-f", "json")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert (s["sessions"], s["games"], s["unfinished_sessions"]) == (1, 0, 1)
    assert s["results"] == {"player": "ann", "unit": "game", "wins": 0, "draws": 0, "losses": 0}
    text = page.read_text()
    assert "1 session left unfinished (quit before it was settled): no game won nor drawn" in text
    assert "no game finished: no win rate yet" in text and "50.0%" not in text and 'id="win-rate"' not in text
    assert note(page) == "measured under standard · game, every option at its default, seed 1; gincli 0.1.0"
    # left in the middle of its third hand: its two finished hands count, the game does not
    transcripts = tmp_path / "m.jsonl"
    gin("match", "--bots", "expert,simple", "--games", "1", "--seed", "2", "--transcripts", str(transcripts), "-q")
    doc = json.loads(transcripts.read_text())
    assert len(doc["hands"]) > 3 and doc["hands"][0]["result"]["winner"] == "expert"
    for key in ("match", "result"):
        del doc[key]
    third = doc["hands"][2]
    del third["result"]
    third["moves"] = third["moves"][:3]
    doc["hands"] = doc["hands"][:3]
    left = tmp_path / "left.jsonl"
    left.write_text(json.dumps(doc) + "\n")
    res = gin("report", str(left), "--output", str(tmp_path / "left.html"), "-f", "json")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert (s["hands"], s["games"], s["unfinished_sessions"], s["results"]["draws"]) == (2, 0, 1, 0)
    assert [p["hands_won"] for p in s["players"]] == [1, 1]
    res = gin("report", str(left), "--output", str(tmp_path / "left2.html"))
    assert "2 hands played, 0 dead" in res.stdout and "1 session left unfinished" in res.stdout
