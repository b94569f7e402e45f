"""Speed benchmarks: random playouts through the public API, MCTS simulations, OpenSpiel for scale.

    run_bench(game, seconds=3.0) -> {"random_playouts": {...}, "heuristic_playouts": {...}, "mcts": {...},
                                     "openspiel": {...}}
    run_bench(game, scenario=...)   # a scenario other than the game's first
    bench_all(seconds=1.0)          # every game and scenario: steps/s and MCTS simulations/s, one row each

Each part runs for about `seconds` of CPU time on one core. Rates are per second of this process's
CPU time (`time.process_time`), not of the wall clock: on a machine shared with other work the wall
clock counts the time other processes had the core, the CPU time does not. The ratio to OpenSpiel's
backgammon is taken in rounds that alternate the game and backgammon (`ROUNDS`), and the median of the
rounds' ratios is reported, so a burst of load or a frequency change hits both sides of a ratio alike.
Before a part is timed one game is played untimed, so loading the map and filling the games' caches of
action ids is not counted as playing.

The targets are each game's own, from its spec's `bench_targets` ({"random_steps": steps/s,
"mcts_sims": simulations/s}): a game whose steps carry whole battles asks for fewer steps, and one
whose search is judged by games won rather than by speed sets no simulation rate (see each game's
NOTES.md). A part without a target reports the speed alone.
"""

from __future__ import annotations

import math
import platform
import random
import statistics
import time
from typing import Any, NamedTuple

from warroom.engine.compiled import describe_build

RANDOM_STEPS = "random_steps"
"""The `bench_targets` key of the random-playout target (steps per second)."""
MCTS_SIMS = "mcts_sims"
"""The `bench_targets` key of the MCTS target (simulations per second)."""
ROUNDS = 3
"""How many alternating rounds (game, backgammon) `bench_all` splits each scenario's time into."""
WARM_UP_SEED = 1_000_003
"""The seed of the untimed game played before a part is timed (apart from the timed games' seeds)."""


def target(game: str, key: str) -> float | None:
    """The game's own target for one part of the bench (its spec's `bench_targets[key]`), or None."""
    from warroom.games import get_spec

    return get_spec(game).bench_targets.get(key)


def default_game() -> str:
    """The game `warroom bench` measures when none is named: the first registered one."""
    from warroom.games import game_ids

    return game_ids()[0]


def _with_target(report: dict[str, Any], rate: float, goal: float | None, key: str) -> dict[str, Any]:
    """Add the game's target and whether it is met; a game without one gets neither."""
    if goal is not None:
        report[key] = goal
        report["meets_target"] = rate >= goal
    return report


class Run(NamedTuple):
    """What a timed stretch of random games did: decisions (`steps`), chance outcomes, games, CPU seconds."""

    steps: int
    """warroom: `play` calls (a decision with its dice); OpenSpiel: `apply_action` calls, chance included."""
    chance: int
    """Chance outcomes applied (warroom: dice rolled; OpenSpiel: chance nodes' actions)."""
    games: int
    seconds: float

    def plus(self, other: Run) -> Run:
        return Run(
            self.steps + other.steps, self.chance + other.chance, self.games + other.games, self.seconds + other.seconds
        )


def _play_random(game: str, scenario: str | None, seconds: float, seed: int) -> Run:
    """Random games from `seed` on until `seconds` of CPU time are spent (with the options studies use: a
    game with no fixed end plays its spec's turn limit, since random players seldom decide it)."""
    import warroom
    from warroom.analysis.simulate import study_options

    options = study_options(game, scenario, None)

    rng = random.Random(seed)
    steps = rolled = games = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        match = warroom.new_game(game, scenario, seed=seed + games, keep_log=False, options=options)
        while not match.over:
            legal = match.legal_actions()
            match.play(legal[int(rng.random() * len(legal))])
            steps += 1
        rolled += len(match.dice_rolled)
        games += 1
        if clock() >= deadline:
            break
    return Run(steps, rolled, games, clock() - start)


def _warm_up(game: str, scenario: str | None) -> None:
    """One random game, untimed: the map is loaded and the caches of action ids begin to fill."""
    _play_random(game, scenario, 0.0, seed=WARM_UP_SEED)


def bench_random_playouts(game: str, seconds: float, seed: int = 0, scenario: str | None = None) -> dict[str, Any]:
    """Random games through `warroom.new_game(..., keep_log=False)`; a step is one `play` (its dice included).

    Rates are per CPU second (module docstring); one untimed game comes first."""
    _warm_up(game, scenario)
    steps, rolled, games, elapsed = _play_random(game, scenario, seconds, seed)
    rate = steps / elapsed if elapsed > 0 else 0.0
    report = {
        "steps": steps,
        "games": games,
        "seconds": round(elapsed, 3),
        "clock": "cpu",
        "steps_per_s": round(rate),
        "games_per_s": round(games / elapsed, 1) if elapsed > 0 else 0.0,
        "steps_per_game": round(steps / games, 1),
        "dice_per_step": round(rolled / steps, 2) if steps else 0.0,
    }
    return _with_target(report, rate, target(game, RANDOM_STEPS), "target_steps_per_s")


def bench_heuristic_playouts(game: str, seconds: float, seed: int = 0, scenario: str | None = None) -> dict[str, Any]:
    """Whole games with the game's heuristic on every side, from `seed` on, until `seconds` of CPU time are spent
    (at least one game): what a search's playouts and a study of the computer players cost. A step is one `play`
    with its dice, as in the random playouts; the agent's own thinking is counted in. A game whose spec gives no
    heuristic says so."""
    import warroom
    from warroom.ai import NoHeuristicError, agent_seed, get_agent
    from warroom.analysis.simulate import study_options

    options = study_options(game, scenario, None)
    steps = games = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        match = warroom.new_game(game, scenario, seed=seed + games, keep_log=False, options=options)
        try:
            agent = get_agent("heuristic", game, seed=agent_seed(seed + games))
        except NoHeuristicError as exc:
            return {"games": 0, "steps": 0, "note": str(exc)}
        while not match.over:
            match.play(agent.choose(match)[0])
            steps += 1
        games += 1
        if clock() >= deadline:
            break
    elapsed = clock() - start
    return {
        "steps": steps,
        "games": games,
        "seconds": round(elapsed, 3),
        "clock": "cpu",
        "steps_per_s": round(steps / elapsed) if elapsed > 0 else 0,
        "games_per_s": round(games / elapsed, 2) if elapsed > 0 else 0.0,
        "steps_per_game": round(steps / games, 1),
    }


def _midgame(game: str, seed: int, decisions: int, scenario: str | None = None) -> Any:
    """A position some way into a game, where search has real choices to make.

    Played by the game's own heuristic when it has one (a position a real game reaches), else
    at random."""
    import warroom
    from warroom.ai import NoHeuristicError, agent_hooks, get_agent
    from warroom.analysis.simulate import study_options

    match = warroom.new_game(game, scenario, seed=seed, keep_log=False, options=study_options(game, scenario, None))
    try:
        agent = get_agent("heuristic", game, seed=seed)
    except NoHeuristicError:
        agent = get_agent("random", game, seed=seed)
    for _ in range(decisions):
        if match.over:
            break
        match.play(agent.choose(match)[0])
    worth = agent_hooks(game).candidate_actions  # what search weighs: a setup step may leave it one action
    while not match.over and (
        len(match.legal_actions()) < 2 or (worth is not None and len(worth(match.ruleset, match.state)) < 2)
    ):
        match.play(agent.choose(match)[0])
    return match


TURN_BUDGET_MS = 300
"""The computer's stated thinking time a decision that `--computer-turns` holds it to."""


def bench_computer_turns(
    game: str, decisions: int, budget_ms: int = TURN_BUDGET_MS, seed: int = 0, scenario: str | None = None
) -> dict[str, Any]:
    """The computer's turns against its stated time: the game's searching player as the front ends field it (MCTS
    where the game offers it, else its own search, else its heuristic) decides `decisions` decisions from the start
    of a game, `budget_ms` each, and each decision's wall time is taken. A turn that overruns its budget keeps a
    player waiting longer than the page said: the 95th percentile is the figure to hold to the budget. Wall time,
    not CPU time: what a person waits."""
    import warroom
    from warroom.analysis.simulate import study_options

    match = warroom.new_game(game, scenario, seed=seed, keep_log=False, options=study_options(game, scenario, None))
    name, agent = _searching_player(game, budget_ms, seed)
    walls: list[float] = []
    while not match.over and len(walls) < decisions:
        start = time.perf_counter()
        action, _why = agent.choose(match)
        walls.append((time.perf_counter() - start) * 1000)
        match.play(action)
    ranked = sorted(walls)

    def percentile(q: float) -> float:
        return round(ranked[min(len(ranked) - 1, math.ceil(q * len(ranked)) - 1)], 1) if ranked else 0.0

    return {
        "agent": name,
        "budget_ms": budget_ms,
        "decisions": len(walls),
        "clock": "wall",
        "p50_ms": percentile(0.5),
        "p95_ms": percentile(0.95),
        "max_ms": round(ranked[-1], 1) if ranked else 0.0,
        "over_budget": sum(1 for wall in walls if wall > budget_ms),
    }


def _searching_player(game: str, budget_ms: int, seed: int) -> tuple[str, Any]:
    """The player a front end fields to search: MCTS where the game offers it, else its own search, else its heuristic
    (the first of them `get_agent` builds for the game)."""
    from warroom.ai import agent_seed, get_agent
    from warroom.engine.errors import WarroomError

    for name in ("mcts", "search", "heuristic", "random"):
        try:
            return name, get_agent(name, game, budget_ms=budget_ms, seed=agent_seed(seed))
        except WarroomError:
            continue
    raise WarroomError(f"{game} offers no computer player")  # pragma: no cover - random is always built


def _position_with_a_choice(game: str, seed: int, scenario: str | None) -> Any:
    """A game 20 decisions in, where one is still open (a few seeds tried); in a game shorter than that (a hand of
    cards), fewer decisions in. The last one tried where none is (the caller reports it)."""
    match = None
    for decisions in (20, 6, 2, 0):
        for attempt in range(5):
            match = _midgame(game, seed + attempt, decisions=decisions, scenario=scenario)
            if not match.over:
                return match
    return match


def bench_mcts(game: str, seconds: float, seed: int = 0, scenario: str | None = None) -> dict[str, Any]:
    """MCTS simulations per CPU second (the default agent: the game's evaluation and heuristic prior)."""
    from warroom.ai import agent_hooks
    from warroom.ai.mcts import MCTSAgent

    match = _position_with_a_choice(game, seed, scenario)
    if match.over:
        return {"simulations": 0, "seconds": 0.0, "sims_per_s": 0, "note": "no position with a choice was found"}
    agent = MCTSAgent(match.ruleset, hooks=agent_hooks(game), budget_ms=int(seconds * 1000), seed=seed)
    start = time.process_time()
    action, why = agent.choose(match)
    elapsed = time.process_time() - start  # the search's budget is wall-clock; its rate is per CPU second
    sims = agent.last["simulations"]
    rate = sims / elapsed if elapsed > 0 else 0.0
    turn, phase = match.ruleset.turn_and_phase(match.state)
    report = {
        "simulations": sims,
        "seconds": round(elapsed, 3),
        "clock": "cpu",
        "sims_per_s": round(rate),
        "position": f"turn {turn}, {phase}, {len(match.legal_actions())} legal actions",
        "chose": action,
        "why": why,
    }
    return _with_target(report, rate, target(game, MCTS_SIMS), "target_sims_per_s")


def _spiel_steps(spiel_game: Any, seconds: float, seed: int) -> Run:
    """Random backgammon games until `seconds` of CPU time are spent. Chance outcomes are drawn with one
    uniform number each, as the seeded dice source draws them."""
    rng = random.Random(seed)
    steps = chance = games = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    while True:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r, acc = rng.random(), 0.0
                chosen = outcomes[-1][0]
                for outcome, p in outcomes:
                    acc += p
                    if r < acc:
                        chosen = outcome
                        break
                state.apply_action(chosen)
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        games += 1
        if clock() >= deadline:
            break
    return Run(steps, chance, games, clock() - start)


def _load_spiel(game: str) -> Any | None:
    """OpenSpiel's game, or None when open_spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game(game)


NOT_INSTALLED = {
    "installed": False,
    "note": "open_spiel (module pyspiel) is not installed; pip install open_spiel to compare",
}


def bench_openspiel(seconds: float, seed: int = 0, game: str = "backgammon") -> dict[str, Any]:
    """OpenSpiel's C++ backgammon driven from Python the same way, for scale; skipped if not installed."""
    spiel_game = _load_spiel(game)
    if spiel_game is None:
        return dict(NOT_INSTALLED)
    return _spiel_report(game, _spiel_steps(spiel_game, seconds, seed))


def _spiel_report(game: str, run: Run) -> dict[str, Any]:
    elapsed = run.seconds
    return {
        "installed": True,
        "game": game,
        "steps": run.steps,
        "chance_steps": run.chance,
        "games": run.games,
        "seconds": round(elapsed, 3),
        "clock": "cpu",
        "steps_per_s": round(run.steps / elapsed) if elapsed > 0 else 0,
        "games_per_s": round(run.games / elapsed, 1) if elapsed > 0 else 0.0,
        "note": "a step is one apply_action, chance outcomes included",
    }


def bench_web() -> dict[str, Any]:
    """The web server's benchmark, once `warroom.web.bench` exists."""
    try:
        from importlib import import_module

        module = import_module("warroom.web.bench")
    except ImportError:
        return {"web": "not available"}
    return {"web": module.run()}


def run_bench(
    game: str | None = None,
    seconds: float = 3.0,
    web: bool = False,
    scenario: str | None = None,
    computer_turns: int = 0,
) -> dict[str, Any]:
    """Measure random playouts, heuristic playouts (whole games), MCTS and (if installed) OpenSpiel backgammon, each
    for about `seconds`.

    `game` defaults to `default_game()`, `scenario` to the game's first; an unknown game or scenario
    raises before any timing."""
    import warroom

    game = game or default_game()

    probe = warroom.new_game(game, scenario, seed=0, keep_log=False)  # fails fast, with the game's own message
    report: dict[str, Any] = {
        "game": game,
        "scenario": probe.scenario,
        "seconds_per_part": seconds,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "build": describe_build(),
        "random_playouts": bench_random_playouts(game, seconds, scenario=scenario),
        "heuristic_playouts": bench_heuristic_playouts(game, seconds, scenario=scenario),
        "mcts": bench_mcts(game, seconds, scenario=scenario),
        "openspiel": bench_openspiel(seconds),
    }
    if computer_turns:
        report["computer_turns"] = bench_computer_turns(game, computer_turns, scenario=scenario)
    if web:
        report.update(bench_web())
    return report


def bench_all(seconds: float = 1.0, games: list[str] | None = None, rounds: int = ROUNDS) -> dict[str, Any]:
    """Every registered game and each of its scenarios: random-playout steps/s and MCTS simulations/s,
    each against the game's own target where its spec sets one (no target: the speed alone, no
    pass/fail), and OpenSpiel's backgammon for scale, with each scenario's steps/s as a ratio of it.

    Each scenario's `seconds` of playouts are split into `rounds` rounds, each followed by as long of
    backgammon; a row's steps/s and its ratio to backgammon are the medians over its rounds, so the
    ratio compares speeds measured moments apart (module docstring). The `openspiel` entry sums every
    round of backgammon.

    The two engines count steps differently: an OpenSpiel step is one `apply_action`, a chance outcome
    included, while a warroom step is one `play`, a decision together with the dice it causes.
    `steps_vs_openspiel` compares the two as they are counted (the measure issue 16 set its targets in);
    `transitions_vs_openspiel` counts warroom's decisions and dice one by one, like for like.

    What `warroom bench --all` prints: one row per game and scenario, so a kernel change shows what
    it does to every game at once."""
    from warroom.games import game_ids, get_ruleset

    rounds = max(1, rounds)
    share = seconds / rounds
    spiel_game = _load_spiel("backgammon")
    spiel_total = Run(0, 0, 0, 0.0)
    rows: list[dict[str, Any]] = []
    for game in games or game_ids():
        for scenario in get_ruleset(game).info.scenarios or (None,):
            _warm_up(game, scenario)
            rates, ratios, like_ratios, seed = [], [], [], 0
            for _ in range(rounds):
                run = _play_random(game, scenario, share, seed)
                seed += run.games
                rate = run.steps / run.seconds if run.seconds > 0 else 0.0
                rates.append(rate)
                if spiel_game is not None:
                    bg = _spiel_steps(spiel_game, share, spiel_total.games)
                    spiel_total = spiel_total.plus(bg)
                    if bg.steps and bg.seconds > 0 and run.seconds > 0:
                        bg_rate = bg.steps / bg.seconds
                        ratios.append(rate / bg_rate)
                        like_ratios.append((run.steps + run.chance) / run.seconds / bg_rate)
            mcts = bench_mcts(game, seconds, scenario=scenario)
            rate = statistics.median(rates)
            row: dict[str, Any] = {"game": game, "scenario": scenario, "steps_per_s": round(rate)}
            goal = target(game, RANDOM_STEPS)
            if goal is not None:
                row.update(target_steps_per_s=goal, steps_meet_target=rate >= goal)
            row["sims_per_s"] = mcts["sims_per_s"]
            if "target_sims_per_s" in mcts:
                row.update(target_sims_per_s=mcts["target_sims_per_s"], sims_meet_target=mcts["meets_target"])
            if ratios:
                row["steps_vs_openspiel"] = round(statistics.median(ratios), 2)
                # like for like: OpenSpiel counts every apply_action, chance included; a warroom step is a
                # decision with its dice, so its decisions and dice are counted here the same way
                row["transitions_vs_openspiel"] = round(statistics.median(like_ratios), 2)
            rows.append(row)
    spiel = dict(NOT_INSTALLED) if spiel_game is None else _spiel_report("backgammon", spiel_total)
    return {
        "seconds_per_part": seconds,
        "rounds": rounds,
        "clock": "cpu",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "build": describe_build(),
        "games": rows,
        "openspiel": spiel,
    }


__all__ = [
    "MCTS_SIMS",
    "RANDOM_STEPS",
    "bench_all",
    "bench_mcts",
    "bench_openspiel",
    "bench_computer_turns",
    "bench_heuristic_playouts",
    "bench_random_playouts",
    "bench_web",
    "default_game",
    "run_bench",
    "target",
]
