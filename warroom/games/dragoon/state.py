"""Dragoon's game state: flat lists of small ints and bools, so a clone is a handful of copies.

The phases of the turn are an enum (`Phase`) with a declared table (`PHASES`: JSON key and label);
the attack being resolved is a small immutable record (`AlliedAttack`, `BotAttack`), replaced rather
than changed in place, so clones share it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from types import MappingProxyType
from typing import NamedTuple

from warroom.engine.phases import PhaseInfo

from .options import DEFAULTS

# German unit locations beyond the board's location indices.
ARRIVAL_BOX = -1  # waiting in "Arrive at Arles from West"
ESCAPED = -2  # "Escaped to German Frontier" box
ELIMINATED = -3
BEYOND = -4  # pushed off its route where it can't be eliminated (148th ID to Italy)
IN_BOX = -1  # Allied unit still in its invasion box


class Phase(IntEnum):
    """Where in the turn a position stands: a die to roll or a decision to make (Sequence of Play Each Turn).

    The rulebook's German Movement and Turn End need neither, so the rules carry them out between
    these (rules.py, `SEQUENCE_OF_PLAY`)."""

    RP_ROLL = 0
    ACTIONS = 1
    ATTACK_ROLL = 2
    ATTACK_REROLL = 3
    BOT_ROLL = 4
    BOT_ATTACK_ROLL = 5
    BOT_REROLL = 6
    OVER = 7


PHASES: tuple[PhaseInfo, ...] = (
    PhaseInfo(Phase.RP_ROLL, "rp_roll", "Allied RPs"),
    PhaseInfo(Phase.ACTIONS, "actions", "Allied Actions"),
    PhaseInfo(Phase.ATTACK_ROLL, "attack_roll", "Allied Actions: attack roll"),
    PhaseInfo(Phase.ATTACK_REROLL, "attack_reroll", "Allied Actions: FFI re-roll?"),
    PhaseInfo(Phase.BOT_ROLL, "bot_roll", "German BOT Actions"),
    PhaseInfo(Phase.BOT_ATTACK_ROLL, "bot_attack_roll", "German BOT Actions: counterattack roll"),
    PhaseInfo(Phase.BOT_REROLL, "bot_reroll", "German BOT Actions: FFI re-roll?"),
    PhaseInfo(Phase.OVER, "over", "Game over"),
)
"""Every phase in the order of `Phase` (checked below), as saves and labels write it."""
if [info.phase for info in PHASES] != list(Phase):
    raise RuntimeError("PHASES must list every Phase in order")

PHASE_KEYS = tuple(info.key for info in PHASES)
PHASE_NAMES = tuple(info.name for info in PHASES)
RP_ROLL, ACTIONS, ATTACK_ROLL, ATTACK_REROLL = Phase.RP_ROLL, Phase.ACTIONS, Phase.ATTACK_ROLL, Phase.ATTACK_REROLL
BOT_ROLL, BOT_ATTACK_ROLL, BOT_REROLL, OVER = Phase.BOT_ROLL, Phase.BOT_ATTACK_ROLL, Phase.BOT_REROLL, Phase.OVER

# How an Allied attack is resolved (rulebook: Resolving Unit Attacks).
INVADE, UNOPPOSED, OPPOSED = range(3)
ATTACK_MODES = ("invasion", "unopposed", "opposed")

# The 11th PzD's special movement (rulebook: 11th PzD Special Rules).
PANZER_MOVING, PANZER_HELD, PANZER_PINNED = range(3)
PANZER_MODES = ("moving", "held in Avignon", "pinned in Montelimar")


class AlliedAttack(NamedTuple):
    """The Allied attack (or invasion) being resolved (Resolving Unit Attacks)."""

    unit: int
    """The attacking Allied unit."""
    target: int
    """The location attacked."""
    mode: int
    """INVADE, UNOPPOSED or OPPOSED."""
    defender: int = -1
    """The German unit on top of the target (-1: none)."""
    drm: int = 0
    air: bool = False
    rerolled: bool = False
    """Its FFI re-roll is spent (FFI)."""
    roll: int = 0
    """The last die rolled for it (0: not rolled yet)."""


class BotAttack(NamedTuple):
    """The German counterattack being resolved (German BOT Actions)."""

    attacker: int
    """The German unit attacking."""
    target: int
    """The Allied unit attacked."""
    rerolled: bool = False
    """The defender's FFI has made the German re-roll."""
    roll: int = 0


def _default_options() -> Mapping[str, str]:
    return MappingProxyType(dict(DEFAULTS))


@dataclass(slots=True, eq=False)
class DragoonState:
    """One position. Mutated in place by the rules; `clone` copies it cheaply (tests check every field)."""

    turn: int = 0
    phase: Phase = Phase.RP_ROLL
    rp: int = 0
    allied_pos: list[int] = field(default_factory=list)  # route position per Allied unit (IN_BOX: not landed)
    stalled: list[bool] = field(default_factory=list)
    ffi: list[bool] = field(default_factory=list)
    spent: list[bool] = field(default_factory=list)  # attacked, invaded or landed this turn: may not attack again
    german_loc: list[int] = field(default_factory=list)
    desperate: list[bool] = field(default_factory=list)
    control: list[bool] = field(default_factory=list)  # per location: Allied-controlled
    air_used: bool = False
    air_grounded: bool = False  # bad weather was last turn's BOT result
    bad_weather_next: bool = False
    vi_corps_in_crest: bool = False
    entered_198: bool = False
    panzer_mode: int = PANZER_MOVING
    bot_roll: int = 0
    attack: AlliedAttack | None = None  # the Allied attack being resolved (immutable: replaced, shared by clones)
    bot_queue: list[int] = field(default_factory=list)
    bot_attack: BotAttack | None = None  # the German counterattack being resolved (immutable, shared)
    captured: dict[int, int] = field(default_factory=dict)  # location -> turn the Allies first took it
    eliminated: dict[int, int] = field(default_factory=dict)  # german unit -> turn eliminated
    options: Mapping[str, str] = field(default_factory=_default_options)  # rules options (options.py): read-only
    legal: tuple[str, ...] | None = None  # cache, cleared by every change; shared by clones, so immutable

    def clone(self) -> DragoonState:
        """An independent copy: lists and dicts copied, immutable fields shared (tests/dragoon/test_state.py)."""
        twin = DragoonState.__new__(DragoonState)
        twin.turn, twin.phase, twin.rp = self.turn, self.phase, self.rp
        twin.allied_pos, twin.stalled, twin.ffi, twin.spent = (
            self.allied_pos[:],
            self.stalled[:],
            self.ffi[:],
            self.spent[:],
        )
        twin.german_loc, twin.desperate, twin.control = self.german_loc[:], self.desperate[:], self.control[:]
        twin.air_used, twin.air_grounded, twin.bad_weather_next = (
            self.air_used,
            self.air_grounded,
            self.bad_weather_next,
        )
        twin.vi_corps_in_crest, twin.entered_198 = self.vi_corps_in_crest, self.entered_198
        twin.panzer_mode, twin.bot_roll = self.panzer_mode, self.bot_roll
        twin.attack, twin.bot_attack, twin.bot_queue = self.attack, self.bot_attack, self.bot_queue[:]
        twin.captured, twin.eliminated = dict(self.captured), dict(self.eliminated)
        twin.options, twin.legal = self.options, self.legal
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> DragoonState:
        """`copy.deepcopy` is `clone` (the read-only options and records are shared, as they may be)."""
        return self.clone()
