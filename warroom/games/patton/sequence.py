"""The turn: the movement card, then (after moves and battles) reserves, Italian defection, the
stacking check, the objectives, and the next player's turn.

Rule citations: "Patton: The Movement Deck", "Patton: <scenario> — Reserves",
"Patton: Sicily — Italian Defection", "Patton: Positioning of Units" (stacking).
"""

from __future__ import annotations

from warroom.engine.events import Events

from .board import SCENARIO_RULE, mix_text
from .combat import doubles_face
from .objectives import check_end_of_turn, check_game_ends
from .state import (
    AFTER_DEFECTION,
    AFTER_RESERVES,
    AFTER_STACKING,
    CARD,
    DEFECTION,
    EMPTY,
    MOVING,
    RESERVE_ASK,
    RESERVE_DICE,
    RESERVE_PLACE,
    STACK_LIMIT,
    STACKING,
    START_TURN,
    PattonState,
)

DECK = "Patton: The Movement Deck"
STACKING_RULE = "Patton: Positioning of Units"
DEFECTION_RULE = "Patton: Sicily — Italian Defection"


def reserves_rule(s: PattonState) -> str:
    return f"{SCENARIO_RULE.get(s.board.id, 'Patton')} — Reserves"


# -- the movement card -------------------------------------------------------------------------
def start_turn(s: PattonState, events: Events) -> None:
    if s.mover == 0 and check_game_ends(s, events):
        return
    s.seg = [0] * len(s.seg)
    s.road_used_at = 0
    s.mp = s.mp_total = 0
    s.land_used = [0] * len(s.land_used)
    n = s.board.n
    s.frozen_a = [0] * n
    s.frozen_i = [0] * n
    mover = s.mover
    turned = len(s.cards[mover])
    pack = s.board.deal[mover]
    if turned < pack:
        s.phase = CARD  # a chance node: the next card of a pack nobody has seen
        return
    # "he turns over the face up cards, without shuffling, and uses them again"
    value = s.cards[mover][turned - pack]
    s.cards[mover].append(value)
    if events.on and turned == pack:
        events.emit(
            "pack_turned",
            f"The {s.board.side_names[mover]} pack is used up: the face-up cards are turned over, unshuffled.",
            DECK,
        )
    begin_movement(s, value, events)


def card_outcomes(s: PattonState) -> tuple[tuple[int, float], ...]:
    """The next card: any card not yet turned up, equally likely (the deal and shuffle are unseen)."""
    pool = s.pool
    total = sum(pool)
    return tuple([(value, count / total) for value, count in enumerate(pool) if count])


def apply_card(s: PattonState, value: int, events: Events) -> None:
    s.pool[value] -= 1
    s.cards[s.mover].append(value)
    begin_movement(s, value, events)


def begin_movement(s: PattonState, value: int, events: Events) -> None:
    other = s.cards[1 - s.mover]
    opposing = other[-1] if other else 0  # the first American turn uses his own card alone
    s.mp = s.mp_total = value + opposing
    s.phase = MOVING
    s.move_rows = None  # the mover's towns are listed afresh by the phase's first listing (movement.legal_moves)
    s.actor = s.mover
    if events.on:
        names = s.board.side_names
        plus = f" + the {names[1 - s.mover]} card {opposing}" if opposing else ""
        events.emit(
            "card",
            f"Turn {s.turn}, {names[s.mover]}: card {value}{plus} = {s.mp} Movement Points.",
            DECK,
            card=value,
            mp=s.mp,
        )


# -- reserves -----------------------------------------------------------------------------------
def start_reserves(s: PattonState, events: Events) -> None:
    res = s.board.reserves[s.mover]
    if res is None or (res.entries is not None and s.reserve_entries[s.mover] >= res.entries):
        s.phase = AFTER_RESERVES
        return
    if res.trigger == "schedule":
        s.reserve_entries[s.mover] += 1  # "2 at the end of each turn, for the player's first five turns"
        s.reserve_pending = [res.armor, res.infantry]
        offer_reserve_towns(s, events)
        return
    s.reserve_dice = []
    s.actor = s.mover
    s.phase = RESERVE_ASK if res.optional_roll else RESERVE_DICE


def reserve_die(s: PattonState, value: int, events: Events) -> None:
    s.reserve_dice.append(value)
    if len(s.reserve_dice) < 3:
        return
    res = s.board.reserves[s.mover]
    assert res is not None
    face = doubles_face(s.reserve_dice)
    shown = "-".join(map(str, s.reserve_dice))
    names = s.board.side_names
    if not face:
        if events.on:
            events.emit(
                "reserves_roll",
                f"{names[s.mover]} reserve dice {shown}: no double, no reserves this turn.",
                reserves_rule(s),
            )
        s.phase = AFTER_RESERVES
        return
    armor, infantry = res.entry(face)
    if events.on:
        events.emit(
            "reserves_roll",
            f"{names[s.mover]} reserve dice {shown}: a double of {face}s, {mix_text(armor, infantry)} may enter.",
            reserves_rule(s),
        )
    s.reserve_pending = [armor, infantry]
    offer_reserve_towns(s, events)


def reserve_towns(s: PattonState) -> list[int]:
    """Where the pending reserves may enter."""
    b = s.board
    res = b.reserves[s.mover]
    assert res is not None
    enemy = 1 - s.mover
    if res.place == "own_town":
        return [t for t in range(b.n) if s.side[t] == s.mover]
    if res.place == "star":
        return [t for t in b.star_towns if s.side[t] != enemy]
    return [res.town] if s.side[res.town] != enemy else []


def offer_reserve_towns(s: PattonState, events: Events) -> None:
    res = s.board.reserves[s.mover]
    assert res is not None
    if not reserve_towns(s):
        if events.on:
            where = {"own_town": "no town is held", "star": "every (*) town is held by the enemy"}.get(
                res.place, f"{s.board.names[res.town]} is held by the enemy"
            )
            kept = "they are lost" if res.trigger == "schedule" else "they stay in reserve"
            events.emit("reserves_blocked", f"Reserves cannot enter: {where}; {kept}.", reserves_rule(s))
        s.reserve_pending = [0, 0]
        s.phase = AFTER_RESERVES
        return
    s.actor = s.mover
    s.phase = RESERVE_PLACE


def place_reserves(s: PattonState, town: int, events: Events) -> None:
    res = s.board.reserves[s.mover]
    assert res is not None
    armor, infantry = s.reserve_pending
    if res.trigger == "doubles":
        s.reserve_entries[s.mover] += 1
    s.side[town] = s.mover
    s.armor[town] += armor
    s.inf[town] += infantry
    s.entered[s.mover][0] += armor
    s.entered[s.mover][1] += infantry
    s.reserve_pending = [0, 0]
    if events.on:
        events.emit(
            "reserves",
            f"{s.board.side_names[s.mover]} reserves {mix_text(armor, infantry)} enter {s.board.towns[town].name}.",
            reserves_rule(s),
        )
    s.phase = AFTER_RESERVES


# -- Italian defection (Sicily) -------------------------------------------------------------------
def start_defection(s: PattonState, events: Events) -> None:
    b = s.board
    if s.mover != 1 or not b.defection_towns:
        s.phase = AFTER_DEFECTION
        return
    owed = 0
    for t in b.defection_towns:
        if not s.defection_used[t] and s.allied_end[t] and s.side[t] == 0:
            s.defection_used[t] = True  # "Any one town can only be used once"
            owed += b.defection[t]
            if events.on:
                events.emit(
                    "defection",
                    f"The Axis did not oust the Allies from {b.towns[t].name}: {b.defection[t]} Italian Infantry "
                    "Units defect.",
                    DEFECTION_RULE,
                )
    s.defection_owed = owed
    continue_defection(s, events)


def defection_choices(s: PattonState) -> tuple[list[int], int]:
    """Towns the Axis may remove a defecting Unit from, and which kind (0 armor, 1 infantry)."""
    b = s.board
    towns = [t for t in range(b.n) if s.side[t] == 1 and s.inf[t] and t != b.hold]
    if towns:
        return towns, 1
    return [t for t in range(b.n) if s.side[t] == 1 and s.armor[t] and t != b.hold], 0


def continue_defection(s: PattonState, events: Events) -> None:
    if s.defection_owed > 0:
        towns, _ = defection_choices(s)
        if towns:
            s.phase = DEFECTION
            s.actor = 1
            return
        if events.on:
            events.emit("defection", "The Axis has no more Units outside Messina to remove.", DEFECTION_RULE)
        s.defection_owed = 0
    s.phase = AFTER_DEFECTION


def defect(s: PattonState, town: int, armor: int, events: Events) -> None:
    if armor:
        s.armor[town] -= 1
        s.eliminated[1][0] += 1
        s.defection_owed = max(0, s.defection_owed - 2)  # "1 Armored Unit instead of 2 Infantry Units"
    else:
        s.inf[town] -= 1
        s.eliminated[1][1] += 1
        s.defection_owed -= 1
    if s.armor[town] + s.inf[town] == 0:
        s.side[town] = EMPTY
    if events.on:
        events.emit(
            "defect",
            f"Axis removes {'1A' if armor else '1I'} from {s.board.towns[town].name}.",
            DEFECTION_RULE,
        )
    continue_defection(s, events)


# -- stacking ---------------------------------------------------------------------------------------
def start_stacking(s: PattonState) -> None:
    """The mover's towns over 10 Units once his turn is complete (Positioning of Units: "after a player's
    turn is completed he has more than 10 Units in a town, he must remove enough"). The opponent's towns
    wait for the end of his own turn: Units that retreated in during this turn may still move out."""
    side, mover = s.side, s.mover
    s.stacking_queue = [t for t in range(s.board.n) if side[t] == mover and s.armor[t] + s.inf[t] > STACK_LIMIT]
    next_stacking(s)


def next_stacking(s: PattonState) -> None:
    if s.stacking_queue:
        s.phase = STACKING
        s.actor = s.side[s.stacking_queue[0]]
    else:
        s.phase = AFTER_STACKING


def excess_choices(s: PattonState) -> list[tuple[int, int]]:
    """The ways to bring the first overstacked town down to 10 Units: (armor, infantry) removed."""
    t = s.stacking_queue[0]
    excess = s.armor[t] + s.inf[t] - STACK_LIMIT
    low = max(0, excess - s.inf[t])
    return [(a, excess - a) for a in range(low, min(excess, s.armor[t]) + 1)]


def remove_excess(s: PattonState, armor: int, infantry: int, events: Events) -> None:
    town = s.stacking_queue.pop(0)
    owner = s.side[town]
    s.armor[town] -= armor
    s.inf[town] -= infantry
    s.eliminated[owner][0] += armor
    s.eliminated[owner][1] += infantry
    if events.on:
        events.emit(
            "stacking",
            f"{s.board.side_names[owner]} have more than 10 Units in {s.board.towns[town].name}: "
            f"{mix_text(armor, infantry)} are removed from the game.",
            STACKING_RULE,
        )
    next_stacking(s)


# -- end of the turn ------------------------------------------------------------------------------
def finish_turn(s: PattonState, events: Events) -> None:
    if check_end_of_turn(s, events):
        return
    if s.mover == 0:
        s.allied_end = [side == 0 for side in s.side]
    else:
        s.turn += 1
    s.mover = 1 - s.mover
    s.phase = START_TURN
