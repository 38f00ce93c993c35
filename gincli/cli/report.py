"""A match or a tournament you can look at: one self-contained HTML page.

A match's (``gin match --report FILE.html``, and ``gin report`` over the
transcripts a match wrote) has the summary, the win rate and its interval as
the games went, the SPRT's log-likelihood ratio against its bounds, points per
hand and how each player's hands ended. A tournament's (``gin tournament
--report``, and ``gin report`` over its transcripts) has the rating list, the
crosstable and a chart of the ratings. The charts are Plotly's (the optional
extra ``gincli[report]``), its library inlined so that the page opens offline.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..base.errors import EXIT_OK, EXIT_RECORD_FAILED, GinError, InputError, UsageError, quote
from ..formats import rows
from ..formats.containers import Reader
from ..formats.files import check_new, write_new
from ..matches.stats import parse_sprt
from ..work.report import History, Reading, TournamentDrawing
from .base import error, guard, record_failure, settings
from .options import InputFormatOpt, QuietOpt, RowsFormatOpt, files_given
from .render import (
    RowsFormat,
    bot_label,
    data,
    progress_bar,
    rendered,
    safe,
    say,
    show,
    signed,
    stderr_console,
    stdin_notice,
    write_data,
    write_json,
)
from .score import file_size
from .summary import render_summary, render_tournament

if TYPE_CHECKING:
    from ..plugin.registry import Registry

HELP = """Draw a match or a tournament as one HTML page, from the transcripts gin match --transcripts or gin
tournament --transcripts wrote (or a session of gin play).

The page opens offline. A match's: the summary, the first player's win rate with its 95% interval after every game
(with three or four players, each one's mean net result a game), with --sprt the test's log-likelihood ratio against
its bounds, points per hand and how each player's hands ended. A tournament's (its transcripts say so), the page gin
tournament --report draws: the rating list, the crosstable and a chart of the ratings with their intervals. The
summary also goes to stdout as gin match or gin tournament gives it (--format json for programs, --format csv for a
row a session or a pairing). Needs the extra: pip install 'gincli[report]'.

Exit status: 0 every transcript used; 1 some record could not be used (the page shows the others); 2 an input could
not be read, holds no session to draw, or mixes a tournament's sessions with another kind's: no page written.
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


def _text(value: object) -> str:
    """Text from input, fit for the page (and for Plotly's labels, which read HTML)."""
    return html.escape(safe(value, markup=False), quote=False)  # Plotly shows &quot; as itself; no attribute holds it


def _picks(n: int) -> list[int]:
    """Which of ``n`` points a line draws: all, or evenly spread ones and the last."""
    if n <= MOST_POINTS:
        return list(range(n))
    return sorted({round(i * (n - 1) / (MOST_POINTS - 1)) for i in range(MOST_POINTS)})


def _line(xs: Sequence[float], ys: Sequence[float], **trace: Any) -> dict[str, Any]:
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
    colour = dict(zip(names, COLOURS, strict=False))  # past the palette: no colour of its own
    unit = "deal" if h.spec.duplicate else h.spec.unit[:-1]
    out = []
    if h.two_players and h.rate:  # a session left before its first game ended has no win rate to draw
        first = _text(names[0])
        xs = list(range(1, len(h.rate) + 1))
        low, high = [r[1] for r in h.rate], [r[2] for r in h.rate]
        band = {"line": {"width": 0}, "hoverinfo": "skip", "showlegend": False}
        out.append(("win-rate", "Win rate", f"{first}'s share of the {unit}s so far (a draw counts a half) and "
                                            "its 95% interval (Wilson's), after each "
                                            + (f"{unit} (played twice, seats swapped: one sample)"
                                               if h.spec.duplicate else unit),
                    _figure([_line(xs, low, name="95% low", **band),
                             _line(xs, high, name="95% interval", fill="tonexty", fillcolor="rgba(31,119,180,0.2)",
                                   **band),
                             _line(xs, [r[0] for r in h.rate], name=f"{first}'s score",
                                   line={"color": colour[names[0]]})],
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


def set_options(summary: dict[str, Any], registry: Registry | None = None) -> dict[str, Any]:
    """The options whose values differ from the defaults of the variant and
    scoring system the summary names (its ``rules`` against those defaults, as
    ``registry`` knows them); where it does not know them (no registry, a
    variant file's, a plugin's not installed here), the options the match set."""
    given = dict(summary.get("options") or {})
    rules = summary.get("rules")
    if not isinstance(rules, dict) or registry is None:
        return given
    try:
        defaults = dict(registry.rules(registry.variant(summary["variant"], files=False),
                                       registry.scoring(summary["scoring"])))
    except (GinError, ValueError, KeyError):
        return given
    return {k: v for k, v in rules.items() if k not in defaults or defaults[k] != v}


def rules_text(summary: dict[str, Any], registry: Registry | None = None) -> str:
    """The rules the figures were measured under, and with what: the options
    that differ from the variant's defaults (or that none does), the seed,
    gincli's version, Python's, the platform."""
    from ..rulebook.rules import format_value

    differ = set_options(summary, registry)
    listed = ", ".join(f"{_text(k)}={_text(format_value(v))}" for k, v in differ.items())
    rules = (f" with {listed} (every other option at its default)" if listed
             else ", every option at its default")
    made = " · ".join(f"{k} {_text(summary[k])}" for k in ("gincli", "python", "platform") if summary.get(k))
    return (f"measured under {_text(summary['variant'])} · {_text(summary['scoring'])}{rules}, "
            f"seed {summary['seed']}" + (f"; {made}" if made else ""))


def summary_text(summary: dict[str, Any]) -> str:
    """``gin match``'s summary for people, as plain text."""
    from rich.console import Console

    console = Console(file=io.StringIO(), width=110, color_system=None, highlight=False)
    return rendered(render_summary(summary), console).removesuffix("\n")


def page(h: History, summary: dict[str, Any], registry: Registry | None = None) -> str:
    """The whole page, self-contained: Plotly's library is inlined once."""
    import plotly.graph_objects as go
    import plotly.io as pio

    title = (f"{_text(summary['variant'])} · {_text(summary['scoring'])} · seed {summary['seed']}"
             + (" · duplicate deals" if summary["duplicate"] else ""))
    players = ", ".join(_text(p["name"]) + (f" ({_text(p['bot'])})" if p["bot"] != p["name"] else "")
                        for p in summary["players"])
    parts = [f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<title>gin match: {title}</title><style>{STYLE}</style></head><body>",
             f"<h1>{title}</h1>", f"<p>{players}</p>"]
    parts.append(f"<p class=\"note\">{rules_text(summary, registry)}</p>")
    parts.append(f"<pre class=\"summary\">{html.escape(summary_text(summary))}</pre>")
    for i, (div, heading, note, figure) in enumerate(charts(h)):
        parts += [f"<h2>{heading}</h2>", f"<p class=\"note\">{note}</p>",
                  pio.to_html(go.Figure(figure), full_html=False, include_plotlyjs=i == 0, div_id=div,
                              default_height="420px", config={"displaylogo": False})]
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_page(path: str, h: History, summary: dict[str, Any], command: str, quiet: bool = False,
               force: bool = False, registry: Registry | None = None) -> None:
    """Write the page to ``path``, whole, never through a symbolic link nor over
    a file unless ``force`` (:func:`gincli.formats.files.write_new`), and say
    where on stderr (``gin COMMAND: ...``) unless ``quiet``."""
    write_new(path, page(h, summary, registry), "the report", force)
    if quiet:
        return
    data().flush()  # the summary, then where the page went
    say(f"gin {command}: report written to {safe(path, markup=False)}")


UNBOUNDED = {"above": ("+∞", "won every {unit}"), "below": ("−∞", "lost every {unit}"),
             "unknown": ("—", "not rated: it played only unrated players")}


def rating_chart(summary: dict[str, Any]) -> dict[str, Any]:
    """The rating list as a chart: a row a player, best at the top, its rating
    a dot on its 95% interval's line. What is unbounded is drawn so, never as
    a finite bar: a player who won (or lost) every game is an arrow off the
    chart's right (left) edge labelled +∞ (−∞), an interval's unbounded end
    runs to the edge and on as an arrowhead. The figure's numbers are all
    finite (its JSON is strict)."""
    players = summary["players"]
    unit = summary.get("unit", "game")
    finite = [abs(x) for p in players for x in (p["rating"], p["rating_low"], p["rating_high"]) if x is not None]
    centre = summary["anchor"]["rating"] if summary.get("anchor") else 0.0
    span = max(finite + [abs(centre), 100.0])
    edge, axis = span * 1.15, span * 1.4  # unbounded things reach past the edge, to the axis's end
    rows = list(range(len(players)))
    ticks = [f"{p['rank']}. {_text(p['name'])}"
             + (f" ({_text(bot_label(p['bot'], 16))})" if p["bot"] != p["name"] else "") for p in players]
    dots: dict[str, list[Any]] = {"x": [], "y": [], "text": []}
    lines: dict[str, list[Any]] = {"x": [], "y": []}
    off: dict[str, list[Any]] = {"x": [], "y": [], "text": [], "symbol": [], "position": [], "hover": []}
    arrows: list[dict[str, Any]] = []

    def arrow(y: int, start: float, end: float, colour: str = COLOURS[0]) -> None:
        arrows.append({"x": end, "y": y, "ax": start, "ay": y, "xref": "x", "yref": "y", "axref": "x", "ayref": "y",
                       "text": "", "showarrow": True, "arrowhead": 2, "arrowsize": 1.2, "arrowwidth": 2,
                       "arrowcolor": colour})

    for y, p in zip(rows, players, strict=True):
        r, low, high = p["rating"], p["rating_low"], p["rating_high"]
        if r is None:  # unbounded, or not rated at all
            kind = p.get("unbounded") or "unknown"
            if kind == "unknown" and not p["games"]:
                label, why = "—", f"not rated: it played no {unit}"
            else:
                label, why = UNBOUNDED[kind][0], UNBOUNDED[kind][1].format(unit=unit)
                if kind != "unknown" and p["score"] not in (0, 1):  # some won (lost) against the unrated
                    why += " against the rated players"
            side = 1 if kind == "above" else -1 if kind == "below" else 0
            off["x"].append(side * edge)
            off["y"].append(y)
            off["text"].append(f"{label} ({why})")
            off["symbol"].append({1: "triangle-right", -1: "triangle-left", 0: "circle-open"}[side])
            off["position"].append({1: "middle left", -1: "middle right", 0: "middle right"}[side])
            off["hover"].append(f"{_text(p['name'])}: {label}, {why}")
            if side:
                arrow(y, side * edge, side * axis, COLOURS[1])
            continue
        lo = low if low is not None else -edge
        hi = high if high is not None else edge
        lines["x"] += [lo, hi, None]
        lines["y"] += [y, y, None]
        if low is None:
            arrow(y, -edge, -axis)
        if high is None:
            arrow(y, edge, axis)
        dots["x"].append(r)
        dots["y"].append(y)
        dots["text"].append(f"{_text(p['name'])}: {signed(r)} (95%: {'−∞' if low is None else signed(low)} to "
                            f"{'+∞' if high is None else signed(high)})")
    traces: list[dict[str, Any]] = [
        {"type": "scatter", "mode": "lines", "name": "95% interval", "x": lines["x"], "y": lines["y"],
         "line": {"color": COLOURS[0], "width": 3}, "hoverinfo": "skip", "connectgaps": False},
        {"type": "scatter", "mode": "markers", "name": "rating", "x": dots["x"], "y": dots["y"],
         "marker": {"color": COLOURS[0], "size": 11}, "hovertext": dots["text"], "hoverinfo": "text"}]
    if off["x"]:
        traces.append({"type": "scatter", "mode": "markers+text", "name": "unbounded", "x": off["x"], "y": off["y"],
                       "text": off["text"], "textposition": off["position"], "hovertext": off["hover"],
                       "hoverinfo": "text", "marker": {"color": COLOURS[1], "size": 14, "symbol": off["symbol"]},
                       "textfont": {"color": COLOURS[1], "size": 13}})
    figure = _figure(traces, "rating (Elo)", "", shapes=[{"type": "line", "xref": "x", "yref": "paper", "x0": centre,
                                                            "x1": centre, "y0": 0, "y1": 1,
                                                            "line": {"dash": "dash", "width": 1, "color": "#888"}}],
                     annotations=arrows, height=max(260, 110 + 48 * len(players)))
    figure["layout"]["xaxis"].update({"range": [-axis, axis], "zeroline": False})
    figure["layout"]["yaxis"].update({"tickvals": rows, "ticktext": ticks, "autorange": "reversed",
                                      "zeroline": False})
    return figure


def tournament_page(summary: dict[str, Any], registry: Registry | None = None) -> str:
    """A tournament's page, self-contained: the rating list and the crosstable
    (as ``gin tournament`` prints them), and a chart of the ratings with their
    95% intervals (:func:`rating_chart`)."""
    import plotly.graph_objects as go
    import plotly.io as pio
    from rich.console import Console

    from .summary import render_tournament

    console = Console(file=io.StringIO(), width=130, color_system=None, highlight=False)
    text = rendered(render_tournament(summary), console).removesuffix("\n")
    title = (f"{_text(summary['variant'])} · {_text(summary['scoring'])} · seed {summary['seed']} · "
             f"{summary['kind']} of {len(summary['players'])}")
    figure = rating_chart(summary)
    parts = [f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<title>gin tournament: {title}</title><style>{STYLE}</style></head><body>",
             f"<h1>{title}</h1>", f"<p class=\"note\">{rules_text(summary, registry)}</p>",
             f"<pre class=\"summary\">{html.escape(text)}</pre>", "<h2>Ratings</h2>",
             "<p class=\"note\">each player's rating, the maximum-likelihood Bradley–Terry fit of every "
             f"{_text(summary.get('unit', 'game'))}, on the line of its 95% interval; a player who won or lost every "
             "one has no finite rating: an arrow off the chart's edge, +∞ or −∞ (as an interval's unbounded "
             "end)</p>",
             pio.to_html(go.Figure(figure), full_html=False, include_plotlyjs=True, div_id="ratings",
                         default_height=f"{figure['layout']['height']}px", config={"displaylogo": False}),
             "</body></html>\n"]
    return "\n".join(parts)


def write_tournament_page(path: str, summary: dict[str, Any], quiet: bool = False, force: bool = False,
                          command: str = "tournament", registry: Registry | None = None) -> None:
    """Write a tournament's page, as :func:`write_page` writes a match's."""
    write_new(path, tournament_page(summary, registry), "the report", force)
    if not quiet:
        data().flush()
        say(f"gin {command}: report written to {safe(path, markup=False)}")


# gin report



def report(
    ctx: typer.Context,
    files: Annotated[list[str] | None, typer.Argument(
        metavar="FILE...", help="Transcripts of one match or one tournament, in order; - reads standard input.",
        show_default=False)]
    = None,
    output: Annotated[str, typer.Option("--output", metavar="FILE.html", help="The page to write.")]
    = "report.html",
    force: Annotated[bool, typer.Option("--force", help="Replace the page if it exists.")] = False,
    sprt: Annotated[str | None, typer.Option("--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]",
                                             help="Draw the SPRT of H0 elo0 against H1 elo1 (alpha and beta 0.05 "
                                                  "unless given); in a tournament, each pairing's.")] = None,
    anchor: Annotated[str | None, typer.Option(
        "--anchor", metavar="NAME[=ELO]", help="A tournament: rate NAME at ELO (0 unless given), as gin tournament "
                                               "--anchor did; without it, the ratings' mean is 0.")] = None,
    format: RowsFormatOpt = RowsFormat.text,
    input_format: InputFormatOpt = None,
    quiet: QuietOpt = False,
) -> None:
    files = files_given(files, "report", "the transcripts of a match or a tournament")
    check_page(output, "--output", force)
    registry = settings(ctx).registry()
    try:
        test = parse_sprt(sprt) if sprt else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    reading = Reading(test, anchor, registry, error, write_data if format == "csv" else None)
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
                            problem = reading.add(item.record, item.where, reader.name)
                        except UsageError:
                            raise
                        except Exception as exc:
                            problem = record_failure(exc, "read", "transcript")
                    else:
                        reading.records += 1
                    if problem is not None:
                        reading.left_out(item.where, problem)
                        status = max(status, EXIT_RECORD_FAILED)
                    if item.index % 64 == 0:
                        advance(reader.position())
        except InputError as exc:  # an input that cannot be read: no page of the others
            raise UsageError(f"{exc.message}; no page written") from None
    drawing = reading.drawing
    if drawing is None:
        raise UsageError(reading.nothing(files))
    if isinstance(drawing, TournamentDrawing):
        summary = drawing.summary()
        if format == "json":
            write_json(summary)
        elif format == "csv":
            write_data(rows.tournament_tables(summary))
        else:
            show(render_tournament(summary))
        write_tournament_page(output, summary, quiet, force, "report", registry)
        raise typer.Exit(status)
    history = drawing.history
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
    write_page(output, history, summary, "report", quiet, force, registry)
    raise typer.Exit(status)


