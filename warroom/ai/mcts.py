"""Monte Carlo tree search over the Ruleset contract, for any game and any number of sides.

Decision nodes choose by UCT (PUCT with a prior, below); chance nodes sample an outcome with the search's own seeded RNG
and keep one child per outcome ("closed loop"). Closed loop rather than open loop because the
legal actions after a roll depend on the roll (an FFI re-roll offer, an attack that ended the
actions), so an open-loop node would mix incompatible action sets; with a d6 the fan-out is
only six. Leaves are scored by the game's `evaluate(ruleset, state)` when its spec's agent hooks
(`AgentHooks`) have one, else by a random playout to the end. When the game also has a `heuristic_policy`, its move
is a prior: expanded first, and selection becomes PUCT with that move holding `prior_share` of
the prior mass, so a small budget plays about as well as the heuristic and a larger one can
correct it.
Values are kept per side, in [0, 1]: a finished game's `Result.returns` (-1..+1, one per side) mapped
linearly, or the evaluation's value. Each node sums the value of the side whose choice led to it,
so selection at a node maximises what the side to move there gets. The same search thus plays
solitaire (one side against chance), two-player games and N sides in teams: partners' returns
are equal, so each plays for its team. An evaluation may answer a mapping side -> value, or one
float: the first side's value, its team's too, and 1 minus it for the other team where there
are two (solitaire: the one side's).

States are rebuilt each simulation from one clone of the root (`ruleset.clone`, never
deepcopy) with `apply(..., log=False)`: no state is stored in the tree.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from warroom.engine.chance import Sampler
from warroom.engine.ruleset import CHANCE, Ruleset, win_returns
from warroom.engine.spec import AgentHooks

from . import NO_HOOKS, decision_state

DEFAULT_SIMULATIONS = 2000
EXPLORATION = 0.1
"""UCT constant. Values are in [0, 1] but good and bad moves often differ by a few percent of
that range (a VP out of twelve), so the classic sqrt(2) would explore far too much (measured)."""
PUCT = 0.05
"""Exploration constant of PUCT, used where a prior policy names a move (same value scale as above)."""
PRIOR_SHARE = 0.5
"""The prior probability given to the prior policy's move; the other moves share the rest."""


class _Node:
    __slots__ = ("children", "untried", "visits", "value", "mover", "hint")

    def __init__(self, mover: int) -> None:
        self.children: dict[Any, _Node] = {}
        self.untried: list[str] | None = None  # None: a decision node not yet expanded
        self.visits = 0
        self.value = 0.0  # summed value for `mover`, the side whose choice led here (-1: chance)
        self.mover = mover
        self.hint: str | None = None  # the prior policy's choice here, asked for on the second visit


class MCTS:
    """One search: `search(state)` returns (best action, statistics)."""

    def __init__(
        self,
        ruleset: Ruleset[Any],
        *,
        evaluate: Callable[[Ruleset[Any], Any], float | Mapping[str, float]] | None = None,
        prior: Callable[[Ruleset[Any], Any], tuple[str, str]] | None = None,
        prior_share: float = PRIOR_SHARE,
        prior_confidence: float | None = None,
        puct: float = PUCT,
        exploration: float = EXPLORATION,
        seed: int | None = None,
        rollout_limit: int = 10_000,
        candidates: Callable[[Ruleset[Any], Any], Sequence[str]] | None = None,
        playout: Callable[[Ruleset[Any], Any, random.Random], None] | None = None,
        paired: bool = True,
        determinize: Callable[[Any, str, random.Random], Any] | None = None,
    ) -> None:
        self.ruleset = ruleset
        info = ruleset.info
        self.sides: tuple[str, ...] = tuple(info.sides)
        self.side_index = {side: k for k, side in enumerate(self.sides)}
        teams = info.team_list()
        # how a float evaluation splits among the sides: True for the first side's team
        self._first_team = (
            tuple(info.team_of(side) == info.team_of(self.sides[0]) for side in self.sides) if self.sides else ()
        )
        self._teams = len(teams)
        self._pair = len(self.sides) == 2 and self._teams == 2  # the common case, kept fast
        self._even = (0.5,) * len(self.sides)
        self.evaluate = evaluate
        self.prior = prior
        self.prior_share = prior_share
        # None: the most visited root move is played. A number z: the root's moves are visited in turn
        # (with `paired`, the k-th visit of each sees the same dice) and the prior's move is played
        # unless another beats it by z standard errors of their paired differences
        self.prior_confidence = prior_confidence
        self.puct = puct
        self.exploration = exploration
        self.rng = random.Random(seed)
        self.rollout_limit = rollout_limit
        self._sampler = Sampler()  # the engine's chance sampler, its d6 table kept between rolls
        self.candidates = candidates  # the actions a node expands (default: every legal action)
        self.playout = playout  # advances a leaf's state (say, to the end of the turn) before it is scored
        self.paired = paired  # common random numbers: the k-th simulation under each root move sees the same dice
        # a game with hidden information: each simulation starts from a state sampled from what the side
        # to move sees (its spec's `determinize`), so the search never plays on what that side cannot know.
        # Given one (say, a clone, to study a position with every card face up), it replaces the game's.
        self.determinize = determinize if determinize is not None else _spec_determinize(ruleset)
        self._dice = self.rng  # the stream chance draws from in the simulation under way
        self._dice_base = 0
        self._root_values: dict[str, list[float]] = {}  # the last search's samples under each root move
        self._root_actions: list[str] | None = None  # the root's moves, where a caller chose them (search)

    # -- values ------------------------------------------------------------------------------
    def _values(self, state: Any) -> tuple[float, ...]:
        """Each side's value in [0, 1] at a leaf: the game's evaluation, or a random playout."""
        if self.playout is not None:
            self.playout(self.ruleset, state, self._dice)
            if self.ruleset.to_act(state) is None:
                return self._result_values(state)
        if self.evaluate is not None:
            return self._as_values(self.evaluate(self.ruleset, state))
        rs = self.ruleset
        if rs.to_act(state) is not None:
            self._rollout(state)
        return self._result_values(state)

    def _as_values(self, value: float | Mapping[str, float]) -> tuple[float, ...]:
        """Each side's value from an evaluation: a mapping side -> value, or the first side's float."""
        if isinstance(value, Mapping):
            return tuple(float(value.get(side, 0.0)) for side in self.sides)
        if self._pair:
            return (value, 1.0 - value)  # a float is the first side's value in a zero-sum game
        if self._teams == 1:
            return (value,) * len(self.sides)  # solitaire (or one team against the game)
        if self._teams == 2:
            return tuple(value if mine else 1.0 - value for mine in self._first_team)
        raise ValueError(
            f"{self.ruleset.info.id}: with {self._teams} teams the evaluation must map each side to its value"
        )

    def _result_values(self, state: Any) -> tuple[float, ...]:
        """Each side's value at the end: its return, -1..+1, mapped onto 0..1 (a draw's 0 is 0.5)."""
        result = self.ruleset.result(state)
        if result is None:  # a playout cut short by the step limit: call it even
            return self._even
        returns = result.returns or win_returns(self.ruleset.info, result.winner)  # a ruleset that leaves them out
        return tuple(0.5 + 0.5 * returns.get(side, 0.0) for side in self.sides)

    def _rollout(self, state: Any) -> None:
        rs, rng = self.ruleset, self._dice
        for _ in range(self.rollout_limit):
            side = rs.to_act(state)
            if side is None:
                return
            if side == CHANCE:
                rs.apply_chance(state, self._sample(rs.chance_outcomes(state)), False)
            else:
                legal = rs.legal_actions(state)
                rs.apply(state, legal[int(rng.random() * len(legal))], False)

    def _sample(self, outcomes: Sequence[tuple[Any, float]]) -> Any:
        """One outcome of a chance node, from one draw of the search's dice (warroom.engine.chance)."""
        return self._sampler(outcomes, self._dice.random())

    # -- search --------------------------------------------------------------------------------
    def search(
        self,
        root_state: Any,
        budget_ms: float | None = None,
        simulations: int | None = None,
        root_actions: Sequence[str] | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """Search from `root_state` (not modified) until the time or simulation budget is spent. `root_actions`:
        the only moves the root weighs (legal ones, chosen by the caller: a hint's shortlist), instead of the
        candidates hook's or every legal action."""
        rs = self.ruleset
        side = rs.to_act(root_state)
        if side is None or side == CHANCE:
            raise ValueError("MCTS needs a state where a side decides")
        legal = self._root_moves(root_state, root_actions)
        if self.candidates is not None and len(legal) > 1 and self._root_actions is None:
            # the game's own hook may leave one action worth weighing (a setup step its evaluation cannot
            # judge): that one is played at once, no time spent on a search that cannot change it
            worth = self.candidates(rs, root_state)
            if len(worth) == 1:
                self.forget_root()  # no samples: an earlier search's are not this position's
                return worth[0], {
                    "simulations": 0,
                    "seconds": 0.0,
                    "visits": 0,
                    "value": None,
                    "side": side,
                    "legal": len(legal),
                    "candidates": 1,
                }
        if simulations is None and budget_ms is None:
            simulations = DEFAULT_SIMULATIONS
        deadline = time.perf_counter() + budget_ms / 1000.0 if budget_ms is not None else math.inf
        limit = simulations if simulations is not None else math.inf
        root = _Node(-1)
        self._root_values = {}
        self._dice_base = self.rng.getrandbits(48)
        start = time.perf_counter()
        count = self._simulations(root, root_state, side, limit, deadline) if len(legal) > 1 else 0
        elapsed = time.perf_counter() - start
        return self._answer(root, side, legal, count, elapsed)

    def _root_moves(self, root_state: Any, root_actions: Sequence[str] | None) -> list[str]:
        """The moves the root weighs: `root_actions` where given (checked legal, duplicates dropped, kept for
        the root's expansion), else every legal action."""
        legal = list(self.ruleset.legal_actions(root_state))
        self._root_actions = None
        if root_actions is not None:
            allowed = set(legal)
            wrong = [a for a in root_actions if a not in allowed]
            if wrong or not root_actions:
                raise ValueError(f"root actions must be legal here, not {wrong or 'none'}")
            self._root_actions = list(dict.fromkeys(root_actions))
            legal = list(self._root_actions)
        return legal

    def _simulations(self, root: _Node, root_state: Any, side: str, limit: float, deadline: float) -> int:
        """Simulations from `root_state` (each in a world drawn for `side` where the game hides something) until
        `limit` of them have run or the clock passes `deadline`; how many ran."""
        count = 0
        rng = self.rng
        while count < limit:
            world = root_state if self.determinize is None else self.determinize(root_state, side, rng)
            self._simulate(root, world)
            count += 1
            if time.perf_counter() >= deadline:  # every simulation: a playout of two turns is long
                break
        return count

    def _answer(
        self, root: _Node, side: str, legal: list[str], count: int, elapsed: float
    ) -> tuple[str, dict[str, Any]]:
        """The move to play and the search's statistics: the most visited root move (the confident choice where
        `prior_confidence` is set), or the first legal action where no simulation ran."""
        if not root.children:
            return legal[0], {
                "simulations": count,
                "seconds": elapsed,
                "visits": 0,
                "value": None,
                "side": side,
                "legal": len(legal),
            }
        action, child = max(root.children.items(), key=lambda item: (item[1].visits, item[1].value))
        if self.prior_confidence is not None:
            action = self._confident_choice(root.hint, self.prior_confidence)
            child = root.children[action]
        me = self.side_index[side]
        return action, {
            "simulations": count,
            "seconds": elapsed,
            "visits": child.visits,
            "value": child.value / child.visits if child.visits else None,
            "side": side,
            "side_index": me,
            "legal": len(legal),
            "children": {a: (c.visits, c.value / c.visits if c.visits else 0.0) for a, c in root.children.items()},
        }

    def forget_root(self) -> None:
        """No root samples: the position at hand was decided without a search."""
        self._root_values = {}

    def root_samples(self) -> dict[str, list[float]]:
        """The last search's root moves, each with the value every simulation under it backed up (for
        the side to move, in [0, 1], in the order they came): what a hint's confidence interval is made
        of (see ai/analysis.py). A copy, read after the search, so the search itself is untouched."""
        return {action: list(values) for action, values in self._root_values.items()}

    def _confident_choice(self, hint: str | None, z: float) -> str:
        """The prior's root move unless another beats it by `z` standard errors of the paired
        differences of their values (the k-th visits of two moves, which saw the same dice)."""
        values = self._root_values
        if hint is None or hint not in values:
            return max(values, key=lambda a: sum(values[a]) / len(values[a]))
        base = values[hint]
        best, best_mean = hint, 0.0
        for action, mine in values.items():
            n = min(len(mine), len(base))
            if action == hint or n < 2:
                continue
            diffs = [mine[k] - base[k] for k in range(n)]
            mean = sum(diffs) / n
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
            if mean > best_mean and mean > z * spread:
                best, best_mean = action, mean
        return best

    def _simulate(self, root: _Node, root_state: Any) -> None:
        """One simulation: down the tree from the root (a chance node samples, a decision node expands a move
        or selects one), a new leaf or the game's end scored, the values backed up along the path."""
        rs = self.ruleset
        state = rs.clone(root_state)
        to_act, apply, apply_chance = rs.to_act, rs.apply, rs.apply_chance
        side_index = self.side_index
        node = root
        path = [root]
        root_move = ""  # the root move this simulation took
        while True:
            side = to_act(state)
            if side is None:
                values = self._values(state)
                break
            if side == CHANCE:
                outcome = self._sample(rs.chance_outcomes(state))
                apply_chance(state, outcome, False)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = _Node(-1)
                node = child
                path.append(node)
                continue
            untried = node.untried
            if untried is None:
                untried = self._open(node, node is root, state)
                if node is not root:
                    values = self._values(state)  # a new decision node: score it and stop
                    break
            if self.prior is not None and node.hint is None and untried:
                self._ask_prior(node, state, untried)
            action = self._choose(node, node is root, state, untried, side_index[side])
            # node itself where no move was open to choose (a ruleset with none): apply then refuses ""
            child = node.children.get(action, node)
            if node is root:
                # the k-th simulation under every root move draws the same dice: their values
                # differ by the moves, not by luck, so small differences are seen sooner
                self._dice = random.Random(self._dice_base + child.visits) if self.paired else self.rng
                root_move = action
            apply(state, action, False)
            node = child
            path.append(node)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.value += values[visited.mover]
        if root_move and len(path) > 1:
            self._root_values.setdefault(root_move, []).append(values[path[1].mover])

    def _open(self, node: _Node, at_root: bool, state: Any) -> list[str]:
        """A decision node's first visit: the moves it will expand, shuffled (the root's chosen ones where the
        caller named them, else the candidates hook's or every legal action)."""
        if at_root and self._root_actions is not None:
            untried = node.untried = list(self._root_actions)
        else:
            rs = self.ruleset
            untried = node.untried = list(
                rs.legal_actions(state) if self.candidates is None else self.candidates(rs, state)
            )
        self.rng.shuffle(untried)
        return untried

    def _ask_prior(self, node: _Node, state: Any, untried: list[str]) -> None:
        """The prior's move at a node visited again (so leaves never pay for the prior), expanded first."""
        assert self.prior is not None
        hint = node.hint = self.prior(self.ruleset, state)[0]
        if hint in untried:
            untried.remove(hint)
            untried.append(hint)  # expanded first

    def _choose(self, node: _Node, at_root: bool, state: Any, untried: list[str], mover: int) -> str:
        """The move to follow from a decision node: the next untried one (a new child for `mover`), else the
        root's least visited (visited in turn under `prior_confidence`), else the best by UCT, or by PUCT where
        the prior named a move ("" where no move is open)."""
        choices: Iterable[tuple[str, _Node]] = node.children.items()
        if self.determinize is not None and not at_root:
            choices, expand = self._this_worlds(node, state, untried)
        else:
            expand = bool(untried)
        if expand:
            action = untried.pop()
            node.children[action] = _Node(mover)
            return action
        if at_root and self.prior_confidence is not None:  # visit the root's moves in turn
            return min(choices, key=lambda item: item[1].visits)[0]
        if node.hint is not None:
            return self._puct(node, list(choices))
        scale = self.exploration * math.sqrt(math.log(node.visits))  # UCT
        best_u = -math.inf
        action = ""
        for a, c in choices:
            u = c.value / c.visits + scale / math.sqrt(c.visits)
            if u > best_u:
                best_u, action = u, a
        return action

    def _this_worlds(self, node: _Node, state: Any, untried: list[str]) -> tuple[list[tuple[str, _Node]], bool]:
        """A node's children this sampled world allows, and whether one of its moves is still to expand.

        One tree serves every sampled world, and below the root a side's choices may differ between worlds (what
        it holds was drawn anew): keep to the ones this world allows, adding any no earlier world offered to
        `untried`, the last allowed one moved to its end (expanded next). (The root's are the searching side's
        own.)"""
        rs = self.ruleset
        offered = rs.legal_actions(state) if self.candidates is None else self.candidates(rs, state)
        allowed = set(offered)
        known = set(untried)
        untried.extend(a for a in offered if a not in node.children and a not in known)
        at = next((k for k in reversed(range(len(untried))) if untried[k] in allowed), -1)
        if at >= 0:
            untried.append(untried.pop(at))  # the last allowed one is expanded next
        return [(a, c) for a, c in node.children.items() if a in allowed], at >= 0

    def _puct(self, node: _Node, choices: list[tuple[str, _Node]]) -> str:
        """The child with the best PUCT score, the prior's move holding `prior_share` of the prior mass ("" where
        there is none)."""
        hint, k = node.hint, len(choices)
        scale = self.puct * math.sqrt(node.visits)
        p_hint = self.prior_share if k > 1 else 1.0
        p_other = (1.0 - p_hint) / (k - 1) if k > 1 else 0.0
        best_u = -math.inf
        action = ""
        for a, c in choices:
            n = c.visits
            u = c.value / n + scale * (p_hint if a == hint else p_other) / (1 + n)
            if u > best_u:
                best_u, action = u, a
        return action


def _spec_determinize(ruleset: Ruleset[Any]) -> Callable[[Any, str, random.Random], Any] | None:
    """The determinize hook of the ruleset's game where its spec declares hidden fields; None where it
    hides nothing (the search then starts from the state itself) or the ruleset is not registered."""
    from warroom.engine.errors import UnknownGameError
    from warroom.games import get_spec

    try:
        spec = get_spec(ruleset.info.id)
    except UnknownGameError:
        return None
    if spec.hidden and spec.determinize is None:
        raise ValueError(f"{spec.id} hides {', '.join(spec.hidden)} but has no determinize: search would peek")
    return spec.determinize if spec.hidden else None


class MCTSAgent:
    """MCTS as an agent: thinks for `budget_ms` and/or `simulations`, answers the most-visited move.

    `hooks` are the game's (`warroom.ai.agent_hooks(game)`); without them the search is the plain
    one (uniform priors, random rollouts), as for a toy ruleset built in a test."""

    name = "mcts"

    def __init__(
        self,
        ruleset: Ruleset[Any],
        *,
        hooks: AgentHooks[Any] = NO_HOOKS,
        budget_ms: int | None = None,
        simulations: int | None = None,
        seed: int | None = None,
        exploration: float = EXPLORATION,
        use_evaluation: bool = True,
        use_prior: bool = True,
        root_actions: Sequence[str] | None = None,
        prior_confidence: float | None = None,
    ) -> None:
        # the prior and its companions (which actions to expand, how to finish a leaf before scoring
        # it, how far to trust the evaluation against the prior's move) go together: `use_prior`
        # False plays the search without any of the game's hints
        hinted = hooks if use_prior else NO_HOOKS
        self.ruleset = ruleset
        self.budget_ms = budget_ms
        self.simulations = simulations
        self.search = MCTS(
            ruleset,
            evaluate=hooks.evaluate if use_evaluation else None,
            prior=hinted.heuristic_policy,
            exploration=exploration,
            seed=seed,
            candidates=hinted.candidate_actions,
            playout=hinted.leaf_playout,
            prior_confidence=hinted.search_confidence if prior_confidence is None else prior_confidence,
        )
        self.root_actions = root_actions
        """The only moves the root weighs (a hint's shortlist, legal in the position it is asked about); None: the
        game's candidates or every legal action. `prior_confidence` (given): the root's moves are visited in turn,
        so each gets the same simulations (see MCTS)."""
        self._value_text = hooks.value_text
        self._unpredictable = hooks.unpredictable
        self._order_rng = random.Random(None if seed is None else f"order {seed}")
        """Draws for `unpredictable` alone: the search's own stream is not moved by them."""
        self.last: dict[str, Any] = {}

    def choose(self, match: Any) -> tuple[str, str]:
        state = decision_state(match)
        return self.choose_state(state)

    def choose_state(self, state: Any) -> tuple[str, str]:
        """Search from a bare ruleset state (no Match needed)."""
        if self._unpredictable is not None:  # a choice the opponent watches but must not foresee
            drawn = self._unpredictable(self.ruleset, state, self._order_rng)
            if drawn is not None:
                self.search.forget_root()
                self.last = {"simulations": 0, "seconds": 0.0, "visits": 0, "value": None, "legal": 0}
                return drawn
        action, stats = self.search.search(state, self.budget_ms, self.simulations, self.root_actions)
        self.last = stats
        return action, self._why(stats)

    def _why(self, stats: dict[str, Any]) -> str:
        if stats["value"] is None:
            if stats["legal"] == 1:
                return "MCTS: the only legal action."
            if stats.get("candidates") == 1:
                return "MCTS: the one action worth weighing here (its game's own choice); nothing to search."
            return "MCTS: no time to search; the first legal action."

        sims, value = stats["simulations"], stats["value"]
        share = stats["visits"] / sims if sims else 0.0
        outlook = (
            self._value_text(self.ruleset, value) if self._value_text else f"{value:.0%} expected for {stats['side']}"
        )
        return f"MCTS: {sims:,} simulations, {outlook}; {share:.0%} of them chose this."
