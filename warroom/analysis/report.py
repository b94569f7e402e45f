"""Balance reports: one self-contained HTML page of a study (or of two settings compared), and its per-game table.

    write_report("study.html", report)       # a SimulationReport, or a Comparison of two settings
    write_games("games.csv", report)         # one row per game (.csv, or .parquet with pyarrow installed)

`warroom simulate GAME --games N --report study.html --out games.csv` calls these. The page has no
external file and asks for nothing over the network: the plots are PNG images inside it (base64),
drawn by matplotlib on its Agg canvas (no display, no global pyplot state), so it can be mailed or
attached to an issue as it is. matplotlib is the optional extra `warroom[report]`.

Everything on the page comes from the games' facts (`SimulationReport.per_game`: play_one's
winner, returns, seed and end turn, plus the game's own `summarize`), read without naming a game:
- outcome shares, each with its 95% Wilson interval (warroom.analysis.stats);
- a histogram of every numeric summary field, named by its key (VP, units lost);
- when each objective falls: every summary field that maps names to a turn or None (e.g.
  "captured": {port: turn}, "objective achieved": {objective: turn}) gives a cumulative curve per name, the
  share of games in which it had fallen by each turn;
- the outcome shares by the turn the game ended;
- the per-game table (the first MAX_GAME_ROWS games; the file from write_games has them all).
A comparison shows both settings on each plot and adds the differences with their intervals.
"""

from __future__ import annotations

import base64
import csv
import html
import io
from collections import Counter
from pathlib import Path
from typing import Any

from warroom.engine.errors import WarroomError

from .compare import Comparison
from .simulate import END_TURN, PLAYED, SEED, SimulationReport
from .stats import LEVEL, wilson

MAX_GAME_ROWS = 1000
"""Games listed in the page's table: enough to browse, few enough that a 100,000-game study's page stays small."""
TABLE_SUFFIXES = (".csv", ".parquet")


class ReportError(WarroomError):
    code = "report"


def matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def pyarrow_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def check_table_path(path: Path) -> None:
    """Refuse, before any game is played, a table file warroom cannot write (the suffix says the format)."""
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise ReportError(f"{path}: the per-game table is a .csv or a .parquet file")
    if suffix == ".parquet" and not pyarrow_available():
        raise ReportError(f"{path}: writing Parquet needs pyarrow (pip install pyarrow); or write a .csv")


Study = SimulationReport | Comparison


def _arms(study: Study) -> list[tuple[str | None, SimulationReport]]:
    if isinstance(study, Comparison):
        return [(arm.label, arm.report) for arm in study.arms]
    return [(None, study)]


# -- the per-game table ------------------------------------------------------------------------------
def game_rows(study: Study) -> list[dict[str, Any]]:
    """One flat row per game: setting (in a comparison), game, scenario, seed, winner ("draw" for none),
    end turn, each side's return, then the summary's fields (a mapping field spreads into
    "field: name" columns). Every row has every column (None where a game has no value)."""
    rows: list[dict[str, Any]] = []
    for label, report in _arms(study):
        for facts in report.per_game:
            row: dict[str, Any] = {} if label is None else {"setting": label}
            row.update(
                game=report.game,
                scenario=report.scenario,
                seed=facts.get(SEED),
                winner=facts.get("winner") if facts.get("winner") is not None else "draw",
            )
            row[END_TURN] = facts.get(END_TURN)
            for side in report.sides:
                row[f"return {side}"] = (facts.get("returns") or {}).get(side)
            for key, value in facts.items():
                if key in PLAYED:
                    continue
                if isinstance(value, dict):
                    row.update({f"{key}: {name}": inner for name, inner in value.items()})
                else:
                    row[key] = value
            rows.append(row)
    columns = list(dict.fromkeys(column for row in rows for column in row))
    return [{column: row.get(column) for column in columns} for row in rows]


def write_games(path: str | Path, study: Study) -> int:
    """Write the per-game table as CSV or Parquet (by the suffix); the number of rows written."""
    path = Path(path)
    check_table_path(path)
    rows = game_rows(study)
    if path.suffix.lower() == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), path)
        return len(rows)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else [])
        writer.writeheader()
        writer.writerows(rows)
    return len(rows)


# -- the page ------------------------------------------------------------------------------------------
def write_report(path: str | Path, study: Study) -> None:
    """Write the self-contained HTML balance report of a study or a comparison."""
    Path(path).write_text(render_html(study), encoding="utf-8")


def render_html(study: Study) -> str:
    if not matplotlib_available():
        raise ReportError("the balance report draws its plots with matplotlib: pip install 'warroom[report]'")
    arms = _arms(study)
    first = arms[0][1]
    title = f"{first.game} ({first.scenario})" if first.scenario else first.game
    parts = [f"<h1>Balance report: {_e(title)}</h1>", _header(study, arms)]
    parts += _outcomes(arms)
    if isinstance(study, Comparison):
        parts += _differences(study)
    parts += _numbers(arms)
    parts += _objectives(arms)
    parts += _by_end_turn(arms)
    parts += _games_table(study)
    return PAGE.format(title=_e(f"Balance report: {title}"), body="\n".join(parts))


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
caption {{ font-weight: bold; text-align: left; padding-bottom: 0.3em; }}
img {{ max-width: 100%; display: block; margin: 0.5em 0; }}
.meta {{ color: #555; }}
.scroll {{ max-height: 30em; overflow: auto; }}
</style>
</head>
<body>
{body}
</body>
</html>
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _ci_cell(low: float, high: float, fmt: str = "share") -> str:
    """An interval's cell, its bounds in full in data-low / data-high: `share` 12.3% – 45.6%, `signed`
    (a difference of shares) -4.0% to +8.1%, `number` (a difference of means) -0.50 to +1.20."""
    if fmt == "share":
        text = f"{_pct(low)} – {_pct(high)}"
    elif fmt == "signed":
        text = f"{low:+.1%} to {high:+.1%}"
    else:
        text = f"{low:+.2f} to {high:+.2f}"
    return f'<td class="ci" data-low="{low:.6f}" data-high="{high:.6f}">{text}</td>'


def _outcome_label(report: SimulationReport, name: str) -> str:
    return name if name == "draw" else f"{report.name(name)} victory"


def _header(study: Study, arms: list[tuple[str | None, SimulationReport]]) -> str:
    first = arms[0][1]
    lines = [
        f"{first.games:,} games per study, agent {_e(first._agent_words())}, "
        f"seeds {first.seed}..{first.seed + first.games - 1}"
    ]
    for label, report in arms:
        options = ", ".join(f"{key}={value}" for key, value in report.options.items()) or "the rules as written"
        where = f"setting {_e(label)}: " if label is not None else ""
        lines.append(f"{where}rules options: {_e(options)}; {report.seconds:.1f} s ({_e(report.backend)})")
    if isinstance(study, Comparison):
        lines.append(
            "Both settings play the same seeds with the same agents; "
            "differences are the first setting minus the second."
        )
    lines.append(f"Intervals are {LEVEL:.0%} confidence intervals (Wilson for shares).")
    return '<p class="meta">' + "<br>\n".join(lines) + "</p>"


def _figure(width: float = 7.0, height: float = 3.2) -> Any:
    """A matplotlib Figure on the Agg canvas: no display and no pyplot global state."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _image(fig: Any, alt: str) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=96)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="{_e(alt)}" src="data:image/png;base64,{data}">'


LINESTYLES = ("-", "--", ":", "-.")


def _outcomes(arms: list[tuple[str | None, SimulationReport]]) -> list[str]:
    names = list(dict.fromkeys(name for _, report in arms for name in report.outcomes))
    first = arms[0][1]
    parts = ["<h2>Outcomes</h2>"]
    rows = []
    for label, report in arms:
        for name in names:
            count = report.outcomes.get(name, 0)
            low, high = wilson(count, report.games)
            setting = "" if label is None else f"<td>{_e(label)}</td>"
            rows.append(
                f'<tr data-outcome="{_e(name)}">{setting}<td>{_e(_outcome_label(report, name))}</td>'
                f"<td>{count:,}</td><td>{_pct(report.rate(name))}</td>{_ci_cell(low, high)}</tr>"
            )
    head = (
        "<th>setting</th>" if arms[0][0] is not None else ""
    ) + f"<th>result</th><th>games</th><th>share</th><th>{LEVEL:.0%} CI</th>"
    parts.append(
        f'<table id="outcomes"><caption>Outcome shares</caption><tr>{head}</tr>\n' + "\n".join(rows) + "</table>"
    )
    fig = _figure(7.0, 0.6 + 0.45 * len(names) * len(arms))
    ax = fig.add_subplot()
    height = 0.8 / len(arms)
    for k, (label, report) in enumerate(arms):
        ys = [i + (k - (len(arms) - 1) / 2) * height for i in range(len(names))]
        shares = [report.rate(name) for name in names]
        bounds = [wilson(report.outcomes.get(name, 0), report.games) for name in names]
        err = [
            [max(0.0, s - lo) for s, (lo, _) in zip(shares, bounds, strict=True)],
            [max(0.0, hi - s) for s, (_, hi) in zip(shares, bounds, strict=True)],
        ]
        ax.barh(ys, shares, height=height * 0.9, xerr=err, capsize=3, label=label or None, alpha=0.85)
    ax.set_yticks(range(len(names)), [_outcome_label(first, name) for name in names])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"share of games ({LEVEL:.0%} Wilson interval)")
    if arms[0][0] is not None:
        ax.legend(loc="best", fontsize="small")
    parts.append(_image(fig, "outcome shares with confidence intervals"))
    return parts


def _differences(study: Comparison) -> list[str]:
    diffs = study.differences()
    a, b = (arm.label for arm in study.arms)
    rows = []
    for name, row in diffs["rates"].items():
        rows.append(
            f'<tr data-outcome="{_e(name)}"><td>{_e(_outcome_label(study.first, name))} (share)</td>'
            f"<td>{_pct(row['a'])}</td><td>{_pct(row['b'])}</td>"
            f'<td class="difference" data-value="{row["difference"]:.6f}">'
            f"{row['difference']:+.1%}</td>{_ci_cell(row['low'], row['high'], 'signed')}</tr>"
        )
    for key, row in diffs["means"].items():
        rows.append(
            f'<tr data-number="{_e(key)}"><td>mean {_e(key)}</td><td>{row["a"]:.2f}</td><td>{row["b"]:.2f}</td>'
            f'<td class="difference" data-value="{row["difference"]:.6f}">{row["difference"]:+.2f}</td>'
            f"{_ci_cell(row['low'], row['high'], 'number')}</tr>"
        )
    head = f"<th></th><th>{_e(a)}</th><th>{_e(b)}</th><th>difference</th><th>{LEVEL:.0%} CI</th>"
    return [
        "<h2>Difference between the settings</h2>",
        f"<p>({_e(a)}) minus ({_e(b)}). Shares: Newcombe's interval from the two Wilson intervals; means: the normal "
        "interval of a difference of means. An interval that excludes 0 is a difference the study can see.</p>",
        f'<table id="differences"><tr>{head}</tr>\n' + "\n".join(rows) + "</table>",
    ]


def _numbers(arms: list[tuple[str | None, SimulationReport]]) -> list[str]:
    keys = list(dict.fromkeys(key for _, report in arms for key in report.numbers))
    if not keys:
        return []
    parts = ["<h2>Scores</h2>", "<p>Each numeric field of the games' summaries.</p>"]
    for key in keys:
        fig = _figure(7.0, 2.8)
        ax = fig.add_subplot()
        values = {label: [float(game[key]) for game in report.per_game if key in game] for label, report in arms}
        every = [v for vs in values.values() for v in vs]
        if all(v.is_integer() for v in every):
            lo, hi = int(min(every)), int(max(every))
            width = 0.8 / len(arms)
            for k, (label, vs) in enumerate(values.items()):
                counts = Counter(int(v) for v in vs)
                xs = [x + (k - (len(arms) - 1) / 2) * width for x in range(lo, hi + 1)]
                ax.bar(
                    xs,
                    [counts.get(x, 0) / len(vs) for x in range(lo, hi + 1)],
                    width=width * 0.95,
                    label=label,
                    alpha=0.85,
                )
            if hi - lo <= 30:
                ax.set_xticks(range(lo, hi + 1))
        else:
            for label, vs in values.items():
                ax.hist(
                    vs, bins=20, range=(min(every), max(every)), weights=[1 / len(vs)] * len(vs), alpha=0.6, label=label
                )
        ax.set_xlabel(key)
        ax.set_ylabel("share of games")
        if arms[0][0] is not None:
            ax.legend(fontsize="small")
        stats = "; ".join(
            f"{'' if label is None else _e(label) + ': '}mean {report.numbers[key]['mean']:.2f}, "
            f"median {report.numbers[key]['median']:g}, sd {report.numbers[key]['sd']:.2f}"
            for label, report in arms
            if key in report.numbers
        )
        parts += [f"<h3>{_e(key)}</h3>", f"<p>{stats}</p>", _image(fig, f"histogram of {key}")]
    return parts


def _objectives(arms: list[tuple[str | None, SimulationReport]]) -> list[str]:
    fields = list(dict.fromkeys(key for _, report in arms for key in report.events))
    if not fields:
        return []
    parts = [
        "<h2>When each objective falls</h2>",
        "<p>The share of games in which each had fallen by the end of each turn (the curve ends at the share of "
        "games in which it fell at all).</p>",
    ]
    for key in fields:
        fig = _falls_figure(arms, key)
        rows = _falls_rows(arms, key)
        head = (
            "<th>setting</th>" if arms[0][0] is not None else ""
        ) + f"<th>{_e(key)}</th><th>share</th><th>{LEVEL:.0%} CI</th><th>mean turn</th><th>median turn</th>"
        parts += [
            f"<h3>{_e(key)}</h3>",
            _image(fig, f"cumulative share of games by turn: {key}"),
            f"<table><tr>{head}</tr>\n" + "\n".join(rows) + "</table>",
        ]
    return parts


def _falls_figure(arms: list[tuple[str | None, SimulationReport]], key: str) -> Any:
    """The cumulative share of games in which each of `key`'s objectives had fallen by each turn: a step curve
    per objective (its colour) and setting (its line style)."""
    from matplotlib.ticker import MaxNLocator

    names = list(dict.fromkeys(name for _, report in arms for name in report.events.get(key, {})))
    turns = [t for _, report in arms for game in report.per_game for t in _turns(game, key)]
    ends = [game.get(END_TURN) for _, report in arms for game in report.per_game]
    span = [t for t in turns + ends if isinstance(t, int | float) and not isinstance(t, bool)]
    fig = _figure(7.0, 3.2)
    ax = fig.add_subplot()
    if span:
        # from the turn before the first fall (none yet) to one past the last, so a fall on the last turn shows
        lo, hi = int(min(span)) - 1, int(max(span)) + 1
        xs = list(range(lo, hi + 1))
        for k, (label, report) in enumerate(arms):
            for j, name in enumerate(names):
                fallen = [game.get(key, {}).get(name) for game in report.per_game]
                ys = [sum(1 for t in fallen if _is_turn(t) and t <= x) / report.games for x in xs]
                ax.step(
                    xs,
                    ys,
                    where="post",
                    color=f"C{j}",
                    linestyle=LINESTYLES[k % len(LINESTYLES)],
                    label=name if label is None else f"{name} ({label})",
                )
        ax.set_xlim(lo, hi)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("turn")
    ax.set_ylabel("share of games, cumulative")
    ax.legend(fontsize="small", loc="upper left")
    return fig


def _falls_rows(arms: list[tuple[str | None, SimulationReport]], key: str) -> list[str]:
    """The table's rows for `key`: per setting and objective, the share of games in which it fell (with its
    interval) and its mean and median turn."""
    rows = []
    for label, report in arms:
        for name, st in report.events.get(key, {}).items():
            count = sum(1 for game in report.per_game if _is_turn(game.get(key, {}).get(name)))
            low, high = wilson(count, report.games)
            mean = "–" if st["mean"] is None else f"{st['mean']:.1f}"
            median = "–" if st["median"] is None else f"{st['median']:g}"
            setting = "" if label is None else f"<td>{_e(label)}</td>"
            rows.append(
                f"<tr>{setting}<td>{_e(name)}</td><td>{_pct(st['rate'])}</td>{_ci_cell(low, high)}"
                f"<td>{mean}</td><td>{median}</td></tr>"
            )
    return rows


def _is_turn(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _turns(game: dict[str, Any], key: str) -> list[Any]:
    value = game.get(key)
    return [t for t in value.values() if _is_turn(t)] if isinstance(value, dict) else []


def _by_end_turn(arms: list[tuple[str | None, SimulationReport]]) -> list[str]:
    if not all(_is_turn(game.get(END_TURN)) for _, report in arms for game in report.per_game):
        return []
    from matplotlib.ticker import MaxNLocator

    names = list(dict.fromkeys(name for _, report in arms for name in report.outcomes))
    first = arms[0][1]
    parts = ["<h2>Outcome by the turn the game ended</h2>"]
    fig = _figure(7.0 if len(arms) == 1 else 10.0, 3.2)
    axes = fig.subplots(1, len(arms), squeeze=False)[0]
    rows = []
    for ax, (label, report) in zip(axes, arms, strict=True):
        per_turn: dict[int, Counter[str]] = {}
        for game in report.per_game:
            winner = game.get("winner")
            per_turn.setdefault(int(game[END_TURN]), Counter())["draw" if winner is None else str(winner)] += 1
        turns = sorted(per_turn)
        bottom = [0.0] * len(turns)
        for j, name in enumerate(names):
            shares = [per_turn[t][name] / sum(per_turn[t].values()) for t in turns]
            ax.bar(turns, shares, bottom=bottom, color=f"C{j}", label=_outcome_label(first, name))
            bottom = [b + s for b, s in zip(bottom, shares, strict=True)]
        for t in turns:
            ax.annotate(str(sum(per_turn[t].values())), (t, 1.0), ha="center", va="bottom", fontsize="x-small")
        ax.set_ylim(0, 1.1)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("turn the game ended (number of games above)")
        ax.set_ylabel("share of games")
        if label is not None:
            ax.set_title(label, fontsize="medium")
        for t in turns:
            total = sum(per_turn[t].values())
            setting = "" if label is None else f"<td>{_e(label)}</td>"
            cells = "".join(f"<td>{_pct(per_turn[t][name] / total)}</td>" for name in names)
            rows.append(f"<tr>{setting}<td>{t}</td><td>{total:,}</td>{cells}</tr>")
    axes[0].legend(fontsize="small")
    head = (
        ("<th>setting</th>" if arms[0][0] is not None else "")
        + "<th>end turn</th><th>games</th>"
        + "".join(f"<th>{_e(_outcome_label(first, name))}</th>" for name in names)
    )
    parts += [
        _image(fig, "outcome shares by the turn the game ended"),
        f'<table id="by-end-turn"><tr>{head}</tr>\n' + "\n".join(rows) + "</table>",
    ]
    return parts


def _games_table(study: Study) -> list[str]:
    rows = game_rows(study)
    if not rows:
        return []
    shown = rows[:MAX_GAME_ROWS]
    note = f"All {len(rows):,} games" if len(shown) == len(rows) else f"The first {len(shown):,} of {len(rows):,} games"
    columns = list(rows[0])
    head = "".join(f"<th>{_e(column)}</th>" for column in columns)
    body = "\n".join(
        "<tr>" + "".join(f"<td>{_cell(row[column])}</td>" for column in columns) + "</tr>" for row in shown
    )
    return [
        "<h2>Games</h2>",
        f"<p>{note} (warroom simulate ... --out games.csv writes every game for your own tools).</p>",
        f'<div class="scroll"><table id="games"><tr>{head}</tr>\n{body}</table></div>',
    ]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return _e(value)


__all__ = [
    "MAX_GAME_ROWS",
    "ReportError",
    "check_table_path",
    "game_rows",
    "matplotlib_available",
    "pyarrow_available",
    "render_html",
    "write_games",
    "write_report",
]
