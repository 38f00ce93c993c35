"""A match you can look at: one self-contained HTML page (``gin match --report
FILE.html``, and ``gin report`` over the transcripts a match wrote) with the
summary, the win rate and its interval as the games went, the SPRT's
log-likelihood ratio against its bounds, points per hand and how each
player's hands ended. The charts are Plotly's (the optional extra
``gincli[report]``), its library inlined so that the page opens offline.
"""

from __future__ import annotations

import html
import io
from collections import Counter
from typing import Annotated, Any

import typer

from ..base.errors import EXIT_OK, EXIT_RECORD_FAILED, EXIT_UNREADABLE, GinError, InputError, UsageError, quote
from ..formats.containers import Reader
from ..formats.files import check_new, write_new
from ..matches.runner import MatchSpec, SessionOutcome, Tally, differences
from ..matches.stats import Running, Sprt, parse_sprt
from ..formats.transcripts import TRANSCRIPT_FORMAT
from .base import error, guard, record_failure, settings
from .summary import render_summary
from .options import InputFormatOpt, QuietOpt, RowsFormatOpt, files_given
from . import rows
from .render import (RowsFormat, data, progress_bar, rendered, safe, say, show, stderr_console, stdin_notice, write_data,
                     write_json)
from .score import file_size

HELP = """Draw a match as one HTML page, from the transcripts gin match --transcripts wrote (or a session of gin play).

The page opens offline: the summary, the first player's win rate with its 95% interval after every game (with three or four players, each one's mean net result a game), with --sprt the test's log-likelihood ratio against its bounds, points per hand and how each player's hands ended. The summary also goes to stdout (--format json for programs, --format csv for a row a session). Needs the extra: pip install 'gincli[report]'.

Exit status: 0 every transcript used; 1 some record could not be used (the page shows the others); 2 an input could not be read, or holds no session of a match.
"""

EXTRA = "pip install 'gincli[report]'"
MOST_POINTS = 5_000  # a line drawn with more points only makes the page heavier
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")  # one a player, the same on every chart


def register(app: typer.Typer) -> None:
    app.command("report", help=HELP)(guard(report))


def check_page(path: str, option: str, force: bool = False) -> None:
    """Fail before any work when the page cannot be made: Plotly missing (the
    sentence names the extra), a name that is not an ``.html`` file, a folder
    that is not there, a file there already (unless ``force``), a symbolic
    link. :class:`UsageError`."""
    try:
        import plotly  # noqa: F401
    except ImportError:
        raise UsageError(f"the report page draws its charts with Plotly, which is not installed: {EXTRA}") from None
    if not path.lower().endswith((".html", ".htm")):
        raise UsageError(f"the report is an HTML page: give a file name ending in .html, not {quote(path)}")
    check_new(path, option, force)


class History(Tally):
    """A match's tally that also keeps what its page draws: after every sample
    (a game, a hand, or a duplicate deal's pair) the first player's score so far
    with its 95% interval and the SPRT's log-likelihood ratio; after every
    session each player's points per hand played and mean net result a game;
    and how each player's hands ended. Linear in the number of sessions."""

    def __init__(self, spec: MatchSpec, sprt: Sprt | None = None, variant: str | None = None,
                 rules: Any = None):
        super().__init__(spec, sprt, variant, rules)
        self._running = Running()
        self.written_by: str | None = None  # the gincli that wrote the transcripts (gin report)
        self.rate: list[tuple[float, float, float]] = []  # (score, low, high)
        self.llr: list[float] = []
        self.per_hand: dict[str, list[float]] = {n: [] for n in spec.names}
        self.net: dict[str, list[tuple[int, float]]] = {n: [] for n in spec.names}  # (session, mean so far)
        self._net_total = dict.fromkeys(spec.names, 0.0)
        self.ends: dict[str, Counter[str]] = {n: Counter() for n in spec.names}

    def add(self, out: SessionOutcome, check: bool = True) -> None:
        super().add(out, check)
        for x in self.samples[len(self.rate):]:
            self._running.add(x)
            e = self._running.estimate()
            self.rate.append((e.mean, e.low, e.high))
            if self.sprt is not None:
                self.llr.append(self.sprt.llr_running(self._running))
        for name, p in self.players.items():
            self.per_hand[name].append(p["points"] / p["hands_played"] if p["hands_played"] else 0.0)
        for name, net in out.scores.items():
            if name in self._net_total:
                self._net_total[name] += net
                self.net[name].append((self.sessions, self._net_total[name] / len(self.nets[name])))
        for outcome, winner, _points, forfeiter, pair in out.hands:
            if forfeiter is not None:
                self.ends[forfeiter]["forfeit"] += 1  # counted against who forfeited, as the summary does
            elif winner is None:
                for name in pair:
                    self.ends[name]["dead"] += 1
            else:
                self.ends[winner][outcome] += 1


# The page

def _text(value: object) -> str:
    """Text from input, fit for the page (and for Plotly's labels, which read HTML)."""
    return html.escape(safe(value, markup=False), quote=False)  # Plotly shows &quot; as itself; no attribute holds it


def _picks(n: int) -> list[int]:
    """Which of ``n`` points a line draws: all, or evenly spread ones and the last."""
    if n <= MOST_POINTS:
        return list(range(n))
    return sorted({round(i * (n - 1) / (MOST_POINTS - 1)) for i in range(MOST_POINTS)})


def _line(xs: list[float], ys: list[float], **trace: Any) -> dict[str, Any]:
    keep = _picks(len(xs))
    return {"type": "scatter", "mode": "lines", "x": [xs[i] for i in keep], "y": [ys[i] for i in keep], **trace}


def _level(y: float, colour: str = "#888") -> dict[str, Any]:
    return {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": y, "y1": y,
            "line": {"dash": "dash", "width": 1, "color": colour}}


def _figure(traces: list[dict[str, Any]], x_title: str, y_title: str, **layout: Any) -> dict[str, Any]:
    return {"data": traces, "layout": {"xaxis": {"title": {"text": x_title}}, "yaxis": {"title": {"text": y_title}},
                                       "margin": {"t": 30}, "legend": {"orientation": "h"}, "template": "plotly_white",
                                       **layout}}


def charts(h: History) -> list[tuple[str, str, str, dict[str, Any]]]:
    """The page's charts: (div id, heading, what it shows, Plotly figure)."""
    names = list(h.spec.names)
    colour = dict(zip(names, COLOURS))
    unit = "deal" if h.spec.duplicate else h.spec.unit[:-1]
    out = []
    if h.two_players:
        first = _text(names[0])
        xs = list(range(1, len(h.rate) + 1))
        low, high = [r[1] for r in h.rate], [r[2] for r in h.rate]
        band = {"line": {"width": 0}, "hoverinfo": "skip", "showlegend": False}
        out.append(("win-rate", "Win rate", f"{first}'s share of the {unit}s so far (a draw counts a half) and "
                                            "its 95% interval (Wilson's), after each "
                                            + (f"{unit} (played twice, seats swapped: one sample)" if h.spec.duplicate else unit),
                    _figure([_line(xs, low, name="95% low", **band),
                             _line(xs, high, name="95% interval", fill="tonexty", fillcolor="rgba(31,119,180,0.2)",
                                   **band),
                             _line(xs, [r[0] for r in h.rate], name=f"{first}'s score", line={"color": colour[names[0]]})],
                            f"{unit}s", "score", yaxis={"range": [0, 1], "tickformat": ".0%"},
                            shapes=[_level(0.5)])))
        if h.sprt is not None:
            lower, upper = h.sprt.bounds
            out.append(("sprt", "SPRT", f"the log-likelihood ratio of H1 (elo {h.sprt.elo1:g}) to H0 (elo "
                                        f"{h.sprt.elo0:g}) after each {unit}: the test accepts H1 at the upper bound "
                                        f"({upper:.2f}), H0 at the lower ({lower:.2f})",
                        _figure([_line(xs, h.llr, name="LLR", line={"color": colour[names[0]]})], f"{unit}s", "LLR",
                                shapes=[_level(lower, "#d62728"), _level(upper, "#2ca02c")])))
    elif h.spec.unit == "games":
        out.append(("net-per-game", "Net result a game",
                    "each player's mean net result a game so far, after each game",
                    _figure([_line([s for s, _ in h.net[n]], [m for _, m in h.net[n]], name=_text(n),
                                   line={"color": colour[n]}) for n in names], "games", "mean net a game",
                            shapes=[_level(0)])))
    sessions = list(range(1, h.sessions + 1))
    out.append(("points-per-hand", "Points per hand",
                "each player's points won per hand played so far, after each "
                + ("game" if h.spec.unit == "games" else "hand"),
                _figure([_line(sessions, h.per_hand[n], name=_text(n), line={"color": colour[n]}) for n in names],
                        h.spec.unit, "points per hand")))
    kinds = ["knock", "undercut", "gin", "big_gin"]
    kinds += sorted({k for c in h.ends.values() for k in c} - {*kinds, "dead", "forfeit"}) + ["dead", "forfeit"]
    out.append(("outcomes", "How the hands ended",
                "each player's hands won by knock, undercut, gin, big gin (and any other way), the dead hands it "
                "played and the hands it forfeited",
                _figure([{"type": "bar", "name": _text(n), "x": [k.replace("_", " ") for k in kinds],
                          "y": [h.ends[n][k] for k in kinds], "marker": {"color": colour[n]}} for n in names],
                        "", "hands", barmode="group")))
    return out


STYLE = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin:1.5em 0 .2em}p{margin:.3em 0}
.note{color:#555}pre{background:#f6f6f6;padding:1em;overflow-x:auto;line-height:1.25}"""


def rules_text(summary: dict[str, Any]) -> str:
    """The rules the figures were measured under, and with what: every option's
    value, gincli's version, Python's, the platform, the seed."""
    rules = summary.get("rules") or summary.get("options") or {}
    listed = ", ".join(f"{_text(k)}={_text(v)}" for k, v in rules.items())
    made = " · ".join(f"{k} {_text(summary[k])}" for k in ("gincli", "python", "platform") if summary.get(k))
    return (f"measured under {_text(summary['variant'])} · {_text(summary['scoring'])}"
            + (f" ({listed})" if listed else "") + f", seed {summary['seed']}" + (f"; {made}" if made else ""))


def summary_text(summary: dict[str, Any]) -> str:
    """``gin match``'s summary for people, as plain text."""
    from rich.console import Console

    console = Console(file=io.StringIO(), width=110, color_system=None, highlight=False)
    return rendered(render_summary(summary), console).removesuffix("\n")


def page(h: History, summary: dict[str, Any]) -> str:
    """The whole page, self-contained: Plotly's library is inlined once."""
    import plotly.graph_objects as go
    import plotly.io as pio

    title = (f"{_text(summary['variant'])} · {_text(summary['scoring'])} · seed {summary['seed']}"
             + (" · duplicate deals" if summary["duplicate"] else ""))
    players = ", ".join(_text(p["name"]) + (f" ({_text(p['bot'])})" if p["bot"] != p["name"] else "")
                        for p in summary["players"])
    options = ", ".join(f"{_text(k)}={_text(v)}" for k, v in summary["options"].items())
    parts = [f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<title>gin match: {title}</title><style>{STYLE}</style></head><body>",
             f"<h1>{title}</h1>", f"<p>{players}</p>"]
    if options:
        parts.append(f"<p class=\"note\">options: {options}</p>")
    parts.append(f"<p class=\"note\">{rules_text(summary)}</p>")
    parts.append(f"<pre class=\"summary\">{html.escape(summary_text(summary))}</pre>")
    for i, (div, heading, note, figure) in enumerate(charts(h)):
        parts += [f"<h2>{heading}</h2>", f"<p class=\"note\">{note}</p>",
                  pio.to_html(go.Figure(figure), full_html=False, include_plotlyjs=i == 0, div_id=div,
                              default_height="420px", config={"displaylogo": False})]
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_page(path: str, h: History, summary: dict[str, Any], command: str, quiet: bool = False,
               force: bool = False) -> None:
    """Write the page to ``path``, whole, never through a symbolic link nor over
    a file unless ``force`` (:func:`gincli.formats.files.write_new`), and say
    where on stderr (``gin COMMAND: ...``) unless ``quiet``."""
    write_new(path, page(h, summary), "the report", force)
    if quiet:
        return
    data().flush()  # the summary, then where the page went
    say(f"gin {command}: report written to {safe(path, markup=False)}")


def tournament_page(summary: dict[str, Any]) -> str:
    """A tournament's page, self-contained: the rating list and the crosstable
    (as ``gin tournament`` prints them), and a chart of the ratings with their
    95% intervals (an unbounded rating drawn at the chart's edge, said so)."""
    import plotly.graph_objects as go
    import plotly.io as pio

    from rich.console import Console

    from .summary import render_tournament

    console = Console(file=io.StringIO(), width=130, color_system=None, highlight=False)
    text = rendered(render_tournament(summary), console).removesuffix("\n")
    title = (f"{_text(summary['variant'])} · {_text(summary['scoring'])} · seed {summary['seed']} · "
             f"{summary['kind']} of {len(summary['players'])}")
    players = summary["players"]
    bounded = [p for p in players if p["rating"] is not None]
    edge = max([abs(p["rating_high"] or p["rating"]) for p in bounded] + [abs(p["rating_low"] or p["rating"])
                                                                          for p in bounded] + [100]) * 1.2
    ys, lows, highs, labels = [], [], [], []
    for p in players:
        r = p["rating"]
        if r is None:  # unbounded: at the edge, and said so
            r = edge if p.get("unbounded") == "above" else -edge
            labels.append(f"{_text(p['name'])} (unbounded)")
            lows.append(0)
            highs.append(0)
        else:
            labels.append(_text(p["name"]))
            lows.append(r - p["rating_low"] if p["rating_low"] is not None else 0)
            highs.append(p["rating_high"] - r if p["rating_high"] is not None else 0)
        ys.append(r)
    figure = _figure([{"type": "bar", "x": labels, "y": ys, "marker": {"color": COLOURS[0]},
                       "error_y": {"type": "data", "symmetric": False, "array": highs, "arrayminus": lows}}],
                     "", "rating (Elo)", shapes=[_level(0)])
    options = ", ".join(f"{_text(k)}={_text(v)}" for k, v in summary["options"].items())
    parts = [f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<title>gin tournament: {title}</title><style>{STYLE}</style></head><body>",
             f"<h1>{title}</h1>"]
    if options:
        parts.append(f"<p class=\"note\">options: {options}</p>")
    parts += [f"<p class=\"note\">{rules_text(summary)}</p>",
              f"<pre class=\"summary\">{html.escape(text)}</pre>", "<h2>Ratings</h2>",
              "<p class=\"note\">each player's rating, the maximum-likelihood Bradley–Terry fit of every game, with "
              "its 95% interval</p>",
              pio.to_html(go.Figure(figure), full_html=False, include_plotlyjs=True, div_id="ratings",
                          default_height="420px", config={"displaylogo": False}),
              "</body></html>\n"]
    return "\n".join(parts)


def write_tournament_page(path: str, summary: dict[str, Any], quiet: bool = False, force: bool = False) -> None:
    """Write a tournament's page, as :func:`write_page` writes a match's."""
    write_new(path, tournament_page(summary), "the report", force)
    if not quiet:
        data().flush()
        say(f"gin tournament: report written to {safe(path, markup=False)}")


# gin report

def report(
    ctx: typer.Context,
    files: Annotated[list[str] | None, typer.Argument(
        metavar="FILE...", help="Transcripts of one match, in order; - reads standard input.", show_default=False)]
    = None,
    output: Annotated[str, typer.Option("--output", metavar="FILE.html", help="The page to write.")]
    = "report.html",
    force: Annotated[bool, typer.Option("--force", help="Replace the page if it exists.")] = False,
    sprt: Annotated[str | None, typer.Option("--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]",
                                             help="Draw the SPRT of H0 elo0 against H1 elo1 (alpha and beta 0.05 "
                                                  "unless given).")] = None,
    format: RowsFormatOpt = RowsFormat.text,
    input_format: InputFormatOpt = None,
    quiet: QuietOpt = False,
) -> None:
    files = files_given(files, "report", "the transcripts of a match")
    check_page(output, "--output", force)
    registry = settings(ctx).registry()
    try:
        test = parse_sprt(sprt) if sprt else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    history: History | None = None
    header: dict[str, Any] = {}
    if format == "csv":
        write_data(rows.header(rows.SESSION))
    status = EXIT_OK
    for path in files:
        reader = Reader(path, input_format)
        stdin_notice("gin report", "transcripts", path, quiet)
        try:
            with progress_bar(f"reading {safe(reader.name)}", file_size(path), enabled=not quiet) as advance:
                for item in reader.items():
                    problem = item.error
                    if problem is None:
                        try:
                            if history is None:
                                history, header, problem = _begin(item.record, test, reader.name, registry)
                            if history is not None and problem is None:
                                problem = _add(history, item.record, header, format == "csv")
                        except UsageError:
                            raise
                        except Exception as exc:
                            problem = record_failure(exc, "read")
                    if problem is not None:
                        error(f"{item.where}: {problem}")
                        status = max(status, EXIT_RECORD_FAILED)
                    if item.index % 64 == 0:
                        advance(reader.position())
        except InputError as exc:
            error(exc.message)
            status = EXIT_UNREADABLE
    if history is None:
        if status == EXIT_UNREADABLE:  # said already
            raise typer.Exit(status)
        raise UsageError("no session to report (gin match --transcripts FILE writes them, gin play --transcript "
                         "FILE one); "
                         "no page written")
    summary = history.summary()
    # what the figures were measured with: the gincli that wrote the transcripts (the python and platform it
    # ran on are not in them), the external bots as their handshakes named them (each player's "program")
    summary["gincli"] = history.written_by or "unknown"
    summary.pop("python", None)
    summary.pop("platform", None)
    if format == "csv":  # the rows went out as the sessions were read: the summary for people, on stderr
        data().flush()
        if not quiet:
            show(render_summary(summary), stderr_console())
    elif format == "json":
        write_json(summary)
    else:
        show(render_summary(summary))
    write_page(output, history, summary, "report", quiet, force)
    raise typer.Exit(status)


NOT_A_TRANSCRIPT = "not a transcript of gincli's (its \"format\" is not gincli-transcript/1)"
NOT_A_MATCH = ("not a session of this match: it has no \"match\" field (a session of gin play is drawn alone, in a "
               "report of its own)")


def _begin(doc: dict[str, Any], test: Sprt | None, source: str,
           registry: Any) -> tuple[History | None, dict[str, Any], str | None]:
    """The match a first transcript starts, or why it cannot start one."""
    match = doc.get("match")
    if doc.get("format") == TRANSCRIPT_FORMAT and not isinstance(match, dict):
        match = _played(doc)  # a session of gin play (or any one session): drawn as a match of it alone
    if doc.get("format") != TRANSCRIPT_FORMAT or not isinstance(match, dict):
        return None, {}, NOT_A_TRANSCRIPT
    bots, names, seed, duplicate, unit = (match.get(k) for k in ("bots", "names", "seed", "duplicate", "unit"))
    header = {k: doc.get(k) for k in ("variant", "scoring", "options")}
    if not isinstance(doc.get("match"), dict):
        header["play"] = doc.get("id")
        header["scoring"] = header["scoring"] or "game"  # FORMATS.md's defaults: a transcript may leave them out
        header["options"] = {} if header["options"] is None else header["options"]
    if not (isinstance(bots, list) and isinstance(names, list) and 2 <= len(names) == len(bots) <= 4
            and all(isinstance(x, str) for x in bots + names) and len(set(names)) == len(names)
            and type(seed) is int and isinstance(duplicate, bool) and unit in ("games", "hands")
            and isinstance(header["variant"], str) and isinstance(header["scoring"], str)
            and isinstance(header["options"], dict)):
        return None, {}, "its \"match\" field is not one gin match writes"
    if test is not None and len(names) > 2:
        raise UsageError(f"--sprt is for two players: the SPRT compares two bots head to head, and {len(names)} "
                         f"play in {source}")
    spec = MatchSpec(tuple(bots), tuple(names), unit, 0, seed, header["variant"], header["scoring"],
                     _overrides(header, registry), duplicate)
    rules = _rules(header, registry)
    history = History(spec, test, None, rules)
    history.written_by = doc.get("gincli") if isinstance(doc.get("gincli"), str) else None
    written = _written(header, registry)
    if written is not None:  # the sessions that follow compare by their rules in full, however written
        header = {**header, "options": rules, "written": written}
    return history, header, None


def _played(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The ``match`` field a session of gin play stands for: its players (the
    person as ``you`` and each bot by its spec, from its ``play`` field; each by
    name for a transcript without one), its seed, one session."""
    play = doc.get("play") if isinstance(doc.get("play"), dict) else {}
    players = doc.get("players")
    bots = play.get("bots") if isinstance(play.get("bots"), dict) else {}
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return None
    return {"bots": [bots.get(p, p) if p != play.get("human") else "you" for p in players], "names": players,
            "seed": doc.get("seed") if type(doc.get("seed")) is int else 0, "duplicate": False, "unit": "hands" if doc.get("scoring") == "hand" else "games"}


def _rules(header: dict[str, Any], registry: Any) -> dict[str, Any]:
    """The rules of a match in full, as its summary gives them: the transcript's
    options over the defaults of its variant and scoring system (a transcript
    leaves out the options of move sets that are off, at their defaults); the
    options alone when these are not loaded here."""
    try:
        return dict(registry.rules(registry.variant(header["variant"], files=False),
                                   registry.scoring(header["scoring"]), header["options"], where="options"))
    except (GinError, ValueError):
        return dict(header["options"])


def _written(header: dict[str, Any], registry: Any) -> dict[str, Any] | None:
    """What gincli writes now of the rules of a transcript's options (None when its
    variant or scoring system is not loaded here): a file written before gincli
    left out the options of move sets that are off, then resumed, holds both."""
    try:
        variant = registry.variant(header["variant"], files=False)
        rules = registry.rules(variant, registry.scoring(header["scoring"]), header["options"], where="options")
    except (GinError, ValueError):
        return None
    return registry.transcript_options(variant, rules)


def _overrides(header: dict[str, Any], registry: Any) -> dict[str, Any]:
    """The options a match set (as its --option did): those that differ from
    the defaults of its variant and scoring system; every one when these are
    not loaded here."""
    try:
        defaults = registry.rules(registry.variant(header["variant"], files=False), registry.scoring(header["scoring"]))
    except (GinError, ValueError):
        return dict(header["options"])
    return {k: v for k, v in header["options"].items() if k not in defaults or defaults[k] != v}


def _add(h: History, doc: dict[str, Any], header: dict[str, Any], csv: bool = False) -> str | None:
    """Add the transcript of the match's next session (with ``csv``, and write
    its row), or say why it is not."""
    index = h.sessions
    if "play" in header:  # a session of gin play is drawn alone
        if index:
            return (f"a session of gin play, or one without a match, is drawn alone ({header['play']} was first): "
                    "give this one a report of its own")
    elif doc.get("format") != TRANSCRIPT_FORMAT:
        return NOT_A_TRANSCRIPT
    elif not isinstance(doc.get("match"), dict):
        return NOT_A_MATCH
    differs = "" if "play" in header else differences(doc, h.spec, index, header)
    if differs:
        return f"not the match's next session (s{index}): its {differs}"
    try:
        out = SessionOutcome.from_transcript(index, doc)
        names = set(h.spec.names) | {None}
        plausible = (all(isinstance(outcome, str) and {winner, forfeiter, *pair} <= names and type(points) is int
                         for outcome, winner, points, forfeiter, pair in out.hands)
                     and all(type(v) in (int, float) for v in out.scores.values()))
    except (AttributeError, TypeError):  # a list or a number where gin match writes an object
        plausible = False
    if not plausible:
        return f"session s{index} holds results that gin match does not write (gin validate says where)"
    h.add(out, check=False)  # a file read, not a match played: nothing to stop
    if csv:
        write_data(rows.lines([rows.outcome_row(h.spec, out)]))
    return None
