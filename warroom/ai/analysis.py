"""Hints with numbers: the moves an agent weighed, each with its estimated value and how sure that is.

    analysis = analyse(agent, match, top=3)
    analysis.action, analysis.why          # exactly what agent.choose(match) answers
    for alt in analysis.top: alt.action, alt.value, alt.low, alt.high, alt.visits, alt.text

A player asking for a hint wants more than one move: the alternatives and how much better the
first is. `analyse` asks the agent for its move in the usual way (so the move, and with the same
seed every number, is what `choose` gives) and then reads how it got there:

- An MCTS agent: the root's moves with the value each simulation under them backed up
  (`MCTS.root_samples`). The estimate is their mean; the confidence a 95% Wilson score interval for
  that mean over its simulations. A value in [0, 1] with mean m varies at most as much as a win/loss
  with chance m does, so the interval a win/loss count would get is never too narrow for it, and
  unlike mean plus or minus 1.96 standard errors it does not shrink to nothing when a few samples
  happen to agree. A search's samples are not quite independent (the tree below a move sharpens as
  it goes), so the interval says how much the estimate would move with more of the same search, not
  a guarantee.
- Any other agent (the heuristic, random, an agent a test swaps in): no search ran, so each legal
  move is scored by the game's `evaluate` (its spec's agent hooks) one move ahead (dice still to roll
  after it averaged over their outcomes, up to `CHANCE_DEPTH` rolls deep). Such a number has no spread to measure:
  low = high = value, visits = 0, and its text says "no search, no confidence".

Values are the side to move's, in [0, 1], on the game's evaluation scale: a win chance where two
teams play, the expected VP over the most the game allows for a solitaire game that scores
VP (the game's `value_text` puts it in VP). `measure` names which. The moves are listed by their
estimate, highest first, as every front end says they are; the agent's own move is marked (`chosen`)
wherever it stands (MCTS plays its most simulated move, or its prior's unless another beats it
clearly, which need not be the highest estimate).

`hint(match)` is the hint every front end asks: a search with a budget of simulations, not of time
(the same seed gives the same numbers on any machine), over a shortlist of at most `HINT_CANDIDATES`
moves (the game's own candidates, ranked one move ahead where there are more), each visited in turn so
that every estimate listed rests on `HINT_SIMULATIONS` simulations of its own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from warroom.engine.ruleset import CHANCE, Ruleset, win_returns

from . import agent_hooks, decision_state
from .mcts import MCTSAgent, _spec_determinize

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval (Wilson's score interval uses it)."""
HINT_SIMULATIONS = 64
"""Simulations under each move a hint lists: enough that a 95% interval is some 25 points wide at worst
(Wilson at n = 64), and the same on any machine."""
HINT_CANDIDATES = 5
"""The most moves a hint weighs: where the game offers more, the best by the one-move-ahead evaluation
(the game's own move always among them)."""
CHANCE_DEPTH = 2
"""Dice rolls in a row that the no-search scoring averages over before it evaluates the position as it stands."""
NO_SEARCH = "no search, no confidence"


@dataclass(frozen=True)
class Alternative:
    """One move weighed: its value for the side to move (0..1), the 95% interval, and the simulations behind it
    (0: none)."""

    action: str
    value: float | None
    low: float | None
    high: float | None
    visits: int
    text: str
    chosen: bool = False
    """The agent's own move (the one the hint recommends)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "value": self.value,
            "low": self.low,
            "high": self.high,
            "visits": self.visits,
            "text": self.text,
            "chosen": self.chosen,
        }


@dataclass(frozen=True)
class Analysis:
    """An agent's move and reason, with the best moves it weighed by their estimate (its own marked)."""

    action: str
    why: str
    side: str
    measure: str
    searched: bool
    top: list[Alternative]


def analyse(agent: Any, match: Any, top: int = 3) -> Analysis:
    """The agent's move and its `top` best alternatives with numbers; see the module docstring."""
    state = decision_state(match)
    ruleset: Ruleset[Any] = match.ruleset
    side = str(ruleset.to_act(state))
    answer = agent.choose(match)
    action, why = (str(answer[0]), str(answer[1] or "")) if isinstance(answer, tuple) else (str(answer), "")
    hooks = agent_hooks(ruleset.info.id)
    value_text = hooks.value_text
    measure = _measure(ruleset, side, value_text)
    samples = agent.search.root_samples() if isinstance(agent, MCTSAgent) else {}
    scored: list[tuple[str, float | None, float | None, float | None, int]]
    if samples:
        scored = [_from_samples(a, values) for a, values in samples.items()]
        searched = True
    else:
        scored = [(a, v, v, v, 0) for a, v in _one_ply(ruleset, state, side, hooks.evaluate).items()]
        searched = False
    if not any(s[0] == action for s in scored):
        scored.append((action, None, None, None, 0))  # a move the numbers never reached (no search, no evaluation)
    ranked = sorted(scored, key=lambda s: (-(s[1] if s[1] is not None else -1.0), -s[4], s[0]))
    shown = ranked[: max(1, top)]
    if all(s[0] != action for s in shown):  # the agent's own move is always shown, last if it ranks lower
        shown[-1] = next(s for s in ranked if s[0] == action)
    alternatives = [
        Alternative(a, v, lo, hi, n, _text(ruleset, side, v, lo, hi, n, value_text), a == action)
        for a, v, lo, hi, n in shown
    ]
    return Analysis(action, why, side, measure, searched, alternatives)


def hint(
    match: Any,
    *,
    simulations: int = HINT_SIMULATIONS,
    candidates: int = HINT_CANDIDATES,
    seed: int | None = None,
    top: int = 3,
) -> Analysis:
    """The hint for the side to move: MCTS over a shortlist (`hint_moves`, at most `candidates` moves), each
    move visited in turn `simulations` times, so every estimate rests on that many simulations; the budget is
    a count, so the same `seed` gives the same numbers on any machine."""
    ruleset: Ruleset[Any] = match.ruleset
    state = decision_state(match)
    hooks = agent_hooks(ruleset.info.id)
    moves = hint_moves(ruleset, state, candidates)
    agent = MCTSAgent(
        ruleset,
        hooks=hooks,
        simulations=simulations * len(moves),
        seed=seed,
        root_actions=moves,
        prior_confidence=hooks.search_confidence if hooks.search_confidence is not None else Z95,
    )
    return analyse(agent, match, top)


def shortlist(agent: Any, match: Any, limit: int = HINT_CANDIDATES) -> Any:
    """`agent` set to weigh a hint's moves (`hint_moves`) each in turn, where it is an MCTS agent that weighs no
    list of its own (a front end that gives its hint a time budget, not `hint`'s count): the time then goes to
    a few moves, every one listed with the simulations behind it. Any other agent is returned as it is."""
    if isinstance(agent, MCTSAgent) and agent.root_actions is None:
        state = decision_state(match)
        if match.ruleset.to_act(state) not in (None, CHANCE):
            agent.root_actions = hint_moves(match.ruleset, state, limit)
            if agent.search.prior_confidence is None:
                agent.search.prior_confidence = Z95
    return agent


def hint_moves(ruleset: Ruleset[Any], state: Any, limit: int = HINT_CANDIDATES) -> list[str]:
    """The moves a hint weighs: the game's candidates (its `candidate_actions`, else every legal move); where
    there are more than `limit`, the game's own move (its heuristic's) and the best of the rest one move
    ahead by its evaluation (dice averaged, `CHANCE_DEPTH`), the legal order breaking ties."""
    hooks = agent_hooks(ruleset.info.id)
    side = str(ruleset.to_act(state))
    pool = (
        list(hooks.candidate_actions(ruleset, state)) if hooks.candidate_actions else list(ruleset.legal_actions(state))
    )
    if len(pool) <= limit:
        return pool
    # ranked in a world the side to move cannot tell from the real one: the shortlist never rests on what it
    # may not see (one draw, fixed, so the same position gives the same hint)
    hidden = _spec_determinize(ruleset)
    if hidden is not None:
        state = hidden(state, side, random.Random(0))
    own = hooks.heuristic_policy(ruleset, state)[0] if hooks.heuristic_policy else None
    values: dict[str, float] = {}
    if hooks.evaluate is not None:
        for action in pool:
            after = ruleset.clone(state)
            ruleset.apply(after, action, False)
            values[action] = _value(ruleset, after, side, hooks.evaluate, CHANCE_DEPTH)
    order = {a: k for k, a in enumerate(pool)}
    ranked = sorted(pool, key=lambda a: (a != own, -values.get(a, 0.0), order[a]))
    return ranked[:limit]


def wilson(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a mean of `n` values in [0, 1] (see the module docstring); (0, 1) for none."""
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, mean))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _from_samples(action: str, values: list[float]) -> tuple[str, float, float, float, int]:
    n = len(values)
    mean = sum(values) / n
    low, high = wilson(mean, n)
    return action, mean, min(low, mean), max(high, mean), n


def _one_ply(ruleset: Ruleset[Any], state: Any, side: str, evaluate: Callable[..., Any] | None) -> dict[str, float]:
    """Each legal action's value for `side` one move ahead by the game's evaluation ({} without one)."""
    if evaluate is None:
        return {}
    out = {}
    for action in ruleset.legal_actions(state):
        after = ruleset.clone(state)
        ruleset.apply(after, action, False)
        out[action] = _value(ruleset, after, side, evaluate, CHANCE_DEPTH)
    return out


def _value(ruleset: Ruleset[Any], state: Any, side: str, evaluate: Callable[..., Any], depth: int) -> float:
    """`side`'s value of `state`: the end's return, the average over a pending roll, or the evaluation."""
    to_act = ruleset.to_act(state)
    if to_act is None:
        result = ruleset.result(state)
        if result is None:
            return 0.5
        returns = result.returns or win_returns(ruleset.info, result.winner)
        return 0.5 + 0.5 * returns.get(side, 0.0)
    if to_act == CHANCE and depth > 0:
        outcomes = list(ruleset.chance_outcomes(state))
        total = sum(p for _, p in outcomes) or 1.0
        value = 0.0
        for outcome, p in outcomes:
            after = ruleset.clone(state)
            ruleset.apply_chance(after, outcome, False)
            value += p * _value(ruleset, after, side, evaluate, depth - 1)
        return value / total
    return _side_value(ruleset, evaluate(ruleset, state), side)


def _side_value(ruleset: Ruleset[Any], value: float | Mapping[str, float], side: str) -> float:
    """An evaluation's value for `side`: its entry in a mapping, else the first side's float (1 minus it for the
    other team)."""
    if isinstance(value, Mapping):
        return float(value.get(side, 0.0))
    info = ruleset.info
    first = info.sides[0]
    if len(info.team_list()) == 2 and info.team_of(side) != info.team_of(first):
        return 1.0 - float(value)
    return float(value)


def _measure(ruleset: Ruleset[Any], side: str, value_text: Callable[..., str] | None) -> str:
    """What the numbers are, in a player's words."""
    if len(ruleset.info.team_list()) >= 2:
        return f"{side}'s estimated chance of winning"
    scale = f" ({value_text(ruleset, 1.0)} at best)" if value_text else ""
    return f"{side}'s expected result, as a share of the best the game allows{scale}"


def _text(
    ruleset: Ruleset[Any],
    side: str,
    value: float | None,
    low: float | None,
    high: float | None,
    visits: int,
    value_text: Callable[..., str] | None,
) -> str:
    """One line: the estimate in the game's words, then its 95% interval and the simulations behind it."""
    if value is None or low is None or high is None:
        return "not weighed"

    def say(v: float) -> str:
        return value_text(ruleset, v) if value_text else f"{v:.0%} for {side}"

    estimate = say(value)
    if not visits:
        return f"{estimate} ({NO_SEARCH})"
    return f"{estimate} (95% interval {_core(say(low))} to {_core(say(high))}; {visits:,} simulations)"


def _core(text: str) -> str:
    """The number in a value's words ("about 5.9 VP expected" -> "5.9", "about 40% to win" -> "40%"), else all of
    them."""
    numbers = [word for word in text.split() if any(c.isdigit() for c in word)]
    return " ".join(numbers) or text


__all__ = [
    "CHANCE_DEPTH",
    "HINT_CANDIDATES",
    "HINT_SIMULATIONS",
    "NO_SEARCH",
    "Z95",
    "Alternative",
    "Analysis",
    "analyse",
    "hint",
    "hint_moves",
    "shortlist",
    "wilson",
]
