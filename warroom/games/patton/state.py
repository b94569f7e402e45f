"""Patton's game state: per-town lists of small ints, so a clone is a handful of list copies.

A town holds units of one side only (General Rules: Positioning of Units). Units that move
towards an enemy town stop outside it, on the road: those are the attack `stacks`. Units are
anonymous within their kind, so a town is just (side, armor, infantry).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from warroom.engine.phases import PhaseInfo

if TYPE_CHECKING:
    from .board import Board

EMPTY = -1
STACK_LIMIT = 10  # Patton: Positioning of Units — at most 10 Units in a town once a turn is complete


class Phase(IntEnum):
    """Where in the turn a position stands, in the order of a turn (the rulebook has no numbered phases;
    the names follow its sections: "The Movement Deck", "Using Movement Points", "Battles", "Casualties",
    "Retreating"). The last five are steps the rules carry out on their own between decisions: `settle`
    always moves past them, so no side acts in one and no position records one. What each phase asks
    and who answers is declared in rules.py (`SEQUENCE_OF_PLAY`)."""

    PLACING = 0
    CARD = 1
    MOVING = 2
    BATTLE_ORDER = 3
    DICE = 4
    CASUALTY = 5
    TIE = 6
    RETREATING = 7
    RESERVE_ASK = 8
    RESERVE_DICE = 9
    RESERVE_PLACE = 10
    DEFECTION = 11
    STACKING = 12
    OVER = 13
    START_TURN = 14
    END_TURN = 15
    AFTER_RESERVES = 16
    AFTER_DEFECTION = 17
    AFTER_STACKING = 18


PHASES: tuple[PhaseInfo, ...] = (
    PhaseInfo(Phase.PLACING, "placement", "Placement"),
    PhaseInfo(Phase.CARD, "card", "Movement card"),
    PhaseInfo(Phase.MOVING, "movement", "Movement"),
    PhaseInfo(Phase.BATTLE_ORDER, "battle_order", "Battles: choose the next battle"),
    PhaseInfo(Phase.DICE, "battle_dice", "Battle dice"),
    PhaseInfo(Phase.CASUALTY, "casualties", "Casualties"),
    PhaseInfo(Phase.TIE, "tie", "Tie: retreat voluntarily?"),
    PhaseInfo(Phase.RETREATING, "retreat", "Retreating"),
    PhaseInfo(Phase.RESERVE_ASK, "reserve_ask", "Reserves: throw for them?"),
    PhaseInfo(Phase.RESERVE_DICE, "reserve_dice", "Reserve dice"),
    PhaseInfo(Phase.RESERVE_PLACE, "reserve_place", "Reserves: where they enter"),
    PhaseInfo(Phase.DEFECTION, "defection", "Italian defection"),
    PhaseInfo(Phase.STACKING, "stacking", "Stacking (10 units a town)"),
    PhaseInfo(Phase.OVER, "over", "Game over"),
)
"""Every phase a position can record, in the order of `Phase` (checked below)."""
if [info.phase for info in PHASES] != list(Phase)[: len(PHASES)]:
    raise RuntimeError("PHASES must list the recorded Phases in order")

PHASE_KEYS = tuple(info.key for info in PHASES)
PHASE_NAMES = tuple(info.name for info in PHASES)
PLACING, CARD, MOVING, BATTLE_ORDER, DICE = Phase.PLACING, Phase.CARD, Phase.MOVING, Phase.BATTLE_ORDER, Phase.DICE
CASUALTY, TIE, RETREATING, RESERVE_ASK = Phase.CASUALTY, Phase.TIE, Phase.RETREATING, Phase.RESERVE_ASK
RESERVE_DICE, RESERVE_PLACE, DEFECTION, STACKING, OVER = (
    Phase.RESERVE_DICE,
    Phase.RESERVE_PLACE,
    Phase.DEFECTION,
    Phase.STACKING,
    Phase.OVER,
)
START_TURN, END_TURN, AFTER_RESERVES = Phase.START_TURN, Phase.END_TURN, Phase.AFTER_RESERVES
AFTER_DEFECTION, AFTER_STACKING = Phase.AFTER_DEFECTION, Phase.AFTER_STACKING
CHANCE_PHASES = frozenset((CARD, DICE, RESERVE_DICE))

# Battle kinds: an ordinary battle for a town, or the Optional Retreating Rule's battle of a
# retreating defender for an enemy town.
NORMAL, RETREAT_BATTLE = 0, 1


class Stack(NamedTuple):
    """Units stopped on the road outside an enemy town to attack it (Patton: Battles). Immutable: a
    change replaces it, so clones share stacks."""

    target: int
    """The town attacked."""
    source: int
    """The town they came from; a landing area k is `board.n + k`."""
    armor: int
    infantry: int
    owner: int
    """The attacking side."""


class Fight(NamedTuple):
    """Optional Retreating Rule: retreating Units heading into an enemy town, to fight for it."""

    to: int
    armor: int
    infantry: int


class _Record:
    """Equality and a readable repr over the fields, for the mutable records a state holds (tests compare clones).

    The fields are named by `FIELDS` as well as `__slots__`: a class compiled by mypyc (compile.toml) keeps
    no `__slots__` attribute."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    __slots__: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]  # mutable: not a dict key

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, k) == getattr(other, k) for k in self.FIELDS)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={getattr(self, k)!r}' for k in self.FIELDS)})"


class Battle(_Record):
    """The battle being fought: for `target`, attacker's stacks (in state.stacks) against the town."""

    FIELDS = ("target", "attacker", "defender", "kind", "bonus", "n", "m", "att_dice", "def_dice", "round", "from_town")
    __slots__ = FIELDS

    def __init__(self, target: int, attacker: int, kind: int = NORMAL, bonus: int = 0, from_town: int = -1) -> None:
        self.target = target
        self.attacker = attacker
        self.defender = 1 - attacker
        self.kind = kind
        self.bonus = bonus  # extra defender dice (Optional Retreating Rule: +2)
        self.n = 0  # attacker's dice this round
        self.m = 0  # defender's dice this round
        self.att_dice: list[int] = []
        self.def_dice: list[int] = []
        self.round = 1
        self.from_town = from_town  # retreat battle: the town the retreaters left

    def clone(self) -> Battle:
        # by the constructor, not `Battle.__new__`: compiled by mypyc (compile.toml), the class has no bare __new__
        twin = Battle(self.target, self.attacker, self.kind, self.bonus, self.from_town)
        twin.defender, twin.n, twin.m, twin.round = self.defender, self.n, self.m, self.round
        twin.att_dice, twin.def_dice = self.att_dice[:], self.def_dice[:]
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Battle:
        """`copy.deepcopy` is `clone` (copy's own way needs a bare `__new__`, which a compiled class lacks)."""
        return self.clone()


class Retreat(_Record):
    """A defender's retreat being allocated road by road (Retreating)."""

    FIELDS = ("town", "side", "quota", "fight", "forced")
    __slots__ = FIELDS

    def __init__(self, town: int, side: int, quota: int, forced: bool = True) -> None:
        self.town = town
        self.side = side
        self.quota = quota  # units that may still retreat (5 in all)
        self.fight: Fight | None = None  # retreating into an enemy town (optional rule)
        self.forced = forced  # False: chosen after a tie (no fighting retreat: Optional Retreating Rule)

    def clone(self) -> Retreat:
        twin = Retreat(self.town, self.side, self.quota, self.forced)
        twin.fight = self.fight
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Retreat:
        """`copy.deepcopy` is `clone` (Battle.__deepcopy__)."""
        return self.clone()


class PattonState:
    """One position. Mutated in place by the rules; `clone` copies it cheaply."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "board",
        "advanced",
        "turn_limit",
        "turn",
        "mover",
        "phase",
        "actor",
        "cards",
        "pool",
        "mp",
        "mp_total",
        "side",
        "armor",
        "inf",
        "joined_a",
        "joined_i",
        "frozen_a",
        "frozen_i",
        "seg",
        "road_used_at",
        "land_used",
        "stacks",
        "offboard",
        "placing",
        "reserve_entries",
        "reserve_dice",
        "reserve_pending",
        "battle",
        "retreat",
        "tie_asked",
        "eliminated",
        "entered",
        "relieved",
        "allied_end",
        "held",
        "defection_used",
        "defection_owed",
        "stacking_queue",
        "winner",
        "reason",
        "result_rule",
        "legal",
        "move_rows",
    )
    """Every field (`__slots__` too; a class compiled by mypyc keeps no `__slots__` attribute)."""
    __slots__ = FIELDS

    def __init__(self, board: Board, blank: bool = False) -> None:
        self.board = board
        if blank:
            return  # a clone's twin: `clone` sets every other field (mypyc's classes have no bare __new__)
        n = board.n
        self.advanced = False  # Optional Retreating Rule for Advanced Players
        self.turn_limit = board.turn_limit or 0
        self.turn = 1
        self.mover = 0
        self.phase: Phase = CARD
        self.actor = 0
        self.cards: list[list[int]] = [[], []]  # each side's cards turned face up, in order
        self.pool = list(board.card_counts)  # unrevealed cards by value (neither player knows the deal)
        self.mp = 0
        self.mp_total = 0
        self.side = [EMPTY] * n
        self.armor = [0] * n
        self.inf = [0] * n
        self.joined_a = [0] * n  # retreated into a town still under attack: do not fight (Retreating)
        self.joined_i = [0] * n
        self.frozen_a = [0] * n  # landed this turn: may not move along roads (Sicily: Allied Landings)
        self.frozen_i = [0] * n
        self.seg = [0] * len(board.road_ends)  # units over each road segment this turn (max 5)
        self.road_used_at = 0  # bit mask: the towns at either end of a road used this turn (movement's cache)
        self.land_used = [0] * len(board.landings)
        self.stacks: list[Stack] = []  # the attack stacks on the roads (immutable, shared by clones)
        self.offboard = [0, 0]  # Allied units not yet landed (Sicily)
        self.placing: list[list[int]] = [[0, 0], [0, 0]]  # units each side has still to place
        self.reserve_entries = [0, 0]
        self.reserve_dice: list[int] = []
        self.reserve_pending = [0, 0]  # [armor, infantry] waiting for the mover to choose a town
        self.battle: Battle | None = None
        self.retreat: Retreat | None = None
        self.tie_asked = 0  # tie: 1 once the attacker stood, asking the defender
        self.eliminated = [[0, 0], [0, 0]]  # per side [armor, infantry] lost (battle, surrender, stacking, defection)
        self.entered = [[0, 0], [0, 0]]  # per side reserves entered
        self.relieved = False  # Bulge: the siege of Bastogne is broken (for good)
        self.allied_end = [False] * n  # towns the Allies held at the end of their last turn and have not lost since
        self.held = False  # Bulge: Wiltz held through the German reply (for good)
        self.defection_used = [False] * n
        self.defection_owed = 0
        self.stacking_queue: list[int] = []
        self.winner: int | None = None  # 0, 1, or None (draw) once over
        self.reason = ""
        self.result_rule = ""
        self.legal: Sequence[str] | None = None  # the legal ids (read only): cleared by every change, shared by clones
        self.move_rows: list[tuple[int, int]] | None = None
        """Movement's cache (movement.legal_moves): the mover's towns with Units free to move, in town order, each
        with its row of `ActionTable.town_moves` (town x 36 + free armor x 6 + free infantry, each at most 5).
        Built by the phase's first listing, kept by the moves (`movement.note_town`), forgotten
        when a Movement phase begins and by a clone."""

    def clone(self) -> PattonState:
        twin = PattonState(self.board, blank=True)
        twin.advanced, twin.turn_limit = self.advanced, self.turn_limit
        twin.turn, twin.mover, twin.phase, twin.actor = self.turn, self.mover, self.phase, self.actor
        twin.cards = [self.cards[0][:], self.cards[1][:]]
        twin.pool = self.pool[:]
        twin.mp, twin.mp_total = self.mp, self.mp_total
        twin.side, twin.armor, twin.inf = self.side[:], self.armor[:], self.inf[:]
        twin.joined_a, twin.joined_i = self.joined_a[:], self.joined_i[:]
        twin.frozen_a, twin.frozen_i = self.frozen_a[:], self.frozen_i[:]
        twin.seg, twin.land_used = self.seg[:], self.land_used[:]
        twin.road_used_at = self.road_used_at
        twin.stacks = self.stacks[:]
        twin.offboard = self.offboard[:]
        twin.placing = [self.placing[0][:], self.placing[1][:]]
        twin.reserve_entries = self.reserve_entries[:]
        twin.reserve_dice = self.reserve_dice[:]
        twin.reserve_pending = self.reserve_pending[:]
        twin.battle = self.battle.clone() if self.battle is not None else None
        twin.retreat = self.retreat.clone() if self.retreat is not None else None
        twin.tie_asked = self.tie_asked
        twin.eliminated = [self.eliminated[0][:], self.eliminated[1][:]]
        twin.entered = [self.entered[0][:], self.entered[1][:]]
        twin.relieved, twin.held = self.relieved, self.held
        twin.allied_end = self.allied_end[:]
        twin.defection_used = self.defection_used[:]
        twin.defection_owed = self.defection_owed
        twin.stacking_queue = self.stacking_queue[:]
        twin.winner, twin.reason, twin.result_rule = self.winner, self.reason, self.result_rule
        twin.legal = self.legal
        twin.move_rows = None
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> PattonState:
        """`copy.deepcopy` is `clone` (Battle.__deepcopy__): the board, static data, is shared."""
        return self.clone()

    def forget_derived(self) -> None:
        """Drop what is worked out from the position and kept (the legal ids, movement's rows): for code
        that sets a position's fields by hand (tests, editors); the rules keep both true themselves."""
        self.legal = None
        self.move_rows = None

    # -- small queries every module shares ----------------------------------------------------
    def units(self, town: int) -> int:
        return self.armor[town] + self.inf[town]

    def units_of(self, side: int) -> tuple[int, int]:
        """(armor, infantry) of `side` on the board, in attack stacks and (Allied) offshore."""
        armor = infantry = 0
        for t in range(self.board.n):
            if self.side[t] == side:
                armor += self.armor[t]
                infantry += self.inf[t]
        for st in self.stacks:
            if st.owner == side:
                armor += st.armor
                infantry += st.infantry
        if side == 0:
            armor += self.offboard[0]
            infantry += self.offboard[1]
        return armor, infantry
