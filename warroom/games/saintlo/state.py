"""Saint-Lo's game state: flat lists of small ints, so a clone is a handful of list copies.

Units are numbered 0..129 (the Allied 65, then the Axis 65, in the Annex's order: tables.py); a unit
is on the board at a hex index or OFF (never deployed, destroyed, or swapped: 5.4 buys any of them).
The board's occupancy (`land_at`, `air_at`, `post_at`) is kept beside the positions so that movement
and attacks read a hex in one step. Decks are multisets (counts per distinct card): the order of a
shuffled deck is nobody's knowledge, so a draw is a chance node over what is left (4.5, 5.2, 9).
Seats: two (one an army) or four (10: army = seat // 2, role A = 0 / B = 1 = seat % 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

OFF = -1
"""A unit not on the board (5.4: "units that are not in play"); a Command Post not yet placed."""
DESTROYED = -2
"""A Command Post destroyed (2.4: it cannot reenter the game)."""


class Phase(IntEnum):
    """Where the game stands: setup (4), the turn's phases (5.1-5.4) and their sub-steps."""

    POSTS = 0  # 4.2: Command Posts placed on the coloured hexes
    DEPLOY = 1  # 4.3: units deployed face down in the own sector
    DRAW = 2  # 4.5 / 5.2: a Battle Report drawn (chance)
    START_ROLL = 3  # 4: dice for the starting player (chance)
    DISCARD = 4  # 5.2: an eighth Battle Report is discarded
    WINDOW = 5  # 9: a side may play a Battle Report outside its own decisions
    ACTIONS = 6  # 5.3: movement and attack
    SUPPORT = 7  # 7.3: artillery called to support the declared attack
    SUPPORT_REPLY = 8  # 10.3: the partner agrees to or refuses the support
    ATTACK_ROLL = 9  # 6.2: the attacker's dice (chance)
    DEFENSE_ROLL = 10  # 6.2: the defender's dice (chance)
    REORGANIZE = 11  # 5.4, 8: buy units, swap units for Supplies
    OVER = 12


PHASE_NAMES = (
    "Setup: Command Posts",
    "Setup: deployment",
    "Battle Report draw",
    "Setup: starting player",
    "Battle Report discard",
    "Battle Report window",
    "Movement and Attack",
    "Movement and Attack: artillery support",
    "Movement and Attack: support request",
    "Movement and Attack: attack roll",
    "Movement and Attack: defence roll",
    "Reorganization",
    "Game over",
)
PHASE_KEYS = (
    "posts",
    "deploy",
    "draw",
    "start_roll",
    "discard",
    "window",
    "actions",
    "support",
    "support_reply",
    "attack_roll",
    "defense_roll",
    "reorganize",
    "over",
)
if len(PHASE_NAMES) != len(Phase) or len(PHASE_KEYS) != len(Phase):
    raise RuntimeError("PHASE_NAMES and PHASE_KEYS must name every Phase")

TARGET_UNIT, TARGET_POST = 0, 1


class Attack(NamedTuple):
    """The attack being resolved (6.2, 7.3, 7.4): immutable, replaced, shared by clones."""

    attacker: int
    target: int
    """The unit attacked, or the Command Post's index (0..15) when `kind` is TARGET_POST."""
    kind: int
    air: bool = False
    """Air-to-air: the attacker's upper attack value against the aircraft's defence (7.4)."""
    supporters: tuple[int, ...] = ()
    refused: tuple[int, ...] = ()
    """Artillery the partner refused to this attack (10.3): not asked again."""
    asked: int = -1
    """The artillery unit whose support the partner is asked for (SUPPORT_REPLY)."""
    attack_roll: int = 0
    """The attacker's throw (odds.encode) once rolled."""


class Window(NamedTuple):
    """A Battle Report window (9): the seats still to answer, then what follows."""

    queue: tuple[int, ...]
    then: Phase
    """The phase that continues when the window closes."""
    reply: bool
    """Whether a round in which a card was played opens a round for the other army's seats."""
    played: bool = False
    army: int = -1
    """The army whose seats the current round asks."""
    resume: int = 0
    """The seat that decides when the window closes."""


@dataclass(slots=True, eq=False)
class SaintLoState:
    """One position, mutated in place by the rules; `clone` copies it (tests check every slot)."""

    phase: Phase = Phase.POSTS
    turn: int = 0  # player turns played so far (1: the first player's first turn)
    active: int = 0  # the army whose turn it is (in setup: whose step)
    seat: int = 0  # the seat to decide
    pos: list[int] = field(default_factory=list)  # per unit: hex or OFF
    used: list[bool] = field(default_factory=list)  # per unit: flipped face down this turn (5.3)
    land_at: list[int] = field(default_factory=list)  # per hex: the land unit there or OFF
    air_at: list[int] = field(default_factory=list)  # per hex: the aircraft there or OFF
    post_hex: list[int] = field(default_factory=list)  # per Command Post (army * 8 + k): hex, OFF, DESTROYED
    post_at: list[int] = field(default_factory=list)  # per hex: the live Command Post there or OFF
    lost_posts: list[int] = field(default_factory=list)  # per army: its Command Posts destroyed (3)
    supplies: list[int] = field(default_factory=list)  # per army (10.2: shared by a team)
    hands: list[list[int]] = field(default_factory=list)  # per seat: card indices, sorted
    deck: list[list[int]] = field(default_factory=list)  # per army: count per distinct card
    discard: list[list[int]] = field(default_factory=list)  # per army: count per distinct card
    effects: tuple[tuple[int, int, int], ...] = ()  # (army that played, card index, unit or OFF): to the turn's end
    activations: int = 0  # units used this turn (5.3: at most 10)
    current: int = OFF  # the unit being used (moved or attacked, may do the other)
    moved: bool = False
    attacked: bool = False
    paid: bool = False  # the current unit has paid its Supply (7.1: foot infantry pays only to attack)
    attack: Attack | None = None
    window: Window | None = None
    draw_queue: tuple[int, ...] = ()  # seats still to draw a Battle Report now
    swapped: list[int] = field(default_factory=list)  # per army: cost swapped this Reorganization (8)
    ended: list[bool] = field(default_factory=list)  # per seat: done with this phase (10.2)
    start_rolls: tuple[int, ...] = ()  # the starting player's dice so far (4)
    bulk: int = OFF
    """A deployment in bulk chosen (4.3, placement.py), waiting for the die that varies it: 0 the whole sector
    (`ready`), 1 + an index of `placement.AREAS` (`sector NAME`); OFF for none. While set, a die is to act."""
    bulk_dice: tuple[int, ...] = ()
    """The dice of the deployment in bulk rolled so far (4.3, placement.py: those that deal the counters, then
    the one that varies the hexes): the deploying team's to see, never the other army's (position.py)."""
    winner: int = OFF  # the army that won, OFF for none (a draw at the turn limit, or the game goes on)
    objective: int = 4  # 3: Command Posts to destroy
    turn_limit: int = 0  # turns each army plays before a draw (0: none)
    seats: int = 2
    legal: Sequence[str] | None = None  # cache, cleared by every change; shared by clones, so never changed
    unit_masks: list[int] | None = None
    """Derived, never saved: the hexes of each army's land units, then of its aircraft, as bit masks (Allied
    land, Axis land, Allied aircraft, Axis aircraft); made when a Movement and Attack list first asks
    (`movement.occupancy`) and kept by `setup.put` and `setup.lift`, which every move of a unit goes through."""

    def clone(self) -> SaintLoState:
        """An independent copy: lists copied, immutable records shared."""
        t = SaintLoState.__new__(SaintLoState)
        t.phase, t.turn, t.active, t.seat = self.phase, self.turn, self.active, self.seat
        t.pos, t.used, t.land_at, t.air_at = self.pos[:], self.used[:], self.land_at[:], self.air_at[:]
        t.post_hex, t.post_at, t.lost_posts = self.post_hex[:], self.post_at[:], self.lost_posts[:]
        t.supplies, t.hands = self.supplies[:], [h[:] for h in self.hands]
        t.deck, t.discard = [d[:] for d in self.deck], [d[:] for d in self.discard]
        t.effects, t.activations, t.current = self.effects, self.activations, self.current
        t.moved, t.attacked, t.paid, t.attack, t.window = self.moved, self.attacked, self.paid, self.attack, self.window
        t.draw_queue, t.swapped, t.ended, t.start_rolls = (
            self.draw_queue,
            self.swapped[:],
            self.ended[:],
            self.start_rolls,
        )
        t.winner, t.objective, t.turn_limit, t.seats = self.winner, self.objective, self.turn_limit, self.seats
        t.bulk, t.bulk_dice = self.bulk, self.bulk_dice
        t.legal = self.legal
        t.unit_masks = self.unit_masks[:] if self.unit_masks is not None else None
        return t

    def __deepcopy__(self, memo: dict[int, object]) -> SaintLoState:
        return self.clone()
