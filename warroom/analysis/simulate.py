"""Monte Carlo balance studies: play many games with an agent, in parallel, and report the statistics.

Game k is played with seed `seed + k` (dice and agent alike), so a study is reproducible and
gives the same report whatever the number of processes. What is reported comes from the
game's `summarize(ruleset, state)` (its spec's agent hooks) when it has one (numbers become distributions; a mapping
of name -> turn or None becomes a rate and mean/median turn), plus each game's winner (outcomes
are counted by team, each side its own team unless the game declares teams) and each side's
mean return (`Result.returns`: how each seat fared, which a winner alone does not say with teams).
Each game's facts, with its seed and the turn it ended, are kept too (`SimulationReport.per_game`)
for the balance report and the per-game table (warroom.analysis.report, docs/studies.md).
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warroom.engine.errors import WarroomError

if TYPE_CHECKING:
    from warroom.engine.ruleset import Ruleset

BATCH = 25  # games per task: small enough to share evenly and report progress, big enough to be cheap


class SimulationError(WarroomError):
    code = "simulation"


def play_one(
    game: str,
    agent_name: str,
    seed: int,
    budget_ms: int | None = None,
    scenario: str | None = None,
    side_agents: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play game `seed` to the end with `agent_name` deciding for every side except those that
    `side_agents` (side -> agent name) gives their own agent; `options` are the game's rules options.
    Return its facts."""
    import warroom
    from warroom.ai import agent_hooks, agent_seed, get_agent

    match = warroom.new_game(game, scenario, seed=seed, keep_log=False, options=dict(options or {}))
    agent = get_agent(agent_name, game, budget_ms=budget_ms, seed=agent_seed(seed))
    own = {
        side: get_agent(name, game, budget_ms=budget_ms, seed=agent_seed(seed, side))
        for side, name in (side_agents or {}).items()
    }
    while not match.over:
        action, _ = own.get(match.to_act or "", agent).choose(match)
        match.play(action)
    result = match.result
    assert result is not None
    summarize = agent_hooks(game).summarize
    facts: dict[str, Any] = dict(summarize(match.ruleset, match.state)) if summarize else _score_facts(result.score)
    facts["winner"] = result.winner
    facts["returns"] = dict(result.returns)
    facts[SEED] = seed
    facts[END_TURN] = match.ruleset.turn_and_phase(match.state)[0]
    return facts


SEED = "seed"
"""play_one's key for the game's seed: a row of the per-game table can be played again alone."""
END_TURN = "end turn"
"""play_one's key for the turn the game ended on (the ruleset's `turn_and_phase`): win rate by turn."""
PLAYED = ("winner", "returns", SEED, END_TURN)
"""play_one's own keys, beside the game's summary: the text report counts outcomes and returns and
leaves the seed and end turn to the per-game table (`SimulationReport.per_game`)."""


def _score_facts(score: dict[str, Any]) -> dict[str, Any]:
    return {
        key: value for key, value in score.items() if isinstance(value, int | float) and not isinstance(value, bool)
    }


_Task = tuple[str, str, list[int], int | None, str | None, dict[str, str] | None, dict[str, Any] | None]


def _play_batch(args: _Task) -> list[dict[str, Any]]:
    game, agent_name, seeds, budget_ms, scenario, side_agents, options = args
    return [play_one(game, agent_name, seed, budget_ms, scenario, side_agents, options) for seed in seeds]


@dataclass
class SimulationReport:
    """What a study found: outcome rates, distributions of each number, capture rates and turns."""

    game: str
    agent: str
    games: int
    seed: int
    jobs: int
    backend: str
    seconds: float
    sides: tuple[str, ...]
    outcomes: dict[str, int]
    numbers: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    flags: dict[str, dict[str, float]] = field(default_factory=dict)
    scenario: str | None = None
    side_names: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    """The rules options every game was played with (those given, and any a spec sets for studies)."""
    """The scenario's name for each side (a side id -> the scenario's name for it), for the report's words."""
    returns: dict[str, float] = field(default_factory=dict)
    """Each side's mean return over the games (Result.returns: +1 a win, -1 a loss, 0 a draw)."""
    per_game: list[dict[str, Any]] = field(default_factory=list)
    """Each game's facts as play_one gave them (its summary, winner, returns, seed and end turn), in
    seed order: the per-game table and the balance report's plots (warroom.analysis.report); not in
    to_json, which stays the summary."""

    def name(self, side: str) -> str:
        return self.side_names.get(side, side)

    @classmethod
    def from_games(
        cls,
        facts: Sequence[dict[str, Any]],
        *,
        game: str,
        agent: str,
        seed: int,
        jobs: int,
        backend: str,
        seconds: float,
        sides: Sequence[str],
        draws: bool = True,
        side_names: Mapping[str, str] | None = None,
        teams: Sequence[str] | None = None,
    ) -> SimulationReport:
        """`teams` orders the outcome rows (the winners a game names); by default the sides."""
        n = len(facts)
        report = cls(
            game,
            agent,
            n,
            seed,
            jobs,
            backend,
            seconds,
            tuple(sides),
            _outcome_counts(facts, sides if teams is None else teams, draws),
            side_names=dict(side_names or {}),
            per_game=list(facts),
        )
        if n and all(f.get("returns") for f in facts):
            report.returns = {
                side: statistics.fmean(float(f["returns"].get(side, 0.0)) for f in facts) for side in sides
            }
        for key in [k for k in (facts[0] if facts else {}) if k not in PLAYED]:
            report._summarise(key, [f.get(key) for f in facts])
        return report

    def _summarise(self, key: str, values: list[Any]) -> None:
        """One summary field over the games: numbers as a distribution; mappings of flags (True/False) as each
        flag's share of games, other mappings (name -> the turn it happened, or None) as each name's event
        statistics; a field of mixed kinds is left out."""
        n = len(values)
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            self.numbers[key] = _distribution(values)
        elif all(isinstance(v, dict) for v in values):
            inner = [v for v in values if isinstance(v, dict)]
            names = list(dict.fromkeys(name for d in inner for name in d))
            if all(isinstance(x, bool) for d in inner for x in d.values()):
                self.flags[key] = {name: sum(1 for d in inner if d.get(name)) / n for name in names}
            else:
                self.events[key] = {name: _event_stats([d.get(name) for d in inner], n) for name in names}

    def rate(self, outcome: str) -> float:
        return self.outcomes.get(outcome, 0) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "scenario": self.scenario,
            "options": dict(self.options),
            "agent": self.agent,
            "games": self.games,
            "seed": self.seed,
            "jobs": self.jobs,
            "backend": self.backend,
            "seconds": round(self.seconds, 3),
            "side_names": dict(self.side_names),
            "outcomes": dict(self.outcomes),
            "rates": {name: self.rate(name) for name in self.outcomes},
            "mean_returns": dict(self.returns),
            "numbers": self.numbers,
            "events": self.events,
            "flags": self.flags,
        }

    def _agent_words(self) -> str:
        """`<side> <agent>, ...` in the scenario's words for the sides."""
        words = self.agent
        for side in self.sides:
            if words.startswith(f"{side} ") or f", {side} " in words:
                words = words.replace(f"{side} ", f"{self.name(side)} ", 1)
        return words

    def render(self, console: Any) -> None:
        """Rich tables: outcomes, each number's distribution, each event's rate and turn."""
        from rich.table import Table

        title = f"{self.game} ({self.scenario})" if self.scenario else self.game
        console.print(
            f"[bold]{title}[/bold]: {self.games:,} games, agent [cyan]{self._agent_words()}[/cyan], "
            f"seeds {self.seed}..{self.seed + self.games - 1}, {self.jobs} job(s) ({self.backend}), "
            f"{self.seconds:.1f} s"
        )
        if self.options:
            console.print("rules options: " + ", ".join(f"{key}={value}" for key, value in self.options.items()))
        outcomes = Table(title="Outcomes")
        outcomes.add_column("result")
        outcomes.add_column("games", justify="right")
        outcomes.add_column("rate", justify="right")
        for name, count in self.outcomes.items():
            label = name if name == "draw" else f"{self.name(name)} victory"
            outcomes.add_row(label, f"{count:,}", f"{self.rate(name):.1%}")
        console.print(outcomes)
        for key, dist in self.numbers.items():
            table = Table(title=f"{key}: mean {dist['mean']:.2f}, median {dist['median']:g}, sd {dist['sd']:.2f}")
            table.add_column(key, justify="right")
            table.add_column("games", justify="right")
            table.add_column("share", justify="right")
            table.add_column("")
            top = max(dist["histogram"].values(), default=1)
            for value, count in dist["histogram"].items():
                bar = "#" * max(1, round(30 * count / top)) if count else ""
                table.add_row(str(value), f"{count:,}", f"{count / self.games:.1%}", bar)
            console.print(table)
        for key, per_name in self.events.items():
            table = Table(title=key)
            table.add_column("")
            table.add_column("rate", justify="right")
            table.add_column("mean turn", justify="right")
            table.add_column("median turn", justify="right")
            for name, st in per_name.items():
                mean = "-" if st["mean"] is None else f"{st['mean']:.1f}"
                median = "-" if st["median"] is None else f"{st['median']:g}"
                table.add_row(name, f"{st['rate']:.1%}", mean, median)
            console.print(table)
        for key, shares in self.flags.items():
            table = Table(title=key)
            table.add_column("")
            table.add_column("rate", justify="right")
            for name, rate in shares.items():
                table.add_row(name, f"{rate:.1%}")
            console.print(table)


def _outcome_counts(facts: Sequence[dict[str, Any]], order: Sequence[str], draws: bool) -> dict[str, int]:
    """Games by outcome (the winner's name, or "draw"): every name of `order` (none won: 0), then "draw" where
    the game can end drawn (or one did after all), then any other winner the games named."""
    outcomes = Counter("draw" if f.get("winner") is None else str(f["winner"]) for f in facts)
    ordered = {team: outcomes.get(team, 0) for team in order}
    if draws or outcomes.get("draw"):  # a game without draws gets no draw row (unless one happened after all)
        ordered["draw"] = outcomes.get("draw", 0)
    for other, count in outcomes.items():
        ordered.setdefault(other, count)
    return ordered


def _distribution(values: Sequence[float]) -> dict[str, Any]:
    ints = all(float(v).is_integer() for v in values)
    hist: dict[Any, int] = {}
    if ints and values:
        counts = Counter(int(v) for v in values)
        for v in range(int(min(values)), int(max(values)) + 1):
            hist[v] = counts.get(v, 0)
    return {
        "mean": statistics.fmean(values) if values else math.nan,
        "median": statistics.median(values) if values else math.nan,
        "sd": statistics.pstdev(values) if len(values) > 1 else 0.0,
        "min": min(values) if values else None,
        "max": max(values) if values else None,
        "histogram": hist,
    }


def _event_stats(turns: Sequence[Any], games: int) -> dict[str, Any]:
    seen = [t for t in turns if isinstance(t, int | float) and not isinstance(t, bool)]
    return {
        "rate": len(seen) / games if games else 0.0,
        "mean": statistics.fmean(seen) if seen else None,
        "median": statistics.median(seen) if seen else None,
    }


def _batches(games: int, seed: int, size: int) -> list[list[int]]:
    seeds = [seed + k for k in range(games)]
    return [seeds[k : k + size] for k in range(0, games, size)]


def simulate(
    game: str,
    games: int,
    agent: str = "heuristic",
    jobs: int = 1,
    seed: int = 0,
    budget_ms: int | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    scenario: str | None = None,
    address: str | None = None,
    side_agents: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    backend: str = "local",
) -> SimulationReport:
    """Play `games` games with `agent` deciding for every side (a solitaire game's one side too)
    except the sides `side_agents` names (side -> agent), so two agents can be matched in a
    two-player game; `scenario` picks the game's scenario and `options` its rules options (e.g. a
    `turn_limit` the rules do not have, for studies that must end soon).

    `backend` "local": `jobs` processes of this machine share the work. "ray": Ray tasks do, on a
    local Ray started here (with `jobs` CPUs) or, given an `address` ("auto", or host:port of a
    cluster started with `ray start --head`), on that cluster; without the `ray` package it is a
    SimulationError naming the extra to install, never a quiet local run. Either way the games and
    the report are the same for the same seeds. `progress(done)` is called with the games finished so far.
    The report is the same for a seed whatever `jobs` is, except with MCTS under a time budget
    (`budget_ms`), whose search depth depends on the machine's speed.
    """
    ruleset = _checked_request(game, games, agent, jobs, backend, address, side_agents)
    own = dict(side_agents) if side_agents else None
    size = max(1, min(BATCH, math.ceil(games / (jobs * 4)))) if jobs > 1 else BATCH
    chosen = study_options(game, scenario, options) or None
    tasks: list[_Task] = [
        (game, agent, batch, budget_ms, scenario, own, chosen) for batch in _batches(games, seed, size)
    ]
    start = time.perf_counter()
    backend, results = _play_tasks(tasks, backend, jobs, address, progress)
    facts = [f for batch in results for f in batch]
    label = agent if not own else ", ".join(f"{side} {own.get(side, agent)}" for side in ruleset.info.sides)
    names, draws = scenario_terms(game, scenario)
    report = SimulationReport.from_games(
        facts,
        game=game,
        agent=label,
        seed=seed,
        jobs=jobs,
        backend=backend,
        seconds=time.perf_counter() - start,
        sides=ruleset.info.sides,
        draws=draws,
        side_names=names,
        teams=[team for team, _ in ruleset.info.team_list()],
    )
    report.scenario = scenario
    report.options = dict(chosen or {})
    return report


def _checked_request(
    game: str,
    games: int,
    agent: str,
    jobs: int,
    backend: str,
    address: str | None,
    side_agents: Mapping[str, str] | None,
) -> Ruleset[Any]:
    """The game's ruleset, once the study asked of it can be played: games and jobs at least 1, a known backend
    (Ray's address with Ray alone, Ray installed), known agents, and `side_agents` naming the game's sides."""
    from warroom.ai import AGENT_NAMES, UnknownAgentError
    from warroom.games import get_ruleset

    if games < 1:
        raise SimulationError("games must be at least 1")
    if jobs < 1:
        raise SimulationError("jobs must be at least 1")
    if backend not in BACKENDS:
        raise SimulationError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if address is not None and backend != "ray":
        raise SimulationError("an address is a Ray cluster's: say --backend ray with it")
    if backend == "ray" and not _ray_available():
        raise SimulationError("the ray backend needs Ray: pip install 'warroom[cluster]'")
    for name in (agent, *(side_agents or {}).values()):
        if name not in AGENT_NAMES:
            raise UnknownAgentError(f"unknown agent {name!r}; agents: {', '.join(AGENT_NAMES)}")
    ruleset = get_ruleset(game)
    unknown = sorted(set(side_agents or {}) - set(ruleset.info.sides))
    if unknown:
        raise SimulationError(f"{game} has no side {unknown[0]!r}; sides: {', '.join(ruleset.info.sides)}")
    return ruleset


def _play_tasks(
    tasks: list[_Task], backend: str, jobs: int, address: str | None, progress: Callable[[int], None] | None
) -> tuple[str, list[list[dict[str, Any]]]]:
    """The batches played on `backend` (Ray's tasks, this process, or `jobs` processes), in task order, and the
    backend's name as the report gives it."""
    if backend == "ray":
        return f"ray ({address or 'local'})", _run_ray(tasks, address, jobs, progress)
    if jobs == 1:
        return "local", _collect(map(_play_batch, tasks), progress)
    import multiprocessing

    with multiprocessing.get_context().Pool(jobs) as pool:
        return f"{jobs} processes", _collect(pool.imap(_play_batch, tasks), progress)


def study_options(game: str, scenario: str | None, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options a study plays with: those given, plus the value an option's spec names for
    studies ("simulate") where none is given — a study must end, and a rule that lets a game go on
    until an objective is decided may not (a campaign with no turn limit between two computer players). The
    options are the game's spec's `option_specs`."""
    from warroom.games import get_ruleset, get_spec

    spec = get_spec(game)
    chosen = dict(options or {})
    scenarios = get_ruleset(game).info.scenarios
    where = scenario or (scenarios[0] if scenarios else None)
    for option in spec.option_specs():
        only = option.get("scenarios")
        if "simulate" in option and option["key"] not in chosen and (not only or where in only):
            chosen[option["key"]] = option["simulate"]
    return chosen


def scenario_terms(game: str, scenario: str | None) -> tuple[dict[str, str], bool]:
    """The scenario's names for the sides and whether it can end in a draw, as the game's spec says
    (`terms`: a scenario may call a side by another name and never end drawn); a game that says
    nothing keeps its side ids and may draw."""
    from warroom.games import get_spec

    terms = get_spec(game).terms(scenario)
    return dict(terms.side_names), terms.draws


def _collect(
    batches: Iterable[list[dict[str, Any]]], progress: Callable[[int], None] | None
) -> list[list[dict[str, Any]]]:
    out, done = [], 0
    for batch in batches:  # in task order, so the report does not depend on scheduling
        out.append(batch)
        done += len(batch)
        if progress is not None:
            progress(done)
    return out


BACKENDS = ("local", "ray")
"""Where a study's games are played: this machine's processes, or Ray tasks (a local Ray or a cluster)."""


def _ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _run_ray(
    tasks: list[_Task], address: str | None, jobs: int, progress: Callable[[int], None] | None
) -> list[list[dict[str, Any]]]:
    """The batches as Ray tasks, in order; a Ray started here (no address) is shut down afterwards."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        if address is None:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    try:
        return _gather_ray(ray, tasks, progress)
    finally:
        if started_here:
            ray.shutdown()


def _gather_ray(ray: Any, tasks: list[_Task], progress: Callable[[int], None] | None) -> list[list[dict[str, Any]]]:
    remote = ray.remote(_play_batch)
    refs = [remote.remote(task) for task in tasks]
    pending = {ref: k for k, ref in enumerate(refs)}
    out: list[list[dict[str, Any]] | None] = [None] * len(refs)
    done = 0
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            k = pending.pop(ref)
            out[k] = ray.get(ref)
            done += len(out[k] or [])
            if progress is not None:
                progress(done)
    return [batch or [] for batch in out]


__all__ = ["SimulationError", "SimulationReport", "play_one", "scenario_terms", "simulate"]
