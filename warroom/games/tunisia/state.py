"""Tunisia's game state: flat lists indexed by piece number and a few small immutable records, so a
clone is a handful of list copies (tests/tunisia/test_state.py checks that it copies every slot).

Where a piece is (`loc`): a hex number of the board's grid, or one of the boxes below.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

OFF_MAP = -1  # not yet in play: the two-star II Corps pieces and Patton (5.1A, 16.0)
DEAD = -2  # the dead pile: eliminated (13.1); a support asset there may be replaced (7.7G)
RETURN_TO_BASE = -3  # the Return to Base box (7.4D, 10.2A, 12.4C)
REMOVED = -4  # out of the game for good: swapped for a two-star piece (16.0C), Rommel recalled (17.0)
BOX_NAMES = {OFF_MAP: "off map", DEAD: "dead pile", RETURN_TO_BASE: "Return to Base box", REMOVED: "removed"}


class Phase(IntEnum):
    """Where in the player-turn a position stands: a decision to make or a die to roll (7.0).

    The rulebook's eight phases are declared in sequence.py (`SEQUENCE_OF_PLAY`); each battle runs its
    Air Support, Combat and Advance steps one attack at a time (7.2B, 7.3E, 7.5B), so those phases are
    the battle's steps here."""

    MOVEMENT = 0  # 7.1: the phasing side moves
    ATTACK = 1  # 7.2: the phasing side declares an attack (with its air support, 7.3A) or ends the phase
    DEFENSIVE_AIR = 2  # 7.3C-E: the defender may fly one air support asset to the defence
    AIR_ROLL_ATTACKER = 3  # 10.2: the attacker's air combat die
    AIR_ROLL_DEFENDER = 4  # 10.2: the defender's air combat die
    ATTACK_ROLL = 5  # 7.4A, 11.2: the attacker's die
    DEFENSE_ROLL = 6  # 7.4B, 12.1: the defender's die
    DEFENDER_LOSS = 7  # 13.1C: the defender chooses which piece takes its loss
    ATTACKER_LOSS = 8  # 13.1C: the attacker chooses which piece takes its loss
    RETREAT = 9  # 14.1: the defender retreats each surviving piece two hexes
    ADVANCE = 10  # 7.5, 14.3: the attacker may advance into the vacated hex
    BREAKTHROUGH = 11  # 15.0: a unit stacked with a general may move and attack again
    RETURN_ATTACKER = 12  # 7.6: the phasing side returns its air assets first
    RETURN_DEFENDER = 13  # 7.6C: then the other side
    REPLACEMENT_ROLL = 14  # 7.7C: the Axis d6 for a port replacement
    REPLACEMENT = 15  # 7.7: rebuild and replace
    PATTON_ROLL = 16  # 16.0A: the Allies' arrival roll at the end of a turn
    PLACEMENT = 17  # 16.0A-C: where Patton and the swapped eliminated II Corps pieces enter
    ROMMEL_ROLL = 18  # 17.0A: the Axis recall roll in the last three turns
    SETUP = 19  # 5.0: a side placing its pieces (the Allies first, 5.2A), when it does not take the default
    OVER = 20


class Battle(NamedTuple):
    """The attack being resolved (11.0-14.0), replaced rather than changed so clones share it."""

    attacker: int  # the attacking unit (a battlegroup that replaced it takes its place, 13.1A)
    origin: int  # the attacker's hex
    target: int  # the defender's hex
    defender: int = -1  # the defending unit (-1: only support assets are there, 12.4)
    attacker_air: int = -1  # the air support asset each side flew in (7.3), -1 none
    defender_air: int = -1
    attacker_air_roll: int = 0  # the air combat's dice (10.2), 0 before they are rolled
    attack_roll: int = 0
    attack_hits: bool = False  # the attack succeeded (11.5): the defender takes a loss
    defense_hits: bool = False  # the defence succeeded (12.2): the attacker takes a loss
    breakthrough: bool = False  # a breakthrough attack (15.0): no second one after it
    stage: int = 0  # how far the battle has gone after its rolls (battle.py)


class TunisiaState:
    """One position, mutated in place by the rules; `clone` copies it cheaply."""

    __slots__ = (
        "turn",
        "player",
        "phase",
        "loc",
        "reduced",
        "moved",
        "attacked",
        "mp_spent",
        "moved_from",
        "origin",
        "battle",
        "retreating",
        "breakthrough",
        "bt_moved",
        "bt_attacked",
        "replacements_left",
        "placing",
        "free_setup",
        "patton_arrived",
        "axis_entered_eighth_army",
        "outcome",
        "supply_checks",
        "reach",
        "legal",
    )

    def __init__(self, n: int) -> None:
        self.turn = 1
        self.player = 0  # the phasing side: 0 Axis (first, 7.0), 1 Allied
        self.phase = Phase.MOVEMENT
        self.loc: list[int] = [OFF_MAP] * n
        self.reduced: list[bool] = [False] * n
        self.moved: list[bool] = [False] * n  # moved this Movement Phase (8.1B)
        self.attacked: list[bool] = [False] * n  # attacked this Combat Phase (11.1A)
        self.mp_spent: list[float] = [0.0] * n  # MPs the last move spent (8.7B), for the invariants
        self.moved_from: list[int] = [-1] * n  # where the last move began (8.5's minimum move: one hex)
        self.origin: list[int] = [-1] * n  # a battlegroup on the map: the unit it replaced (NOTES.md)
        self.battle: Battle | None = None
        self.retreating: tuple[int, ...] = ()  # pieces yet to retreat from the battle hex (14.1)
        self.breakthrough = -1  # the unit making a breakthrough (15.0), -1 none
        self.bt_moved = False
        self.bt_attacked = False
        self.replacements_left = 0  # 7.7B-C this Replacement Phase
        self.placing: tuple[int, ...] = ()  # pieces waiting for their hex (5.0, 16.0A, 16.0C)
        self.free_setup: tuple[bool, bool] = (False, False)  # (Axis, Allied) place their own pieces (5.0)
        self.patton_arrived = False
        self.axis_entered_eighth_army = False  # 17.0B: an Axis unit ever in an 8th Army hex or 8821
        self.outcome: tuple[int, str, str] | None = None  # (winner side, reason, rule) once decided
        self.supply_checks = 0  # Supply Phases carried out (7.8): the invariants check each
        self.reach: dict[int, Any] = {}  # movement cache for this Movement Phase (enemies stand still)
        self.legal: tuple[str, ...] | None = None  # cache of the legal ids, cleared by every change

    def clone(self) -> TunisiaState:
        """An independent copy: lists copied; immutable records and this phase's movement cache shared."""
        twin = TunisiaState.__new__(TunisiaState)
        twin.turn, twin.player, twin.phase = self.turn, self.player, self.phase
        twin.loc, twin.reduced, twin.moved, twin.attacked = (
            self.loc[:],
            self.reduced[:],
            self.moved[:],
            self.attacked[:],
        )
        twin.mp_spent, twin.moved_from, twin.origin = self.mp_spent[:], self.moved_from[:], self.origin[:]
        twin.battle, twin.retreating = self.battle, self.retreating
        twin.breakthrough, twin.bt_moved, twin.bt_attacked = self.breakthrough, self.bt_moved, self.bt_attacked
        twin.replacements_left, twin.placing, twin.patton_arrived = (
            self.replacements_left,
            self.placing,
            self.patton_arrived,
        )
        twin.free_setup = self.free_setup
        twin.axis_entered_eighth_army, twin.outcome = self.axis_entered_eighth_army, self.outcome
        twin.supply_checks, twin.reach, twin.legal = self.supply_checks, self.reach, self.legal
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> TunisiaState:
        return self.clone()
