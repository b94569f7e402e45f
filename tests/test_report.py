"""Balance reports (issue 16): the HTML page, the per-game table and the comparison of two option settings.

The page is parsed, not grepped: its images must be inline PNGs, nothing may point outside it, and
its intervals must be the ones computed here independently (Wilson from its quadratic, Newcombe's
method 10, a difference of means by hand), with published values as the anchor for the formulas.
"""

from __future__ import annotations

import base64
import csv
import math
import statistics
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warroom.analysis.compare import Comparison, compare_options
from warroom.analysis.report import game_rows, write_games, write_report
from warroom.analysis.simulate import END_TURN, SEED, SimulationReport, simulate
from warroom.analysis.stats import mean_difference, rate_difference, wilson
from warroom.cli import app

pytest.importorskip("matplotlib")

Z = 1.959963984540054
RUNNER = CliRunner()


class Page(HTMLParser):
    """What a reader of the page gets: its images, links, tables (rows of cells with their attributes) and headings."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []
        self.tables: dict[str, list[list[tuple[str, dict[str, str]]]]] = {}
        self.headings: list[str] = []
        self._table: str | None = None
        self._cell: tuple[list[str], dict[str, str]] | None = None
        self._heading: list[str] | None = None
        self._count = 0
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "img":
            self.images.append(a["src"])
        for key in ("href", "src"):
            if key in a and tag != "img":
                self.links.append(a[key])
        if tag == "table":
            self._count += 1
            self._table = a.get("id", f"table{self._count}")
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = ([], a)
        elif tag in ("h2", "h3"):
            self._heading = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table:
            self.tables[self._table][-1].append(("".join(self._cell[0]).strip(), self._cell[1]))
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag in ("h2", "h3") and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[0].append(data)
        if self._heading is not None:
            self._heading.append(data)


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    """The roots of (p - k/n)^2 = z^2 p (1 - p) / n, the definition of the Wilson interval."""
    a = 1 + Z * Z / n
    b = -(2 * k / n + Z * Z / n)
    c = (k / n) ** 2
    root = math.sqrt(max(0.0, b * b - 4 * a * c))
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def test_the_intervals_match_published_values() -> None:
    # Wilson (1927) / Newcombe (1998) Table II, example (a): 56/70 - 48/80, method 10: +0.0524 to +0.3339
    assert wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert wilson(5, 10) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    d, low, high = rate_difference(56, 70, 48, 80)
    assert (d, low, high) == (pytest.approx(0.2), pytest.approx(0.0524, abs=1e-4), pytest.approx(0.3339, abs=1e-4))
    for k, n in ((0, 20), (3, 20), (20, 20), (7, 31)):
        assert wilson(k, n) == pytest.approx(wilson_by_hand(k, n), abs=1e-12)
    d, low, high = mean_difference([1, 2, 3, 4], [2, 2, 2])
    assert d == pytest.approx(0.5) and high - d == pytest.approx(Z * math.sqrt(statistics.variance([1, 2, 3, 4]) / 4))


@pytest.fixture(scope="module")
def dragoon() -> SimulationReport:
    return simulate("dragoon", 20, agent="heuristic", seed=0)


@pytest.fixture(scope="module")
def patton() -> SimulationReport:
    return simulate("patton", 20, agent="heuristic", seed=0, scenario="bulge", side_agents={"Axis": "random"})


def test_a_study_keeps_each_game_but_its_text_report_is_unchanged(dragoon: SimulationReport) -> None:
    assert [game[SEED] for game in dragoon.per_game] == list(range(20))
    assert all(isinstance(game[END_TURN], int) for game in dragoon.per_game)
    data = dragoon.to_json()
    assert "per_game" not in data and SEED not in data["numbers"] and END_TURN not in data["numbers"]
    assert set(data["numbers"]) == {"VP", "German units eliminated"}


@pytest.mark.parametrize("which", ["dragoon", "patton"])
def test_the_report_is_one_page_with_plots_intervals_and_every_game(
    which: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    report: SimulationReport = request.getfixturevalue(which)
    path = tmp_path / "study.html"
    write_report(path, report)
    page = Page(path.read_text(encoding="utf-8"))
    # self-contained: every image is an inline PNG, and nothing else is fetched
    assert len(page.images) >= 4
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.links == []
    for heading in ("Outcomes", "Scores", "When each objective falls", "Outcome by the turn the game ended", "Games"):
        assert heading in page.headings
    for key in report.numbers:  # a histogram per numeric field, named by its key
        assert key in page.headings
    for key in report.events:  # a cumulative curve per objective field
        assert key in page.headings
    # the outcome shares and their Wilson intervals, computed here
    rows = page.tables["outcomes"][1:]
    seen = {}
    for row in rows:
        count = int(row[1][0].replace(",", ""))
        ci = row[3][1]
        seen[row[0][0]] = (count, float(ci["data-low"]), float(ci["data-high"]))
    assert sum(count for count, _, _ in seen.values()) == 20
    for name, count in report.outcomes.items():
        label = name if name == "draw" else f"{report.name(name)} victory"
        low, high = wilson_by_hand(count, 20)
        assert seen[label] == (count, pytest.approx(low, abs=1e-6), pytest.approx(high, abs=1e-6))
    # the per-game table: one row per game, in seed order, with the winners played
    games = page.tables["games"]
    header = [text for text, _ in games[0]]
    assert len(games) == 21
    seeds = [int(row[header.index("seed")][0]) for row in games[1:]]
    assert seeds == list(range(20))
    winners = [row[header.index("winner")][0] for row in games[1:]]
    assert winners == [game["winner"] or "draw" for game in report.per_game]
    # outcome by end turn: the games of each end turn add up to the study
    by_turn = page.tables["by-end-turn"][1:]
    assert sum(int(row[1][0].replace(",", "")) for row in by_turn) == 20


def test_when_each_objective_falls_comes_from_the_summaries(patton: SimulationReport) -> None:
    # Patton's summary names its objective and the turn it was achieved (None where it was not)
    ((name, stats),) = patton.events["objective achieved"].items()
    assert name == "Bastogne relieved and Wiltz held"
    turns = [game["objective achieved"][name] for game in patton.per_game]
    wins = [game["winner"] == "Allied" for game in patton.per_game]
    assert [t is not None for t in turns] == wins
    assert all(t == game[END_TURN] for t, game in zip(turns, patton.per_game, strict=True) if t is not None)
    assert stats["rate"] == sum(wins) / 20


def test_the_per_game_table_reads_back(dragoon: SimulationReport, tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    assert write_games(path, dragoon) == 20
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 20
    assert [int(row["seed"]) for row in rows] == list(range(20))
    assert [int(row["VP"]) for row in rows] == [game["VP"] for game in dragoon.per_game]
    assert {"game", "winner", END_TURN, "return Allied", "captured: Marseilles", "held at the end: Toulon"} <= set(
        rows[0]
    )
    vp = [int(row["VP"]) for row in rows]
    assert statistics.fmean(vp) == pytest.approx(dragoon.numbers["VP"]["mean"])


def test_the_per_game_table_as_parquet(dragoon: SimulationReport, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "games.parquet"
    write_games(path, dragoon)
    table = pq.read_table(path).to_pylist()
    assert table == game_rows(dragoon)


@pytest.fixture(scope="module")
def comparison() -> Comparison:
    return compare_options(
        "dragoon",
        20,
        [{"panzer_counterattack": "push_back"}, {"panzer_counterattack": "stall_only"}],
        agent="heuristic",
        seed=0,
    )


def _newcombe_by_hand(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = wilson_by_hand(k1, n1), wilson_by_hand(k2, n2)
    d = p1 - p2
    return d, d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


def test_a_comparison_plays_the_same_seeds_and_reports_the_difference(comparison: Comparison, tmp_path: Path) -> None:
    a, b = (arm.report for arm in comparison.arms)
    assert [g[SEED] for g in a.per_game] == [g[SEED] for g in b.per_game] == list(range(20))
    assert a.options["panzer_counterattack"] == "push_back" and b.options["panzer_counterattack"] == "stall_only"
    diffs = comparison.differences()
    for name in ("Allied", "draw", "German"):
        k1 = sum(1 for g in a.per_game if (g["winner"] or "draw") == name)
        k2 = sum(1 for g in b.per_game if (g["winner"] or "draw") == name)
        d, low, high = _newcombe_by_hand(k1, 20, k2, 20)
        row = diffs["rates"][name]
        assert (row["difference"], row["low"], row["high"]) == (
            pytest.approx(d),
            pytest.approx(low),
            pytest.approx(high),
        )
    xs, ys = [g["VP"] for g in a.per_game], [g["VP"] for g in b.per_game]
    d = sum(xs) / 20 - sum(ys) / 20
    half = Z * math.sqrt(statistics.variance(xs) / 20 + statistics.variance(ys) / 20)
    vp = diffs["means"]["VP"]
    assert (vp["difference"], vp["low"], vp["high"]) == (
        pytest.approx(d),
        pytest.approx(d - half),
        pytest.approx(d + half),
    )
    # the page shows both settings and the same differences
    path = tmp_path / "compare.html"
    write_report(path, comparison)
    page = Page(path.read_text(encoding="utf-8"))
    assert "Difference between the settings" in page.headings
    rows = {row[0][0]: row for row in page.tables["differences"][1:]}
    assert float(rows["mean VP"][3][1]["data-value"]) == pytest.approx(d, abs=1e-6)
    assert float(rows["mean VP"][4][1]["data-low"]) == pytest.approx(d - half, abs=1e-6)
    german = rows["German victory (share)"]
    assert float(german[4][1]["data-high"]) == pytest.approx(diffs["rates"]["German"]["high"], abs=1e-6)
    settings = {row[0][0] for row in page.tables["outcomes"][1:]}
    assert settings == {"panzer_counterattack=push_back", "panzer_counterattack=stall_only"}
    assert len(page.tables["games"]) == 41
    table = tmp_path / "both.csv"
    write_games(table, comparison)
    with table.open(encoding="utf-8") as handle:
        assert [row["setting"] for row in csv.DictReader(handle)] == ["panzer_counterattack=push_back"] * 20 + [
            "panzer_counterattack=stall_only"
        ] * 20


def test_the_command_writes_the_report_and_the_table(tmp_path: Path) -> None:
    html, table = tmp_path / "study.html", tmp_path / "games.csv"
    result = RUNNER.invoke(
        app,
        [
            "simulate",
            "patton",
            "--scenario",
            "sicily",
            "--games",
            "6",
            "--agent",
            "random",
            "--compare-option",
            "turn_limit=4",
            "--compare-option",
            "turn_limit=8",
            "--report",
            str(html),
            "--out",
            str(table),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with table.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 12 and {row["setting"] for row in rows} == {"turn_limit=4", "turn_limit=8"}
    assert max(int(row[END_TURN]) for row in rows if row["setting"] == "turn_limit=4") <= 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--compare-option", "turn_limit=4"], "give it twice"),
        (["--compare-option", "turn_limit=4", "--compare-option", "turn_limit=4"], "the same"),
        (
            ["--option", "turn_limit=4", "--compare-option", "turn_limit=4", "--compare-option", "turn_limit=8"],
            "give it once",
        ),
        (["--out", "games.xlsx"], ".csv or a .parquet"),
    ],
)
def test_the_command_refuses_what_it_cannot_do(args: list[str], message: str) -> None:
    result = RUNNER.invoke(
        app, ["simulate", "patton", "--scenario", "sicily", "--games", "2", "--agent", "random", *args]
    )
    assert result.exit_code == 1 and message in " ".join(result.output.split())


def test_without_matplotlib_the_report_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import warroom.analysis.report as module

    monkeypatch.setattr(module, "matplotlib_available", lambda: False)  # as without the report extra
    result = RUNNER.invoke(app, ["simulate", "dragoon", "--games", "2", "--report", str(tmp_path / "x.html")])
    assert result.exit_code == 1 and "pip install 'warroom[report]'" in " ".join(result.output.split())
    assert not (tmp_path / "x.html").exists()
    monkeypatch.setattr(module, "pyarrow_available", lambda: False)
    result = RUNNER.invoke(app, ["simulate", "dragoon", "--games", "2", "--out", str(tmp_path / "x.parquet")])
    assert result.exit_code == 1 and "pip install pyarrow" in " ".join(result.output.split())
