"""Post-game analysis: each side's estimated chances after every decision, and the decisions that cost the most.

    report = review(record)                # a Record, its JSON, or a save file's path
    report["points"]                       # step 0 (the start) .. n (after the n-th decision): each side's value
    report["mistakes"]                     # the decisions that lost the most, with what the computer would have played

Chess sites do this after a game; no board wargame does. It is game-neutral: everything it knows of
a game comes from the game's spec (its agent hooks), and it reads the record alone.

What the numbers are. A side's value is in [0, 1] on the game's evaluation scale (warroom.ai.analysis
says it in words: a win chance where two teams play, the expected result over the best the game allows
for a solitaire game). Where the game declares an evaluation (`AgentHooks.evaluate`), a position is
scored by it, a die still to roll averaged over its outcomes (`CHANCE_DEPTH` rolls deep). A game
without one is scored by a short, seeded MCTS search from the position (`SEARCH_SIMULATIONS`): the
side to act's value from what it may see (search determinizes what a side cannot see, so the
estimate never uses a hidden card), the other team's the rest.

Two numbers per decision:

- the graph's point after it: the position after the decision and the dice it caused, as they fell
  (luck included: a lost battle drops the line);
- its cost: how much less the decider could expect than from the best move it had, each move's value
  being the position right after it with its dice still to roll averaged over their outcomes (so bad
  luck is never blamed on a decision). With the game's evaluation every move is scored one move ahead
  (the moves search would weigh, `AgentHooks.candidate_actions`, where the game names them, and the one
  played); with the short search, the search's value of the position before the decision stands for
  the best move's. Costs below `MIN_LOSS` are never marked.

The `worst` costliest decisions of each side are marked; for each, the computer's choice in that
position (the agent asked: the game's heuristic where it has one, else MCTS, seeded so the same record
gives the same review; `warroom review --agent mcts` asks the search) with its
one-line reason and its move's expected value by the same scoring, so "you kept 41%, it would have kept
52%" compares like with like.

Hidden information: a review reads the whole record, dice and every side's decisions, so the web
server gives it only once a game is over (when every seat may download the record anyway).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import warroom
from warroom.engine.errors import RecordError
from warroom.engine.record import Record, read_record
from warroom.engine.ruleset import CHANCE, Ruleset
from warroom.games import get_spec

from . import agent_hooks, get_agent
from .analysis import CHANCE_DEPTH, _measure, _value

SEARCH_SIMULATIONS = 200
"""Simulations of the short search that scores a position of a game without an evaluation."""
AGENT_SIMULATIONS = 200
"""Simulations of the MCTS agent asked what it would have played at a marked decision (seeded: reproducible)."""
WORST = 3
"""Decisions marked per side."""
MIN_LOSS = 0.01
"""A decision that cost less than this (one point of win chance, or 1% of the best result) is never marked."""


@dataclasses.dataclass(frozen=True)
class _Position:
    """The little of a Match an agent reads (its ruleset and state): a decision of the record, replayed."""

    ruleset: Ruleset[Any]
    state: Any
    seed: int | None = None

    @property
    def to_act(self) -> str | None:
        return self.ruleset.to_act(self.state)


def review(
    record: Record | Mapping[str, Any] | str | Path,
    *,
    worst: int = WORST,
    agent: str | None = None,
    simulations: int = AGENT_SIMULATIONS,
    seed: int = 0,
) -> dict[str, Any]:
    """The post-game analysis of a record (finished or not): see the module docstring. JSON-ready:

    {"game", "scenario", "sides", "names" (the scenario's word for each side), "measure", "scoring", "steps", "over",
     "result",
     "points": [{"step", "side", "action", "label", "values": {side: value}}],
     "decisions": [{"step", "side", "action", "label", "before", "expected", "best", "loss"}],
     "mistakes": [{"step", "side", "action", "label", "before", "expected", "best", "loss", "text",
                   "computer": {"action", "label", "why", "expected", "agent"}}]}

    `step` k is the position after the record's k-th decision (0: the start), as `warroom replay` counts.
    `agent` names the computer player asked at the marked decisions (`simulations` for MCTS); by default
    the game's heuristic where it has one (instant, and it says why in the game's words), else MCTS."""
    record = _as_record(record)
    stepper = warroom.new_game(
        record.game,
        record.scenario,
        seed=record.seed,
        dice=list(record.dice),
        options=record.options,
        position=record.position,
        keep_log=False,
    )
    ruleset: Ruleset[Any] = stepper.ruleset
    sides = list(ruleset.info.sides)
    names = get_spec(record.game).terms(record.scenario).side_names  # the scenario's words for its sides
    score = _scorer(ruleset, seed)
    hooks = agent_hooks(ruleset.info.id)
    if agent is None:
        agent = "heuristic" if hooks.heuristic_policy is not None else "mcts"
    points, decisions, before_states = _replay(record, stepper, score)
    mistakes = [
        _mistake(
            d,
            before_states[d["step"] - 1],
            ruleset,
            score,
            hooks.value_text,
            agent,
            simulations,
            seed,
            names.get(side, side),
        )
        for side in sides
        for d in _costliest(decisions, side, worst)
    ]
    mistakes.sort(key=lambda m: m["step"])
    result = stepper.result
    return {
        "game": record.game,
        "scenario": record.scenario,
        "sides": sides,
        "names": {side: names.get(side, side) for side in sides},
        "measure": _measure(ruleset, "each side", hooks.value_text),
        "scoring": score.name,
        "steps": len(record.actions),
        "over": stepper.over,
        "result": result.to_json() if result is not None else None,
        "points": points,
        "decisions": decisions,
        "mistakes": mistakes,
    }


def _as_record(record: Record | Mapping[str, Any] | str | Path) -> Record:
    """A Record from itself, its JSON, or a save file's path."""
    if isinstance(record, Mapping):
        return Record.from_json(dict(record))
    if not isinstance(record, Record):
        return read_record(record)
    return record


def _replay(
    record: Record, stepper: warroom.Match, score: _Scorer
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Any]]:
    """The record's decisions played on `stepper` from its start: the graph's points (the start, then after each
    decision), each decision scored (before it, its expected value, the best move's, its cost), and the position
    before each (a copy)."""
    ruleset: Ruleset[Any] = stepper.ruleset
    points: list[dict[str, Any]] = [
        {"step": 0, "side": None, "action": None, "label": "Start of the game", "values": score.all(stepper.state)}
    ]
    decisions: list[dict[str, Any]] = []
    before_states: list[Any] = []
    for k, action in enumerate(record.actions, 1):
        state = stepper.state
        side = ruleset.to_act(state)
        if side is None or side == CHANCE:  # a manual roll is in `dice`, never in `actions`: the record is broken
            raise RecordError(f"decision {k} ({action!r}) comes where no side decides")
        label = ruleset.describe_action(state, action)
        before = points[-1]["values"][side]
        expected = score.after(state, action, side)
        best = score.best(state, action, side, before, expected)
        before_states.append(ruleset.clone(state))
        stepper.play(action)
        points.append({"step": k, "side": side, "action": action, "label": label, "values": score.all(stepper.state)})
        decisions.append(
            {
                "step": k,
                "side": side,
                "action": action,
                "label": label,
                "before": before,
                "expected": expected,
                "best": best,
                "loss": round(max(0.0, best - expected), 4),
            }
        )
    return points, decisions, before_states


def _costliest(decisions: list[dict[str, Any]], side: str, worst: int) -> list[dict[str, Any]]:
    """`side`'s `worst` costliest decisions that cost at least MIN_LOSS, the costliest (then earliest) first."""
    own = sorted(
        (d for d in decisions if d["side"] == side and d["loss"] >= MIN_LOSS), key=lambda d: (-d["loss"], d["step"])
    )
    return own[: max(0, worst)]


class _Scorer:
    """Each side's value of a position, by the game's evaluation or by a short search (see the module docstring)."""

    def __init__(
        self,
        ruleset: Ruleset[Any],
        evaluate: Callable[[Any, Any], Any],
        name: str,
        *,
        candidates: Callable[[Any, Any], list[str]] | None = None,
        one_ply: bool = True,
    ) -> None:
        self.ruleset = ruleset
        self.evaluate = evaluate
        self.name = name
        self.candidates = candidates
        self.one_ply = one_ply

    def all(self, state: Any) -> dict[str, float]:
        """Every side's value of `state` (the end's returns once it is over)."""
        return {
            side: round(_value(self.ruleset, state, side, self.evaluate, CHANCE_DEPTH), 4)
            for side in self.ruleset.info.sides
        }

    def after(self, state: Any, action: str, side: str) -> float:
        """`side`'s expected value of playing `action` in `state`: the dice after it averaged, not rolled."""
        after = self.ruleset.clone(state)
        self.ruleset.apply(after, action, False)
        return round(_value(self.ruleset, after, side, self.evaluate, CHANCE_DEPTH), 4)

    def best(self, state: Any, played: str, side: str, before: float, expected: float) -> float:
        """The most `side` could expect from a move here: every weighed move scored one move ahead, or (the
        short search, whose value of a position is already its best move's) the position's value before."""
        if not self.one_ply:
            return max(before, expected)
        moves = (
            self.candidates(self.ruleset, state) if self.candidates is not None else self.ruleset.legal_actions(state)
        )
        return max([expected, *(self.after(state, move, side) for move in moves if move != played)])


def _scorer(ruleset: Ruleset[Any], seed: int) -> _Scorer:
    """The game's evaluation where it has one; else a short seeded MCTS search per position."""
    hooks = agent_hooks(ruleset.info.id)
    if hooks.evaluate is not None:
        return _Scorer(
            ruleset,
            hooks.evaluate,
            "the game's evaluation, every move weighed one move ahead",
            candidates=hooks.candidate_actions,
        )
    from .mcts import MCTSAgent

    info = ruleset.info
    teams = info.team_list()

    def searched(rs: Any, state: Any) -> dict[str, float]:
        mover = str(rs.to_act(state))
        search = MCTSAgent(rs, hooks=hooks, simulations=SEARCH_SIMULATIONS, seed=seed).search
        _, stats = search.search(state, None, SEARCH_SIMULATIONS)
        value = 0.5 if stats.get("value") is None else float(stats["value"])
        out = {}
        for side in info.sides:  # the mover's team shares its value; the other teams share the rest
            same = info.team_of(side) == info.team_of(mover)
            out[side] = value if same else (1.0 - value) / max(1, len(teams) - 1)
        return out

    return _Scorer(
        ruleset,
        searched,
        f"a short search ({SEARCH_SIMULATIONS} MCTS simulations a position; the game has no evaluation)",
        one_ply=False,
    )


def _mistake(
    decision: dict[str, Any],
    state: Any,
    ruleset: Ruleset[Any],
    score: _Scorer,
    value_text: Callable[..., str] | None,
    agent_name: str,
    simulations: int,
    seed: int,
    name: str,
) -> dict[str, Any]:
    """A marked decision with what the computer would have played there, scored the same way."""
    side = decision["side"]
    agent = get_agent(
        agent_name,
        ruleset.info.id,
        seed=seed + decision["step"],
        simulations=simulations if agent_name == "mcts" else None,
    )
    action, why = agent.choose(_Position(ruleset, ruleset.clone(state)))
    expected = score.after(state, action, side)

    def say(v: float) -> str:
        return value_text(ruleset, v) if value_text else f"{v:.0%} for {name}"

    text = f"{name}'s move: {say(decision['expected'])}; the best move: {say(decision['best'])}"
    if action == decision["action"]:
        text += f"; the computer ({agent_name}) would have played the same"
    else:
        text += f"; the computer's choice ({agent_name}): {say(expected)}"
    return {
        **decision,
        "text": text,
        "computer": {
            "action": action,
            "label": ruleset.describe_action(state, action),
            "why": str(why or ""),
            "expected": expected,
            "agent": agent_name,
        },
    }


__all__ = ["AGENT_SIMULATIONS", "MIN_LOSS", "SEARCH_SIMULATIONS", "WORST", "review"]
