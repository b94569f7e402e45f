"""Dragoon positions as JSON (like chess FEN): every field of the state, by readable names."""

from __future__ import annotations

from typing import Any

from warroom.engine.errors import PositionError, WarroomError

from .board import Board
from .options import parse_options
from .state import (
    ARRIVAL_BOX,
    ATTACK_MODES,
    BEYOND,
    ELIMINATED,
    ESCAPED,
    IN_BOX,
    PANZER_MODES,
    PHASE_KEYS,
    AlliedAttack,
    BotAttack,
    DragoonState,
    Phase,
)

GERMAN_PLACES = {ARRIVAL_BOX: "arrival box", ESCAPED: "escaped", ELIMINATED: "eliminated", BEYOND: "beyond"}
GERMAN_PLACE_CODES = {name: code for code, name in GERMAN_PLACES.items()}


def state_to_json(board: Board, s: DragoonState) -> dict[str, Any]:
    names = [loc.id for loc in board.locations]
    allied = {}
    for i, unit in enumerate(board.allied):
        p = s.allied_pos[i]
        allied[unit.id] = {
            "location": names[board.routes[i][p]] if p != IN_BOX else None,
            "stalled": s.stalled[i],
            "ffi": s.ffi[i],
            "spent": s.spent[i],
        }
    german = {}
    for g, german_unit in enumerate(board.german):
        loc = s.german_loc[g]
        german[german_unit.id] = {
            "location": names[loc] if loc >= 0 else GERMAN_PLACES[loc],
            "desperate": s.desperate[g],
        }
    attack = None
    a = s.attack
    if a is not None:
        attack = {
            "unit": board.allied[a.unit].id,
            "target": names[a.target],
            "mode": ATTACK_MODES[a.mode],
            "defender": board.german[a.defender].id if a.defender >= 0 else None,
            "drm": a.drm,
            "air": bool(a.air),
            "rerolled": bool(a.rerolled),
            "roll": a.roll or None,
        }
    bot_attack = None
    c = s.bot_attack
    if c is not None:
        bot_attack = {
            "attacker": board.german[c.attacker].id,
            "target": board.allied[c.target].id,
            "rerolled": bool(c.rerolled),
            "roll": c.roll or None,
        }
    return {
        "turn": s.turn,
        "phase": PHASE_KEYS[s.phase],
        "rp": s.rp,
        "allied": allied,
        "german": german,
        "allied_control": [names[k] for k, held in enumerate(s.control) if held],
        "air": {"used": s.air_used, "grounded": s.air_grounded, "bad_weather_next": s.bad_weather_next},
        "vi_corps_entered_crest": s.vi_corps_in_crest,
        "198_entered_avignon": s.entered_198,
        "panzer": PANZER_MODES[s.panzer_mode],
        "bot_roll": s.bot_roll or None,
        "attack": attack,
        "bot_queue": [board.german[g].id for g in s.bot_queue],
        "bot_attack": bot_attack,
        "captured": {names[loc]: turn for loc, turn in sorted(s.captured.items())},
        "eliminated": {board.german[g].id: turn for g, turn in sorted(s.eliminated.items())},
        "options": dict(s.options),
    }


def state_from_json(board: Board, data: Any) -> DragoonState:
    """Rebuild a state; anything that does not fit the board is a PositionError naming the field."""
    try:
        return _parse(board, data)
    except PositionError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise PositionError(f"not a Dragoon position: {type(exc).__name__}: {exc}") from None


def _parse(board: Board, data: Any) -> DragoonState:
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    s = DragoonState()
    s.turn = _int(data, "turn", board.first_turn, board.last_turn)
    phase = data["phase"]
    if phase not in PHASE_KEYS:
        raise PositionError(f"phase {phase!r} is not one of {', '.join(PHASE_KEYS)}")
    s.phase = Phase(PHASE_KEYS.index(phase))
    s.rp = _int(data, "rp", 0, 6)
    _parse_allied(board, data, s)
    _parse_german(board, data, s)
    _parse_markers(board, data, s)
    _parse_pending(board, data, s)
    s.captured = {board.loc_index[k]: int(v) for k, v in data.get("captured", {}).items()}
    s.eliminated = {board.german_index[k]: int(v) for k, v in data.get("eliminated", {}).items()}
    try:
        s.options = parse_options(data.get("options"))
    except WarroomError as exc:
        raise PositionError(f"options: {exc}") from None
    _check_consistent(board, s)
    return s


def _parse_allied(board: Board, data: dict[str, Any], s: DragoonState) -> None:
    """The Allied units: each on its route (or in its box), stalled, with an FFI marker, spent."""
    loc_index = board.loc_index
    n = len(board.allied)
    s.allied_pos, s.stalled, s.ffi, s.spent = [IN_BOX] * n, [False] * n, [False] * n, [False] * n
    allied = data["allied"]
    for uid, info in allied.items():
        if uid not in board.allied_index:
            raise PositionError(f"unknown Allied unit {uid!r}")
        i = board.allied_index[uid]
        where = info.get("location")
        if where is not None:
            if where not in loc_index or loc_index[where] not in board.routes[i]:
                raise PositionError(f"{uid} cannot be at {where!r}: not on its route")
            s.allied_pos[i] = board.routes[i].index(loc_index[where])
        s.stalled[i], s.ffi[i], s.spent[i] = bool(info.get("stalled")), bool(info.get("ffi")), bool(info.get("spent"))


def _parse_german(board: Board, data: dict[str, Any], s: DragoonState) -> None:
    """The German units: each at a location or off the map (GERMAN_PLACES), desperate or not."""
    loc_index = board.loc_index
    m = len(board.german)
    s.german_loc, s.desperate = [ARRIVAL_BOX] * m, [False] * m
    for gid, info in data["german"].items():
        if gid not in board.german_index:
            raise PositionError(f"unknown German unit {gid!r}")
        g = board.german_index[gid]
        where = info["location"]
        if where in GERMAN_PLACE_CODES:
            s.german_loc[g] = GERMAN_PLACE_CODES[where]
        elif where in loc_index:
            s.german_loc[g] = loc_index[where]
        else:
            raise PositionError(f"{gid}: unknown location {where!r}")
        s.desperate[g] = bool(info.get("desperate"))


def _parse_markers(board: Board, data: dict[str, Any], s: DragoonState) -> None:
    """Allied control, the Air marker, the special rules' flags, the 11th PzD's mode and the BOT's roll."""
    loc_index = board.loc_index
    s.control = [False] * len(board.locations)
    for where in data.get("allied_control", []):
        if where not in loc_index:
            raise PositionError(f"allied_control: unknown location {where!r}")
        s.control[loc_index[where]] = True
    air = data.get("air", {})
    s.air_used, s.air_grounded, s.bad_weather_next = (
        bool(air.get("used")),
        bool(air.get("grounded")),
        bool(air.get("bad_weather_next")),
    )
    s.vi_corps_in_crest = bool(data.get("vi_corps_entered_crest"))
    s.entered_198 = bool(data.get("198_entered_avignon"))
    panzer = data.get("panzer", PANZER_MODES[0])
    if panzer not in PANZER_MODES:
        raise PositionError(f"panzer must be one of {PANZER_MODES}")
    s.panzer_mode = PANZER_MODES.index(panzer)
    s.bot_roll = int(data.get("bot_roll") or 0)


def _parse_pending(board: Board, data: dict[str, Any], s: DragoonState) -> None:
    """The Allied attack and the BOT's attacks under way (their die still to roll or re-roll)."""
    attack = data.get("attack")
    if attack is not None:
        defender = attack.get("defender")
        s.attack = AlliedAttack(
            board.allied_index[attack["unit"]],
            board.loc_index[attack["target"]],
            ATTACK_MODES.index(attack["mode"]),
            board.german_index[defender] if defender else -1,
            int(attack["drm"]),
            bool(attack["air"]),
            bool(attack["rerolled"]),
            int(attack.get("roll") or 0),
        )
    s.bot_queue = [board.german_index[g] for g in data.get("bot_queue", [])]
    bot_attack = data.get("bot_attack")
    if bot_attack is not None:
        s.bot_attack = BotAttack(
            board.german_index[bot_attack["attacker"]],
            board.allied_index[bot_attack["target"]],
            bool(bot_attack["rerolled"]),
            int(bot_attack.get("roll") or 0),
        )


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{key} must be an integer from {low} to {high}, not {value!r}")
    return value


def _check_consistent(board: Board, s: DragoonState) -> None:
    if s.phase in (Phase.ATTACK_ROLL, Phase.ATTACK_REROLL) and s.attack is None:
        raise PositionError(f"phase {PHASE_KEYS[s.phase]} needs a pending 'attack'")
    if s.phase in (Phase.BOT_ATTACK_ROLL, Phase.BOT_REROLL) and s.bot_attack is None:
        raise PositionError(f"phase {PHASE_KEYS[s.phase]} needs a pending 'bot_attack'")
    for i, p in enumerate(s.allied_pos):
        if p >= 0 and board.routes[i][p] in s.german_loc:
            raise PositionError(
                f"{board.allied[i].id} shares {board.locations[board.routes[i][p]].id} with a German unit"
            )
    infantry: dict[int, int] = {}
    for g, loc in enumerate(s.german_loc):
        if loc >= 0 and not board.is_panzer[g]:
            if loc in infantry:
                raise PositionError(
                    f"{board.german[infantry[loc]].id} and {board.german[g].id} are both in {board.locations[loc].id}: "
                    "German infantry may not stack with infantry"
                )
            infantry[loc] = g
    gone = {g for g, loc in enumerate(s.german_loc) if loc == ELIMINATED}
    if gone != set(s.eliminated):
        raise PositionError("'eliminated' must list exactly the German units whose location is 'eliminated'")
    for g in gone:
        if board.never_eliminated[g]:
            raise PositionError(f"{board.german[g].id} can never be eliminated")
