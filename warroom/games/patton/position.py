"""Patton positions as JSON (like chess FEN): every field of the state, by readable names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warroom.engine.errors import PositionError, WarroomError

from .board import SIDES, Board
from .state import (
    BATTLE_ORDER,
    CARD,
    CASUALTY,
    DEFECTION,
    DICE,
    NORMAL,
    OVER,
    PHASE_KEYS,
    RESERVE_ASK,
    RESERVE_DICE,
    RESERVE_PLACE,
    RETREAT_BATTLE,
    RETREATING,
    STACKING,
    TIE,
    Battle,
    Fight,
    PattonState,
    Phase,
    Retreat,
    Stack,
)

BATTLE_KINDS = ("battle", "retreat_battle")


def _side(k: int | None) -> str | None:
    return SIDES[k] if k is not None and k >= 0 else None


def state_to_json(s: PattonState) -> dict[str, Any]:
    b = s.board
    names = b.names
    return {
        "game": "patton",
        "scenario": b.id,
        "options": {"advanced_retreat": s.advanced, "turn_limit": s.turn_limit or None},
        "turn": s.turn,
        "mover": SIDES[s.mover],
        "phase": PHASE_KEYS[s.phase] if s.phase < len(PHASE_KEYS) else "over",
        "actor": SIDES[s.actor],
        "cards": {"Allied": list(s.cards[0]), "Axis": list(s.cards[1])},
        "cards_unseen": {str(v): c for v, c in enumerate(s.pool) if c},
        "mp": s.mp,
        "mp_total": s.mp_total,
        "towns": _towns_json(s),
        "road_use": [
            [names[b.road_ends[r][0]], names[b.road_ends[r][1]], used] for r, used in enumerate(s.seg) if used
        ],
        "landing_use": {b.landings[k].id: used for k, used in enumerate(s.land_used) if used},
        "stacks": [_stack_json(b, st) for st in s.stacks],
        "offshore": {"armor": s.offboard[0], "infantry": s.offboard[1]},
        "placing": {"Allied": list(s.placing[0]), "Axis": list(s.placing[1])},
        "reserves": {
            "entries": {"Allied": s.reserve_entries[0], "Axis": s.reserve_entries[1]},
            "dice": list(s.reserve_dice),
            "pending": list(s.reserve_pending),
        },
        "battle": _battle_json(names, s.battle),
        "retreat": _retreat_json(names, s.retreat),
        "tie_asked": s.tie_asked,
        "eliminated": {"Allied": list(s.eliminated[0]), "Axis": list(s.eliminated[1])},
        "reserves_entered": {"Allied": list(s.entered[0]), "Axis": list(s.entered[1])},
        "relieved": s.relieved,
        "held": s.held,
        "allied_end": _marked(names, s.allied_end),
        "defection_used": _marked(names, s.defection_used),
        "defection_owed": s.defection_owed,
        "stacking_queue": [names[t] for t in s.stacking_queue],
        "result": {"winner": _side(s.winner), "reason": s.reason, "rule": s.result_rule} if s.phase == OVER else None,
    }


def _towns_json(s: PattonState) -> dict[str, dict[str, Any]]:
    """The towns held or holding Units: side and Units, and the Units joined or landed this turn where any."""
    towns = {}
    for t in range(s.board.n):
        if s.side[t] >= 0 or s.armor[t] or s.inf[t]:
            entry: dict[str, Any] = {"side": _side(s.side[t]), "armor": s.armor[t], "infantry": s.inf[t]}
            if s.joined_a[t] or s.joined_i[t]:
                entry["joined"] = [s.joined_a[t], s.joined_i[t]]
            if s.frozen_a[t] or s.frozen_i[t]:
                entry["landed"] = [s.frozen_a[t], s.frozen_i[t]]
            towns[s.board.names[t]] = entry
    return towns


def _stack_json(b: Board, st: Stack) -> dict[str, Any]:
    """An attack stack: its target, where it came from (a town or a landing area), its Units and side."""
    return {
        "to": b.names[st.target],
        "from": b.names[st.source] if st.source < b.n else b.landings[st.source - b.n].id,
        "armor": st.armor,
        "infantry": st.infantry,
        "side": SIDES[st.owner],
    }


def _battle_json(names: list[str], bt: Battle | None) -> dict[str, Any] | None:
    """The battle under way, if any."""
    if bt is None:
        return None
    return {
        "target": names[bt.target],
        "attacker": SIDES[bt.attacker],
        "kind": BATTLE_KINDS[bt.kind],
        "bonus": bt.bonus,
        "attacker_dice": bt.n,
        "defender_dice": bt.m,
        "attacker_roll": list(bt.att_dice),
        "defender_roll": list(bt.def_dice),
        "round": bt.round,
        "from": names[bt.from_town] if bt.from_town >= 0 else None,
    }


def _retreat_json(names: list[str], r: Retreat | None) -> dict[str, Any] | None:
    """The retreat under way, if any, with the fight on its way where there is one."""
    if r is None:
        return None
    return {
        "town": names[r.town],
        "side": SIDES[r.side],
        "quota": r.quota,
        "forced": r.forced,
        "fight": None
        if r.fight is None
        else {"to": names[r.fight.to], "armor": r.fight.armor, "infantry": r.fight.infantry},
    }


def _marked(names: list[str], flags: list[bool]) -> list[str]:
    """The names of the towns a per-town flag marks."""
    return [names[t] for t in range(len(names)) if flags[t]]


def state_from_json(data: Any, board_of: Callable[[str], Board]) -> PattonState:
    """Rebuild a state; anything that does not fit the board is a PositionError naming the field."""
    try:
        return _parse(data, board_of)
    except PositionError:
        raise
    except WarroomError as exc:
        raise PositionError(f"not a Patton position: {exc}") from None
    except KeyError as exc:
        raise PositionError(f"not a Patton position: the field {exc} is missing") from None
    except (TypeError, ValueError, AttributeError, IndexError) as exc:
        raise PositionError(f"not a Patton position: {type(exc).__name__}: {exc}") from None


def _side_index(value: Any, field: str) -> int:
    if value not in SIDES:
        raise PositionError(f"{field} must be one of {', '.join(SIDES)}, not {value!r}")
    return SIDES.index(value)


def _nat(value: Any, field: str, high: int = 10**6) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
        raise PositionError(f"{field} must be a whole number from 0 to {high}, not {value!r}")
    return value


def _pair(value: Any, field: str) -> list[int]:
    if not isinstance(value, list) or len(value) != 2:
        raise PositionError(f"{field} must be [armor, infantry]")
    return [_nat(value[0], field), _nat(value[1], field)]


def _parse(data: Any, board_of: Callable[[str], Board]) -> PattonState:
    """Read a position's fields in the order of the format, each checked against the board as it is read."""
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    b = board_of(data["scenario"])
    s = PattonState(b)
    _parse_turn(s, data)
    _parse_cards(s, data)
    s.mp = _nat(data["mp"], "mp")
    s.mp_total = _nat(data.get("mp_total", s.mp), "mp_total")
    _parse_towns(s, data)
    _parse_use(s, data)
    _parse_stacks(s, data)
    _parse_off_map(s, data)
    s.battle = _parse_battle(b, data.get("battle"))
    s.retreat = _parse_retreat(b, data.get("retreat"))
    _parse_tallies(s, data)
    _parse_result(s, data.get("result"))
    _check(s)
    return s


def _town(b: Board, name: Any, field: str) -> int:
    """The town a field names."""
    if name not in b.town_index:
        raise PositionError(f"{field}: unknown town {name!r}")
    return b.town_index[name]


def _parse_turn(s: PattonState, data: dict[str, Any]) -> None:
    """The options, the turn, the mover, the phase and who acts in it."""
    options = data.get("options") or {}
    s.advanced = bool(options.get("advanced_retreat", False))
    if options.get("turn_limit") is not None:
        s.turn_limit = _nat(options["turn_limit"], "options.turn_limit")
    s.turn = _nat(data["turn"], "turn")
    if s.turn < 1:
        raise PositionError("turn starts at 1")
    s.mover = _side_index(data["mover"], "mover")
    phase = data["phase"]
    if phase not in PHASE_KEYS:
        raise PositionError(f"phase {phase!r} is not one of {', '.join(PHASE_KEYS)}")
    s.phase = Phase(PHASE_KEYS.index(phase))
    s.actor = _side_index(data.get("actor", data["mover"]), "actor")


def _parse_cards(s: PattonState, data: dict[str, Any]) -> None:
    """Each side's cards turned up, and the deck's pool of what is left (no more of a value than it holds)."""
    b = s.board
    cards = data["cards"]
    s.cards = [[_nat(v, "cards", 12) for v in cards["Allied"]], [_nat(v, "cards", 12) for v in cards["Axis"]]]
    pool = list(b.card_counts)
    for side in (0, 1):
        for value in s.cards[side][: b.deal[side]]:
            pool[value] -= 1
            if pool[value] < 0:
                raise PositionError(f"cards: more {value}s turned up than the deck holds")
    s.pool = pool


def _parse_towns(s: PattonState, data: dict[str, Any]) -> None:
    """Each town's side and Units, with those joined or landed this turn (never more than it holds)."""
    for name, entry in data["towns"].items():
        t = _town(s.board, name, "towns")
        side = entry.get("side")
        s.side[t] = -1 if side is None else _side_index(side, f"towns.{name}.side")
        s.armor[t] = _nat(entry["armor"], f"towns.{name}.armor")
        s.inf[t] = _nat(entry["infantry"], f"towns.{name}.infantry")
        if (s.armor[t] + s.inf[t] > 0) != (s.side[t] >= 0):
            raise PositionError(f"towns.{name}: a town holds Units exactly when it has a side")
        s.joined_a[t], s.joined_i[t] = _pair(entry.get("joined", [0, 0]), f"towns.{name}.joined")
        s.frozen_a[t], s.frozen_i[t] = _pair(entry.get("landed", [0, 0]), f"towns.{name}.landed")
        if (
            s.joined_a[t] > s.armor[t]
            or s.joined_i[t] > s.inf[t]
            or s.frozen_a[t] > s.armor[t]
            or s.frozen_i[t] > s.inf[t]
        ):
            raise PositionError(f"towns.{name}: more joined or landed Units than the town holds")


def _parse_use(s: PattonState, data: dict[str, Any]) -> None:
    """The roads and landing areas used this turn, and how much."""
    b = s.board
    for a_name, b_name, used in data.get("road_use", []):
        key = (_town(b, a_name, "road_use"), _town(b, b_name, "road_use"))
        if key not in b.road_between:
            raise PositionError(f"road_use: no road {a_name}-{b_name}")
        s.seg[b.road_between[key]] = _nat(used, "road_use", 5)
        s.road_used_at |= (1 << key[0]) | (1 << key[1])
    for area, used in data.get("landing_use", {}).items():
        if area not in b.landing_index:
            raise PositionError(f"landing_use: unknown landing area {area!r}")
        s.land_used[b.landing_index[area]] = _nat(used, "landing_use", 10)


def _parse_stacks(s: PattonState, data: dict[str, Any]) -> None:
    """The attack stacks, each from a town by road or from the landing area that leads to its target."""
    b = s.board
    for st in data.get("stacks", []):
        target = _town(b, st["to"], "stacks.to")
        source = st["from"]
        if source in b.landing_index:
            src = b.n + b.landing_index[source]
            if b.landing_town[src - b.n] != target:
                raise PositionError(f"stacks: {source} does not lead to {st['to']}")
        else:
            src = _town(b, source, "stacks.from")
            if (target, src) not in b.road_between:
                raise PositionError(f"stacks: no road {source}-{st['to']}")
        s.stacks.append(
            Stack(
                target,
                src,
                _nat(st["armor"], "stacks.armor"),
                _nat(st["infantry"], "stacks.infantry"),
                _side_index(st["side"], "stacks.side"),
            )
        )


def _parse_off_map(s: PattonState, data: dict[str, Any]) -> None:
    """The Units off the map: offshore, being placed, and the reserves."""
    offshore = data.get("offshore", {"armor": 0, "infantry": 0})
    s.offboard = [_nat(offshore["armor"], "offshore.armor"), _nat(offshore["infantry"], "offshore.infantry")]
    placing = data.get("placing", {"Allied": [0, 0], "Axis": [0, 0]})
    s.placing = [_pair(placing["Allied"], "placing.Allied"), _pair(placing["Axis"], "placing.Axis")]
    reserves = data.get("reserves", {})
    entries = reserves.get("entries", {"Allied": 0, "Axis": 0})
    s.reserve_entries = [_nat(entries["Allied"], "reserves.entries"), _nat(entries["Axis"], "reserves.entries")]
    s.reserve_dice = [_nat(v, "reserves.dice", 6) for v in reserves.get("dice", [])]
    s.reserve_pending = _pair(reserves.get("pending", [0, 0]), "reserves.pending")


def _parse_battle(b: Board, bt: Any) -> Battle | None:
    """The battle being fought, with its dice (never more rolled than thrown), or None."""
    if bt is None:
        return None
    kind = BATTLE_KINDS.index(bt["kind"])
    battle = Battle(
        _town(b, bt["target"], "battle.target"),
        _side_index(bt["attacker"], "battle.attacker"),
        kind,
        _nat(bt.get("bonus", 0), "battle.bonus", 2),
        _town(b, bt["from"], "battle.from") if bt.get("from") is not None else -1,
    )
    battle.n = _nat(bt["attacker_dice"], "battle.attacker_dice", 5)
    battle.m = _nat(bt["defender_dice"], "battle.defender_dice", 5)
    battle.att_dice = [_nat(v, "battle.attacker_roll", 6) for v in bt.get("attacker_roll", [])]
    battle.def_dice = [_nat(v, "battle.defender_roll", 6) for v in bt.get("defender_roll", [])]
    battle.round = _nat(bt.get("round", 1), "battle.round")
    if len(battle.att_dice) > battle.n or len(battle.def_dice) > battle.m:
        raise PositionError("battle: more dice rolled than thrown")
    return battle


def _parse_retreat(b: Board, rt: Any) -> Retreat | None:
    """The retreat being allocated, with the fight it leads to, or None."""
    if rt is None:
        return None
    r = Retreat(
        _town(b, rt["town"], "retreat.town"),
        _side_index(rt["side"], "retreat.side"),
        _nat(rt["quota"], "retreat.quota", 5),
        bool(rt.get("forced", True)),
    )
    fight = rt.get("fight")
    if fight is not None:
        r.fight = Fight(
            _town(b, fight["to"], "retreat.fight.to"),
            _nat(fight["armor"], "retreat.fight"),
            _nat(fight["infantry"], "retreat.fight"),
        )
    return r


def _parse_tallies(s: PattonState, data: dict[str, Any]) -> None:
    """The game's running tallies: losses, reserves entered, the victory flags, defections, stacking."""
    b = s.board
    s.tie_asked = _nat(data.get("tie_asked", 0), "tie_asked", 1)
    lost = data.get("eliminated", {"Allied": [0, 0], "Axis": [0, 0]})
    s.eliminated = [_pair(lost["Allied"], "eliminated.Allied"), _pair(lost["Axis"], "eliminated.Axis")]
    entered = data.get("reserves_entered", {"Allied": [0, 0], "Axis": [0, 0]})
    s.entered = [_pair(entered["Allied"], "reserves_entered.Allied"), _pair(entered["Axis"], "reserves_entered.Axis")]
    s.relieved = bool(data.get("relieved", False))
    s.held = bool(data.get("held", False))
    for name in data.get("allied_end", []):
        s.allied_end[_town(b, name, "allied_end")] = True
    for name in data.get("defection_used", []):
        s.defection_used[_town(b, name, "defection_used")] = True
    s.defection_owed = _nat(data.get("defection_owed", 0), "defection_owed")
    s.stacking_queue = [_town(b, name, "stacking_queue") for name in data.get("stacking_queue", [])]


def _parse_result(s: PattonState, result: Any) -> None:
    """A finished game's result (and only a finished game's is read)."""
    if s.phase == OVER:
        if not isinstance(result, dict):
            raise PositionError("a finished game needs its result")
        s.winner = None if result.get("winner") is None else _side_index(result["winner"], "result.winner")
        s.reason = str(result.get("reason", ""))
        s.result_rule = str(result.get("rule", ""))


def _check(s: PattonState) -> None:
    """A phase needs what it works on: a battle to roll for, a retreat to allocate, a town over 10."""
    needs_battle = (DICE, CASUALTY, TIE, RETREATING)
    if s.phase in needs_battle and s.battle is None:
        raise PositionError(f"phase {PHASE_KEYS[s.phase]} needs a 'battle'")
    if s.phase == RETREATING and s.retreat is None:
        raise PositionError("phase retreat needs a 'retreat'")
    if s.phase == STACKING and not s.stacking_queue:
        raise PositionError("phase stacking needs a 'stacking_queue'")
    if s.phase == DEFECTION and s.defection_owed <= 0:
        raise PositionError("phase defection needs 'defection_owed'")
    if s.phase == RESERVE_PLACE and not sum(s.reserve_pending):
        raise PositionError("phase reserve_place needs reserves 'pending'")
    if s.phase in (RESERVE_ASK, RESERVE_DICE) and s.board.reserves[s.mover] is None:
        raise PositionError(f"the {SIDES[s.mover]} have no reserves in this scenario")
    if s.phase == CARD and len(s.cards[s.mover]) >= s.board.deal[s.mover]:
        raise PositionError("phase card, but the mover's pack is already used up")
    if s.battle is not None and s.battle.kind not in (NORMAL, RETREAT_BATTLE):
        raise PositionError("battle.kind")
    if s.phase == BATTLE_ORDER and not any(st.owner == s.mover for st in s.stacks):
        raise PositionError("phase battle_order needs the mover's attack stacks")
    for t in range(s.board.n):
        if s.armor[t] + s.inf[t] and s.side[t] < 0:
            raise PositionError(f"{s.board.names[t]}: Units without a side")
