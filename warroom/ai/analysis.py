"""Hints with numbers: the moves an agent weighed, each with its estimated value and how sure that is.

    analysis = analyse(agent, match, top=3)
    analysis.action, analysis.why          # exactly what agent.choose(match) answers
    for alt in analysis.top: alt.action, alt.value, alt.low, alt.high, alt.visits, alt.text

A player asking for a hint wants more than one move: the alternatives and how much better the
first is. `analyse` asks the agent for its move in the usual way (so the move, and with the same
seed every number, is what `choose` gives) and then reads how it got there:

- An MCTS agent: the root's moves with the value each simulation under them backed up
  (`MCTS.root_samples`). The estimate is their mean; the confidence a 95% interval, mean plus or
  minus 1.96 standard errors (sample deviation over the square root of the visits), cut to [0, 1].
  A search's samples are not quite independent (the tree below a move sharpens as it goes), so the
  interval says how much the estimate would move with more of the same search, not a guarantee.
- Any other agent (the heuristic, random, an agent a test swaps in): no search ran, so each legal
  move is scored by the game's `evaluate` (its spec's agent hooks) one move ahead (dice still to roll
  after it averaged over their outcomes, up to `CHANCE_DEPTH` rolls deep). Such a number has no spread to measure:
  low = high = value, visits = 0, and its text says "no search, no confidence".

Values are the side to move's, in [0, 1], on the game's evaluation scale: a win chance where two
teams play, the expected VP over the most the game allows for a solitaire game that scores
VP (the game's `value_text` puts it in VP). `measure` names which. The agent's own move comes
first; the others follow by the low end of their interval (the value they surely reach), so a move
tried once, whose interval is everything, never ranks above a well-tried good one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from warroom.engine.ruleset import CHANCE, Ruleset, win_returns

from . import agent_hooks, decision_state
from .mcts import MCTSAgent

Z95 = 1.96
"""Standard errors either side of the mean for a 95% interval (normal approximation)."""
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

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "value": self.value,
            "low": self.low,
            "high": self.high,
            "visits": self.visits,
            "text": self.text,
        }


@dataclass(frozen=True)
class Analysis:
    """An agent's move and reason, with the best alternatives it weighed (its own move first)."""

    action: str
    why: str
    side: str
    measure: str
    searched: bool
    top: list[Alternative]


def analyse(agent: Any, match: Any, top: int = 3) -> Analysis:
    """The agent's move and its `top` best alternatives with numbers; see the module docstring."""
    state = decision_state(match)
    ruleset: Ruleset = match.ruleset
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
    mine = [s for s in scored if s[0] == action] or [(action, None, None, None, 0)]
    others = sorted(
        (s for s in scored if s[0] != action),
        key=lambda s: (-(s[2] if s[2] is not None else -1.0), -(s[1] or 0.0), s[0]),
    )
    chosen = (mine + others)[: max(1, top)]
    alternatives = [
        Alternative(a, v, lo, hi, n, _text(ruleset, side, v, lo, hi, n, value_text)) for a, v, lo, hi, n in chosen
    ]
    return Analysis(action, why, side, measure, searched, alternatives)


def _from_samples(action: str, values: list[float]) -> tuple[str, float, float, float, int]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return action, mean, 0.0, 1.0, n  # one sample says nothing about its spread
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return action, mean, max(0.0, mean - half), min(1.0, mean + half), n


def _one_ply(ruleset: Ruleset, state: Any, side: str, evaluate: Callable[..., Any] | None) -> dict[str, float]:
    """Each legal action's value for `side` one move ahead by the game's evaluation ({} without one)."""
    if evaluate is None:
        return {}
    out = {}
    for action in ruleset.legal_actions(state):
        after = ruleset.clone(state)
        ruleset.apply(after, action, False)
        out[action] = _value(ruleset, after, side, evaluate, CHANCE_DEPTH)
    return out


def _value(ruleset: Ruleset, state: Any, side: str, evaluate: Callable[..., Any], depth: int) -> float:
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


def _side_value(ruleset: Ruleset, value: float | Mapping[str, float], side: str) -> float:
    """An evaluation's value for `side`: its entry in a mapping, else the first side's float (1 minus it for the
    other team)."""
    if isinstance(value, Mapping):
        return float(value.get(side, 0.0))
    info = ruleset.info
    first = info.sides[0]
    if len(info.team_list()) == 2 and info.team_of(side) != info.team_of(first):
        return 1.0 - float(value)
    return float(value)


def _measure(ruleset: Ruleset, side: str, value_text: Callable[..., str] | None) -> str:
    """What the numbers are, in a player's words."""
    if len(ruleset.info.team_list()) >= 2:
        return f"{side}'s estimated chance of winning"
    scale = f" ({value_text(ruleset, 1.0)} at best)" if value_text else ""
    return f"{side}'s expected result, as a share of the best the game allows{scale}"


def _text(
    ruleset: Ruleset,
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


__all__ = ["CHANCE_DEPTH", "NO_SEARCH", "Z95", "Alternative", "Analysis", "analyse"]
