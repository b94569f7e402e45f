"""What every research environment shares: a seeded game, its sides' numeric views, actions by index.

Each library's wrapper (PettingZoo, Gymnasium, OpenSpiel) stands on `GameDriver`, which asks only
the game's spec (warroom.engine.spec): the ruleset, and the `encoding` capability that turns a side's
observation into a fixed-length vector and bounds the number of legal actions. An action is its
index in `legal_actions` (the rules list them in one order for a position), so every game has a
`Discrete(max_actions)` action space with a mask; the text ids ride along for people and logs.

Dice are rolled here from the environment's seed (the match's seeded dice), so the same seed and
the same actions give the same game, as everywhere in warroom.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warroom.engine.errors import WarroomError
from warroom.engine.match import Match
from warroom.engine.spec import GameSpec, ObservationEncoding

OBSERVATION_HIGH = 100.0
"""The observation box's upper bound: encodings scale counts to about [0, 1], so this leaves room for a
count past its usual scale (a stack of 40) without an unbounded box; the low bound is -1."""


class NoEnvironmentError(WarroomError):
    """The game declares no observation encoding, so no library can be given a fixed-shape view."""

    code = "no_environment"


class ActionIndexError(WarroomError):
    """An action index that is not a legal action now (out of range, or masked out)."""

    code = "illegal_action"


def game_spec(game: str) -> tuple[GameSpec[Any], ObservationEncoding]:
    """The game's spec and its encoding; NoEnvironmentError names the games that have one."""
    from warroom.games import game_ids, get_spec

    spec = get_spec(game)
    if spec.encoding is None:
        usable = [g for g in game_ids() if get_spec(g).encoding is not None]
        raise NoEnvironmentError(
            f"{game} declares no observation encoding; games with environments: {', '.join(usable)}"
        )
    return spec, spec.encoding()


class GameDriver:
    """One game for an environment: reset from a seed, act by index, observe as numbers.

    The options are those studies play (warroom.analysis.simulate.study_options): the ones given, and where
    an option is not given, the value its spec names for simulations. An environment is played by learners
    and random agents, and a rule that lets a game go on until an objective falls (no turn limit) may never
    end between them; give the option (e.g. a turn limit of 0) to play without it."""

    def __init__(self, game: str, scenario: str | None = None, options: Mapping[str, Any] | None = None) -> None:
        from warroom.analysis.simulate import study_options

        self.spec, self.encoding = game_spec(game)
        self.ruleset = self.spec.ruleset()
        self.game = game
        self.scenario = scenario if scenario is not None else self.ruleset.info.scenarios[0]
        self.options = study_options(game, self.scenario, options)
        self.sides: tuple[str, ...] = self.ruleset.info.sides
        self.size = self.encoding.size(self.scenario)
        self.max_actions = self.encoding.max_actions
        self.match: Match | None = None

    def reset(self, seed: int) -> None:
        import warroom

        self.match = warroom.new_game(self.game, self.scenario, seed=seed, options=self.options, keep_log=False)

    @property
    def current(self) -> Match:
        if self.match is None:
            raise WarroomError("the environment has not been reset yet: call reset() first")
        return self.match

    def to_act(self) -> str | None:
        """The side to decide (chance is rolled inside), or None when the game is over."""
        return self.current.to_act

    def legal(self) -> list[str]:
        return self.current.legal_actions() if self.current.to_act is not None else []

    def mask(self) -> list[int]:
        """1 for each legal action's index, 0 elsewhere; all 0 for a side not to act or a game over."""
        legal = self.legal()
        if len(legal) > self.max_actions:
            raise WarroomError(
                f"{self.game} has {len(legal)} legal actions here, more than its encoding's max_actions "
                f"{self.max_actions}: the encoding's bound is wrong"
            )
        return [1] * len(legal) + [0] * (self.max_actions - len(legal))

    def observe(self, side: str) -> list[float]:
        """`side`'s view as numbers: only what `observation(state, side)` shows it."""
        m = self.current
        vector = self.encoding.encode(m.ruleset.observation(m.state, side), side, self.scenario)
        if len(vector) != self.size:
            raise WarroomError(f"{self.game}'s encoding gave {len(vector)} numbers, not its declared {self.size}")
        return vector

    def step(self, index: int) -> str:
        """Play the legal action at `index` (then the dice it calls for); its text id."""
        legal = self.legal()
        if not 0 <= int(index) < len(legal):
            raise ActionIndexError(
                f"action {index} is not legal now: {len(legal)} legal actions (0..{len(legal) - 1}); "
                "see the observation's action_mask"
            )
        action = legal[int(index)]
        self.current.play(action)
        return action

    def returns(self) -> dict[str, float]:
        """Each side's return at the end (warroom.engine.ruleset.Result.returns); 0 for all before it."""
        result = self.current.result
        if result is None:
            return dict.fromkeys(self.sides, 0.0)
        return {side: float(result.returns.get(side, 0.0)) for side in self.sides}

    def describe(self, action: str) -> str:
        return self.current.ruleset.describe_action(self.current.state, action)
