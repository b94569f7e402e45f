"""Dragoon's game state: flat lists of small ints and bools, so a clone is a handful of copies."""

from __future__ import annotations

from .options import DEFAULTS

# German unit locations beyond the board's location indices.
ARRIVAL_BOX = -1  # waiting in "Arrive at Arles from West"
ESCAPED = -2  # "Escaped to German Frontier" box
ELIMINATED = -3
BEYOND = -4  # pushed off its route where it can't be eliminated (148th ID to Italy)
IN_BOX = -1  # Allied unit still in its invasion box

# Phases. The rulebook's German Movement and Turn End are carried out automatically between these.
RP_ROLL, ACTIONS, ATTACK_ROLL, ATTACK_REROLL, BOT_ROLL, BOT_ATTACK_ROLL, BOT_REROLL, OVER = range(8)
PHASE_NAMES = (
    "Allied RPs",
    "Allied Actions",
    "Allied Actions: attack roll",
    "Allied Actions: FFI re-roll?",
    "German BOT Actions",
    "German BOT Actions: counterattack roll",
    "German BOT Actions: FFI re-roll?",
    "Game over",
)
PHASE_KEYS = ("rp_roll", "actions", "attack_roll", "attack_reroll", "bot_roll", "bot_attack_roll", "bot_reroll", "over")

# How an Allied attack is resolved (rulebook: Resolving Unit Attacks).
INVADE, UNOPPOSED, OPPOSED = range(3)
ATTACK_MODES = ("invasion", "unopposed", "opposed")

# The 11th PzD's special movement (rulebook: 11th PzD Special Rules).
PANZER_MOVING, PANZER_HELD, PANZER_PINNED = range(3)
PANZER_MODES = ("moving", "held in Avignon", "pinned in Montelimar")


class DragoonState:
    """One position. Mutated in place by the rules; `clone` copies it cheaply."""

    __slots__ = (
        "turn", "phase", "rp", "allied_pos", "stalled", "ffi", "spent", "german_loc", "desperate",
        "control", "air_used", "air_grounded", "bad_weather_next", "vi_corps_in_crest", "entered_198",
        "panzer_mode", "bot_roll", "attack", "bot_queue", "bot_attack", "captured", "eliminated", "options", "legal",
    )

    def __init__(self) -> None:
        self.turn = 0
        self.phase = RP_ROLL
        self.rp = 0
        self.allied_pos: list[int] = []
        self.stalled: list[bool] = []
        self.ffi: list[bool] = []
        self.spent: list[bool] = []  # attacked, invaded or landed this turn: may not attack again
        self.german_loc: list[int] = []
        self.desperate: list[bool] = []
        self.control: list[bool] = []  # per location: Allied-controlled
        self.air_used = False
        self.air_grounded = False  # bad weather was last turn's BOT result
        self.bad_weather_next = False
        self.vi_corps_in_crest = False
        self.entered_198 = False
        self.panzer_mode = PANZER_MOVING
        self.bot_roll = 0
        # pending Allied attack: [unit, target, mode, defender, drm, air, rerolled, roll]
        self.attack: list[int] | None = None
        self.bot_queue: list[int] = []
        # pending German attack: [attacker, target allied unit, rerolled, roll]
        self.bot_attack: list[int] | None = None
        self.captured: dict[int, int] = {}  # location -> turn the Allies first took it
        self.eliminated: dict[int, int] = {}  # german unit -> turn eliminated
        self.options: dict[str, str] = dict(DEFAULTS)  # the rules options (options.py); never mutated, so clones share it
        self.legal: tuple[str, ...] | None = None  # cache, cleared by every change; shared by clones, so immutable

    def clone(self) -> DragoonState:
        twin = DragoonState.__new__(DragoonState)
        twin.turn, twin.phase, twin.rp = self.turn, self.phase, self.rp
        twin.allied_pos, twin.stalled, twin.ffi, twin.spent = self.allied_pos[:], self.stalled[:], self.ffi[:], self.spent[:]
        twin.german_loc, twin.desperate, twin.control = self.german_loc[:], self.desperate[:], self.control[:]
        twin.air_used, twin.air_grounded, twin.bad_weather_next = self.air_used, self.air_grounded, self.bad_weather_next
        twin.vi_corps_in_crest, twin.entered_198 = self.vi_corps_in_crest, self.entered_198
        twin.panzer_mode, twin.bot_roll = self.panzer_mode, self.bot_roll
        twin.attack = self.attack[:] if self.attack is not None else None
        twin.bot_queue = self.bot_queue[:]
        twin.bot_attack = self.bot_attack[:] if self.bot_attack is not None else None
        twin.captured, twin.eliminated = dict(self.captured), dict(self.eliminated)
        twin.options = self.options
        twin.legal = self.legal
        return twin
