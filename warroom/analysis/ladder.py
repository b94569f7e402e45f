"""An agent ladder: a round robin between computer players, with sides swapped, rated by Elo.

    report = ladder(game, ["random", "heuristic", "mcts@100"], scenario=None, games_per_pair=4)

Agents are named as `get_agent` knows them, with an optional budget: `mcts@100` is MCTS with 100
simulations a decision (reproducible: the same seeds give the same games on any machine),
`mcts@300ms` MCTS with 300 ms a decision (closer to play, but the games depend on the machine's
speed; the search looks at the clock every 16 simulations, so it runs 16 at least). An agent may
appear twice with different budgets; its label is the text given.

Two-sided games: each pair of agents plays `games_per_pair` games with each agent on each side,
seed `seed + k` both ways, so the dice that favoured one side in game k favour the other agent
the second time and the luck of the draw cancels as far as it can. An agent scores its side's
`Result.returns` mapped to [0, 1] (a win 1, a draw 1/2, a loss 0). Ratings are the maximum
likelihood fit of the Bradley-Terry model in Elo units, P(A beats B) = 1 / (1 + 10^((Rb - Ra)/400)),
with draws counted as half a win, plus one virtual draw per pair (as BayesElo does) so that an
agent that won every game still gets a finite rating; the ratings are anchored at a mean of 1500.
The 95% intervals are percentile bootstrap intervals: the seeds of each pair are resampled with
replacement (a seed's games on both sides travel together, keeping the luck cancelling; a drawn
seed joins each pair's pool, so that a clean sweep still gets an interval) and the model refitted,
BOOTSTRAP times, from a fixed seed, so a ladder prints the same intervals each run.

Solitaire games (one side, against the game itself) have no head-to-head: every agent plays the
same seeds and is ranked by its mean return, with a bootstrap interval on that mean, and the
mean of each number in the game's result score (a VP total, say) is shown beside it; the
score's first number breaks ties of mean return.

`ladder_all` plays a small ladder for every registered game and scenario and writes the
Markdown page docs/ladder.md (`warroom ladder --all --write docs/ladder.md`); `update_page` puts one game's
standings on the page and keeps the others (`warroom ladder GAME --write docs/ladder.md`).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from warroom.engine.errors import WarroomError

BOOTSTRAP = 300
"""Bootstrap resamples for the intervals: enough for stable 95% bounds, cheap because a fit only sees
per-pair totals."""
BOOTSTRAP_SEED = 17
ANCHOR = 1500.0
"""The mean rating: ratings only say how far apart agents are, so one number must be fixed."""
VIRTUAL_DRAWS = 1.0
"""Virtual drawn games added to each pair before the fit: without them an agent that wins every game has no
finite rating."""
ALL_AGENTS = ("random", "heuristic", "mcts@8")
"""`ladder_all`'s agents: small enough that every game and scenario plays in a few minutes on two cores
(a simulation of a campaign game costs about 20 ms). A simulation count, not a time budget, so the page is the same
on any machine; a time budget that small would run 16 simulations anyway (the search looks at the clock
every 16)."""
ALL_GAMES_PER_PAIR = 2


class LadderError(WarroomError):
    code = "ladder"


@dataclass(frozen=True)
class AgentSpec:
    """An agent as the ladder names it: `name[@N]` (N simulations) or `name@Nms` (N ms a decision)."""

    label: str
    name: str
    simulations: int | None = None
    budget_ms: int | None = None

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        from warroom.ai import AGENT_NAMES, UnknownAgentError

        label = text.strip()
        name, at, budget = label.partition("@")
        if name not in AGENT_NAMES:
            raise UnknownAgentError(f"unknown agent {name!r}; agents: {', '.join(AGENT_NAMES)}")
        if not at:
            return cls(label, name)
        if name != "mcts":
            raise LadderError(f"only mcts takes a budget, not {label!r}")
        number = budget[:-2] if budget.endswith("ms") else budget
        if not number.isdigit() or int(number) < 1:
            raise LadderError(
                f"a budget is a positive number of simulations (mcts@100) or milliseconds (mcts@300ms), not {budget!r}"
            )
        return (
            cls(label, name, budget_ms=int(number))
            if budget.endswith("ms")
            else cls(label, name, simulations=int(number))
        )


def parse_agents(text: str | Sequence[str]) -> list[AgentSpec]:
    """`random,heuristic,mcts@100` as specs; two agents at least, no label twice."""
    parts = [p for p in (text.split(",") if isinstance(text, str) else text) if p.strip()]
    specs = [AgentSpec.parse(p) for p in parts]
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise LadderError(f"an agent is listed twice: {', '.join(labels)}")
    if len(specs) < 2:
        raise LadderError("a ladder needs two agents at least")
    return specs


# -- playing -------------------------------------------------------------------------------------
_Game = tuple[str, str | None, int, dict[str, AgentSpec], dict[str, Any]]


def play_game(
    game: str, scenario: str | None, seed: int, seats: Mapping[str, AgentSpec], options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Play game `seed` with `seats` (side -> agent) and return each side's return and the
    result's numeric score. Like `simulate.play_one` (same seeds for the dice and, through
    `agent_seed`, for each side's agent), but each agent keeps its own budget."""
    import warroom
    from warroom.ai import agent_seed, get_agent

    match = warroom.new_game(game, scenario, seed=seed, keep_log=False, options=dict(options or {}))
    agents = {
        side: get_agent(
            spec.name, game, budget_ms=spec.budget_ms, simulations=spec.simulations, seed=agent_seed(seed, side)
        )
        for side, spec in seats.items()
    }
    while not match.over:
        action, _ = agents[match.to_act or ""].choose(match)
        match.play(action)
    result = match.result
    assert result is not None
    score = {
        key: value
        for key, value in result.score.items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }
    return {"winner": result.winner, "returns": dict(result.returns), "score": score}


def _play_batch(tasks: list[_Game]) -> list[dict[str, Any]]:
    return [play_game(*task) for task in tasks]


def _run(tasks: list[_Game], jobs: int, progress: Callable[[int], None] | None) -> list[dict[str, Any]]:
    """The games in task order, on `jobs` processes (simulate's pool pattern: ordered imap of batches)."""
    size = max(1, min(8, math.ceil(len(tasks) / (jobs * 4))))
    batches = [tasks[k : k + size] for k in range(0, len(tasks), size)]
    out: list[dict[str, Any]] = []

    def collect(results: Any) -> None:
        for batch in results:
            out.extend(batch)
            if progress is not None:
                progress(len(out))

    if jobs == 1:
        collect(map(_play_batch, batches))
    else:
        import multiprocessing

        with multiprocessing.get_context().Pool(jobs) as pool:
            collect(pool.imap(_play_batch, batches))
    return out


# -- rating --------------------------------------------------------------------------------------
def fit_elo(
    n: int,
    results: Sequence[tuple[int, int, float, float]],
    *,
    virtual_draws: float = VIRTUAL_DRAWS,
    anchor: float = ANCHOR,
) -> list[float]:
    """Maximum likelihood Bradley-Terry ratings, in Elo, of `n` players from `results`: tuples
    (i, j, score of i, games) with i's total score (wins + draws/2) against j over that many games.

    Solved by Hunter's MM iteration (each step raises the likelihood; it converges where the
    comparison graph is connected, which a round robin is). `virtual_draws` drawn games are added
    to every pair that met. Ratings have mean `anchor`."""
    wins = [0.0] * n
    games: dict[tuple[int, int], float] = {}
    for i, j, score, count in results:
        if i == j or count <= 0:
            continue
        wins[i] += score
        wins[j] += count - score
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + count
    for key in games:
        games[key] += virtual_draws
        wins[key[0]] += virtual_draws / 2
        wins[key[1]] += virtual_draws / 2
    opponents: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for (i, j), count in games.items():
        opponents[i].append((j, count))
        opponents[j].append((i, count))
    gamma = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            denom = sum(count / (gamma[i] + gamma[j]) for j, count in opponents[i])
            new.append(wins[i] / denom if denom > 0 and wins[i] > 0 else gamma[i])
        mean_log = statistics.fmean(math.log(g) for g in new)
        new = [g / math.exp(mean_log) for g in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-10:
            break
    return [anchor + 400 * math.log10(g) for g in gamma]


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def elo_with_intervals(
    n: int,
    pairs: Mapping[tuple[int, int], Sequence[tuple[float, float]]],
    *,
    bootstrap: int = BOOTSTRAP,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[list[float], list[tuple[float, float]]]:
    """Ratings and 95% percentile-bootstrap intervals from `pairs`: (i, j) -> one (score of i, games)
    unit per seed (a seed's games on both sides). Each resample draws as many units as the pair has,
    with replacement, from its units plus one drawn unit (the virtual draw, resampled like the rest):
    without it a clean sweep, whose resamples would all be alike, would get an interval of no width.
    The seeded RNG makes the intervals reproducible."""

    def totals(units: Mapping[tuple[int, int], Sequence[tuple[float, float]]]) -> list[tuple[int, int, float, float]]:
        return [(i, j, sum(s for s, _ in us), sum(g for _, g in us)) for (i, j), us in units.items()]

    def virtual_unit(units: Sequence[tuple[float, float]]) -> float:
        return statistics.fmean(g for _, g in units) / 2  # a drawn unit of a seed's usual size

    ratings = fit_elo(n, totals(pairs))
    rng = random.Random(seed)
    samples: list[list[float]] = []
    for _ in range(bootstrap):
        resampled = {
            key: [rng.choice(pool) for _ in units]
            for key, units in pairs.items()
            if units
            for pool in ([*units, (virtual_unit(units), virtual_unit(units) * 2)],)
        }
        samples.append(fit_elo(n, totals(resampled)))
    intervals = [
        (_percentile([s[i] for s in samples], 0.025), _percentile([s[i] for s in samples], 0.975)) for i in range(n)
    ]
    return ratings, intervals


def mean_with_interval(
    values: Sequence[float], *, bootstrap: int = BOOTSTRAP, seed: int = BOOTSTRAP_SEED
) -> tuple[float, float, float]:
    """A mean and its 95% percentile-bootstrap interval (seeded, so reproducible)."""
    rng = random.Random(seed)
    means = [statistics.fmean(rng.choices(values, k=len(values))) for _ in range(bootstrap)]
    return statistics.fmean(values), _percentile(means, 0.025), _percentile(means, 0.975)


# -- the ladder ----------------------------------------------------------------------------------
@dataclass
class LadderReport:
    """A ladder's standings: one row per agent, best first, and how it was played."""

    game: str
    scenario: str | None
    mode: str
    """"elo" (head to head, two sides) or "solitaire" (each agent against the game, by mean return)."""
    agents: list[str]
    games_per_pair: int
    seed: int
    jobs: int
    seconds: float
    rows: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    left_out: dict[str, str] = field(default_factory=dict)
    """Agents asked for that the game does not offer (its spec's `AgentHooks.withheld`) -> why."""

    @property
    def note(self) -> str:
        return self._method + "".join(f"; {label} left out: the game does not offer it" for label in self.left_out)

    @property
    def _method(self) -> str:
        if self.mode == "solitaire":
            return (
                "one side against the game itself: no head-to-head, so no Elo; agents are ranked by mean return "
                "(+1 a win, -1 a loss) over the same seeds, with a 95% bootstrap interval"
            )
        return (
            f"Elo by maximum likelihood (Bradley-Terry, draws half, one virtual draw a pair), mean {ANCHOR:g}; "
            f"95% intervals by bootstrap over seeds ({BOOTSTRAP} resamples, fixed seed); "
            f"each pair played {self.games_per_pair} seeds with each agent on each side"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "scenario": self.scenario,
            "mode": self.mode,
            "agents": list(self.agents),
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 3),
            "options": dict(self.options),
            "note": self.note,
            "left_out": dict(self.left_out),
            "standings": self.rows,
            "pairs": self.pairs,
        }

    def table_rows(self) -> tuple[list[str], list[list[str]]]:
        """Header and cells of the standings, for the terminal and for Markdown alike."""
        if self.mode == "solitaire":
            keys = list(self.rows[0]["score"]) if self.rows else []
            head = ["rank", "agent", "mean return", "95% CI", "games", "win %", *(f"mean {k}" for k in keys)]
            return head, [
                [
                    str(r["rank"]),
                    r["agent"],
                    f"{r['mean_return']:+.2f}",
                    f"{r['ci'][0]:+.2f} .. {r['ci'][1]:+.2f}",
                    str(r["games"]),
                    f"{r['win_rate']:.0%}",
                    *(f"{r['score'][k]:.2f}" for k in keys),
                ]
                for r in self.rows
            ]
        head = ["rank", "agent", "Elo", "95% CI", "games", "score %"]
        return head, [
            [
                str(r["rank"]),
                r["agent"],
                f"{r['elo']:.0f}",
                f"{r['ci'][0]:.0f} .. {r['ci'][1]:.0f}",
                str(r["games"]),
                f"{r['score_rate']:.0%}",
            ]
            for r in self.rows
        ]

    def render(self, console: Any) -> None:
        from rich.table import Table

        title = f"{self.game} ({self.scenario})" if self.scenario else self.game
        console.print(
            f"[bold]{title}[/bold] ladder: {', '.join(self.agents)}; "
            f"seeds {self.seed}..{self.seed + self.games_per_pair - 1}, "
            f"{self.jobs} job(s), {self.seconds:.1f} s"
        )
        if self.options:
            console.print("rules options: " + ", ".join(f"{key}={value}" for key, value in self.options.items()))
        head, cells = self.table_rows()
        table = Table()
        for k, name in enumerate(head):
            table.add_column(name, justify="left" if k == 1 else "right")
        for row in cells:
            table.add_row(*row)
        console.print(table)
        console.print(f"[dim]{self.note}[/dim]")


def ladder(
    game: str,
    agents: str | Sequence[str],
    *,
    scenario: str | None = None,
    games_per_pair: int = 4,
    seed: int = 0,
    jobs: int = 1,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> LadderReport:
    """Play the round robin (or, for one side, each agent on the same seeds) and rate the agents.
    `progress(done, total)` is called as games finish."""
    from itertools import combinations

    from warroom.analysis.simulate import study_options
    from warroom.games import get_ruleset

    if games_per_pair < 1:
        raise LadderError("games per pair must be at least 1")
    if jobs < 1:
        raise LadderError("jobs must be at least 1")
    specs, left_out = _offered(game, parse_agents(agents))
    ruleset = get_ruleset(game)
    sides = tuple(ruleset.info.sides)
    # an agent plays a whole side, or a whole team of a team game (every seat of it: 2 v 2 is rated as 1 v 1)
    teams = [members for _name, members in ruleset.info.team_list()]
    if len(teams) > 2 or (len(teams) == 1 and len(sides) > 1):
        raise LadderError(
            f"{game} has {len(sides)} sides in {len(teams)} teams; the ladder rates one-side games and games of "
            "two sides or two teams"
        )
    chosen = study_options(game, scenario, options)
    seeds = [seed + k for k in range(games_per_pair)]
    tasks: list[_Game] = []
    if len(sides) == 1:
        tasks = [(game, scenario, s, {sides[0]: spec}, chosen) for spec in specs for s in seeds]
    else:
        for a, b in combinations(specs, 2):
            for s in seeds:
                tasks.append((game, scenario, s, _seats(teams, a, b), chosen))
                tasks.append((game, scenario, s, _seats(teams, b, a), chosen))
    start = time.perf_counter()
    facts = _run(tasks, jobs, (lambda done: progress(done, len(tasks))) if progress else None)
    report = LadderReport(
        game,
        scenario,
        "solitaire" if len(sides) == 1 else "elo",
        [s.label for s in specs],
        games_per_pair,
        seed,
        jobs,
        0.0,
        options=dict(chosen),
        left_out=left_out,
    )
    if len(sides) == 1:
        _rate_solitaire(report, specs, sides[0], facts, games_per_pair)
    else:  # a team's seats share its return: its first seat speaks for it
        _rate_pairs(report, specs, (teams[0][0], teams[1][0]), facts, games_per_pair)
    report.seconds = time.perf_counter() - start
    return report


def _offered(game: str, specs: list[AgentSpec]) -> tuple[list[AgentSpec], dict[str, str]]:
    """The agents the game offers, and those it does not (its spec's `AgentHooks.withheld`) with why; a LadderError
    where fewer than two are left to rank."""
    from warroom.ai import agent_hooks

    withheld = agent_hooks(game).withheld
    left_out = {spec.label: withheld[spec.name] for spec in specs if spec.name in withheld}
    offered = [spec for spec in specs if spec.name not in withheld]
    if len(offered) < 2:
        why = "; ".join(f"{label}: {reason}" for label, reason in left_out.items())
        raise LadderError(f"{game} offers fewer than two of these agents to rank ({why})")
    return offered, left_out


def _seats(teams: Sequence[Sequence[str]], first: AgentSpec, second: AgentSpec) -> dict[str, AgentSpec]:
    """Every seat of the first team (or side) to `first`, of the second to `second`."""
    return {**{side: first for side in teams[0]}, **{side: second for side in teams[1]}}


def _points(facts: Mapping[str, Any], side: str) -> float:
    """A side's result in [0, 1]: its return (-1..+1) mapped linearly, so a draw is half a win."""
    return (float(facts["returns"].get(side, 0.0)) + 1) / 2


def _rate_pairs(
    report: LadderReport,
    specs: Sequence[AgentSpec],
    sides: Sequence[str],
    facts: Sequence[dict[str, Any]],
    per_pair: int,
) -> None:
    from itertools import combinations

    units: dict[tuple[int, int], list[tuple[float, float]]] = {}
    played = [0] * len(specs)
    scored = [0.0] * len(specs)
    k = 0
    for i, j in combinations(range(len(specs)), 2):
        pair_units, pair_score = [], 0.0
        for _ in range(per_pair):
            first, second = facts[k], facts[k + 1]  # i on the first side, then i on the second
            k += 2
            score = _points(first, sides[0]) + _points(second, sides[1])
            pair_units.append((score, 2.0))
            pair_score += score
        units[(i, j)] = pair_units
        played[i] += 2 * per_pair
        played[j] += 2 * per_pair
        scored[i] += pair_score
        scored[j] += 2 * per_pair - pair_score
        report.pairs.append(
            {"agent": specs[i].label, "opponent": specs[j].label, "games": 2 * per_pair, "score": pair_score}
        )
    ratings, intervals = elo_with_intervals(len(specs), units)
    order = sorted(range(len(specs)), key=lambda x: (-ratings[x], x))
    report.rows = [
        {
            "rank": rank,
            "agent": specs[x].label,
            "elo": round(ratings[x], 1),
            "ci": [round(intervals[x][0], 1), round(intervals[x][1], 1)],
            "games": played[x],
            "score_rate": scored[x] / played[x],
        }
        for rank, x in enumerate(order, 1)
    ]


def _rate_solitaire(
    report: LadderReport, specs: Sequence[AgentSpec], side: str, facts: Sequence[dict[str, Any]], per_agent: int
) -> None:
    rows: list[dict[str, Any]] = []
    for x, spec in enumerate(specs):
        mine = facts[x * per_agent : (x + 1) * per_agent]
        returns = [float(f["returns"].get(side, 0.0)) for f in mine]
        mean, lo, hi = mean_with_interval(returns)
        keys = [key for key in mine[0]["score"] if all(key in f["score"] for f in mine)]
        rows.append(
            {
                "agent": spec.label,
                "mean_return": mean,
                "ci": [lo, hi],
                "games": len(mine),
                "win_rate": sum(1 for f in mine if f["winner"] == side) / len(mine),
                "score": {key: statistics.fmean(float(f["score"][key]) for f in mine) for key in keys},
            }
        )
    first = next(iter(rows[0]["score"]), None) if rows else None  # the score's headline number breaks ties
    rows.sort(key=lambda r: (-float(r["mean_return"]), -float(r["score"].get(first, 0.0)) if first else 0.0))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    report.rows = [{"rank": r["rank"], **{k: v for k, v in r.items() if k != "rank"}} for r in rows]


# -- every game ----------------------------------------------------------------------------------
ALL_COMMAND = "warroom ladder --all --write docs/ladder.md"


def ladder_all(
    *,
    agents: Sequence[str] | None = None,
    games_per_pair: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
) -> list[LadderReport]:
    """A ladder for every registered game and each of its scenarios, with small settings
    (by default ALL_AGENTS, ALL_GAMES_PER_PAIR)."""
    from warroom.games import game_ids, get_ruleset

    agents = ALL_AGENTS if agents is None else agents
    games_per_pair = ALL_GAMES_PER_PAIR if games_per_pair is None else games_per_pair
    reports = []
    for game in game_ids():
        for scenario in get_ruleset(game).info.scenarios or (None,):
            if progress is not None:
                progress(f"{game} {scenario or ''}".strip())
            reports.append(ladder(game, agents, scenario=scenario, games_per_pair=games_per_pair, seed=seed, jobs=jobs))
    return reports


def markdown(reports: Sequence[LadderReport], command: str = ALL_COMMAND, today: date | None = None) -> str:
    """docs/ladder.md: a heading, then each game's standings, each with the command that made them and the date."""
    return update_page("", reports, command, today)


PAGE_HEAD = [
    "# Agent ladder",
    "",
    "Generated; do not edit by hand. Each game's standings say which command made them and when:"
    f" `{ALL_COMMAND}` remakes every game, `warroom ladder GAME --write docs/ladder.md` one game's"
    " scenarios, the other games' standings kept as they are. The page's own settings are small and fast"
    f" ({', '.join(ALL_AGENTS)}; {ALL_GAMES_PER_PAIR} seeds a pair), so the intervals are wide: `mcts@N` is MCTS with"
    " N simulations a decision, far below a playing budget; with two seeds a pair the bootstrap has few distinct"
    " resamples, so an interval may end at its estimate. For a real comparison run"
    " `warroom ladder GAME --agents random,heuristic,mcts@100,mcts@1000 --games-per-pair 50 --jobs 2`.",
    "",
]
"""The page's opening, above the games' standings."""


def update_page(text: str, reports: Sequence[LadderReport], command: str, today: date | None = None) -> str:
    """A ladder page (`text`, empty for a new one) with the standings of `reports` put in: a game and scenario already
    on the page is replaced where it stands, a new one added, every other section kept word for word. The sections
    are then in the registry's order of games and scenarios (any the registry no longer has, last)."""
    sections = _sections(text)
    for report in reports:
        sections[_title(report)] = _section(report, command, today or date.today())
    order = {title: n for n, title in enumerate(_registry_titles())}
    titles = sorted(sections, key=lambda title: order.get(title, len(order)))
    return "\n".join([*PAGE_HEAD, *(sections[title] for title in titles)])


def _title(report: LadderReport) -> str:
    return f"{report.game} — {report.scenario}" if report.scenario else report.game


def _registry_titles() -> list[str]:
    from warroom.games import game_ids, get_ruleset

    return [
        f"{game} — {scenario}" if scenario else game
        for game in game_ids()
        for scenario in get_ruleset(game).info.scenarios or (None,)
    ]


def _sections(text: str) -> dict[str, str]:
    """A page's sections by title (the text after `## `), each as written, its heading included."""
    found: dict[str, str] = {}
    for block in text.split("\n## ")[1:]:
        title = block.split("\n", 1)[0].strip()
        found[title] = "## " + block.rstrip("\n") + "\n"
    return found


def _section(report: LadderReport, command: str, today: date) -> str:
    """One game and scenario's standings: the command and date that made them, its settings, table and method."""
    head, cells = report.table_rows()
    lines = [f"## {_title(report)}", ""]
    lines += [
        f"Made by `{command}` on {today.isoformat()} (agents {', '.join([*report.agents, *report.left_out])};"
        f" {report.games_per_pair} seeds a pair, each agent on each side; seeds from {report.seed}).",
        "",
    ]
    if report.options:
        lines += ["Rules options: " + ", ".join(f"`{k}={v}`" for k, v in report.options.items()) + ".", ""]
    lines += [
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" if k == 1 else "---:" for k in range(len(head))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in cells]
    lines += ["", f"{report.note[0].upper()}{report.note[1:]}; {report.seconds:.0f} s.", ""]
    return "\n".join(lines)


__all__ = [
    "AgentSpec",
    "LadderError",
    "LadderReport",
    "elo_with_intervals",
    "fit_elo",
    "ladder",
    "ladder_all",
    "markdown",
    "mean_with_interval",
    "update_page",
    "parse_agents",
    "play_game",
]
