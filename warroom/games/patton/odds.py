"""Exact battle odds for Patton (Patton: Battles, Casualties, Retreating).

A side's throw matters only through its total (who retreats) and the casualties it inflicts
(a function of which numbers repeat). Both come from the multiset of faces, so each side's
n dice are enumerated as multisets — at most C(10, 5) = 252 for five dice, each weighted by
its number of orderings — instead of the 6^n sequences. The two sides' throws are
independent, so the battle's 6^10 outcomes collapse into a product of two small tables:
(total, casualties) -> count of orderings. Everything is exact (integers over 6^(n+m)).

`PattonOdds` is the game's odds capability (warroom.engine.spec.OddsCapability): the calculator of
`warroom odds patton` and of the protocol's {"cmd": "odds", "game": "patton", ...}, the battles of
the position, and the odds of each choice, which the spec offers every front end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

from warroom.engine.errors import BadRequestError, WarroomError
from warroom.engine.fields import reject_unknown
from warroom.engine.spec import OddsField

from .board import SIDES, mix_text, parse_mix
from .combat import MAX_DICE, casualties_from, dice_for, losses


@cache
def throw_table(n: int) -> tuple[tuple[int, int, int], ...]:
    """(total, casualties inflicted, orderings) for every multiset of n dice; orderings sum to 6^n."""
    if n == 0:
        return ((0, 0, 1),)
    table: Counter[tuple[int, int]] = Counter()
    for faces in combinations_with_replacement(range(1, 7), n):
        orderings = factorial(n)
        for count in Counter(faces).values():
            orderings //= factorial(count)
        table[(sum(faces), casualties_from(faces))] += orderings
    return tuple((total, cas, weight) for (total, cas), weight in sorted(table.items()))


@cache
def _totals(n: int) -> dict[int, int]:
    out: Counter[int] = Counter()
    for total, _, weight in throw_table(n):
        out[total] += weight
    return dict(out)


@cache
def comparison(n: int, m: int) -> tuple[Fraction, Fraction, Fraction]:
    """Exact P(first total higher), P(tie), P(second higher) for n dice against m dice."""
    higher = tie = lower = 0
    for ta, wa in _totals(n).items():
        for tb, wb in _totals(m).items():
            if ta > tb:
                higher += wa * wb
            elif ta == tb:
                tie += wa * wb
            else:
                lower += wa * wb
    whole = 6 ** (n + m)
    return Fraction(higher, whole), Fraction(tie, whole), Fraction(lower, whole)


@cache
def round_odds(n: int, m: int) -> tuple[float, float, float]:
    """(attacker higher, tie, defender higher) as floats, for labels and the AI."""
    higher, tie, lower = comparison(n, m)
    return float(higher), float(tie), float(lower)


@cache
def casualty_distribution(n: int) -> dict[int, Fraction]:
    """Exact distribution of the casualties n dice inflict."""
    out: Counter[int] = Counter()
    for _, cas, weight in throw_table(n):
        out[cas] += weight
    whole = 6**n
    return {cas: Fraction(weight, whole) for cas, weight in sorted(out.items())}


@cache
def round_outcome(att_armor: int, att_inf: int, def_armor: int, def_inf: int, bonus: int = 0) -> dict[str, Fraction]:
    """Exact result of one round of a battle, casualties removed and the rules applied.

    attacker_wins: the defender must retreat (or has no fighting Units left);
    defender_wins: the attacker must retreat (or is wiped out); both_eliminated; tie: equal totals
    with both sides still there (either side may then retreat voluntarily, else a refight follows;
    a tie in which neither side has a die left ends with the attacker falling back when both
    stand: `stalemate` gives its share).
    """
    counts = _round_counts(att_armor, att_inf, def_armor, def_inf, bonus)
    n, m = dice_for(att_armor, att_inf), dice_for(def_armor, def_inf, bonus)
    whole = 6 ** (n + m)
    counts = {**counts, "tie": counts["tie"] + counts["stalemate"]}
    return {key: Fraction(counts[key], whole) for key in ("attacker_wins", "defender_wins", "tie", "both_eliminated")}


@cache
def stalemate(att_armor: int, att_inf: int, def_armor: int, def_inf: int, bonus: int = 0) -> Fraction:
    """P(the round ends in a tie neither side has a die left to refight), part of round_outcome's tie.

    Patton: Retreating — either side may still retreat from it; if both stand the attacker falls back
    (battle.tie_decision), so a defender who stands keeps the town.
    """
    n, m = dice_for(att_armor, att_inf), dice_for(def_armor, def_inf, bonus)
    return Fraction(_round_counts(att_armor, att_inf, def_armor, def_inf, bonus)["stalemate"], 6 ** (n + m))


@cache
def _round_counts(att_armor: int, att_inf: int, def_armor: int, def_inf: int, bonus: int = 0) -> dict[str, int]:
    """One round's outcomes as counts of the 6^(n+m) equally likely throws (round_outcome's keys and "stalemate")."""
    n, m = dice_for(att_armor, att_inf), dice_for(def_armor, def_inf, bonus)
    counts: Counter[str] = Counter()
    for ta, cas_on_def, wa in throw_table(n):
        la, li = losses(cas_on_def, def_armor, def_inf)
        defender_left = def_armor + def_inf - la - li
        defender_dice_left = dice_for(def_armor - la, def_inf - li, bonus)
        for td, cas_on_att, wd in throw_table(m):
            ka, ki = losses(cas_on_att, att_armor, att_inf)
            attacker_left = att_armor + att_inf - ka - ki
            w = wa * wd
            if (
                ta == td
                and attacker_left
                and defender_left
                and not defender_dice_left
                and not dice_for(att_armor - ka, att_inf - ki)
            ):
                counts["stalemate"] += w  # a tie neither side could refight (battle.no_refight)
                continue
            if attacker_left == 0 and defender_left == 0:
                counts["both_eliminated"] += w
            elif defender_left == 0:
                counts["attacker_wins"] += w
            elif attacker_left == 0:
                counts["defender_wins"] += w
            elif ta > td:
                counts["attacker_wins"] += w
            elif ta < td:
                counts["defender_wins"] += w
            else:
                counts["tie"] += w
    return {key: counts[key] for key in ("attacker_wins", "defender_wins", "tie", "both_eliminated", "stalemate")}


@cache
def attack_success(att_armor: int, att_inf: int, def_armor: int, def_inf: int, bonus: int = 0) -> float:
    """P(the attacker takes the town), counting a tie as refought with the same forces.

    An estimate for the AI (a refight after casualties changes the forces); exact per round. A tie
    no side can refight counts as held: the defender stands and the attacker falls back.
    """
    o = round_outcome(att_armor, att_inf, def_armor, def_inf, bonus)
    decided = (
        o["attacker_wins"]
        + o["defender_wins"]
        + o["both_eliminated"]
        + stalemate(att_armor, att_inf, def_armor, def_inf, bonus)
    )
    if decided == 0:
        return 0.0
    return float(o["attacker_wins"] / decided)


# -- odds of the seat's choices (the browser shows them before a battle is committed) ---------------
def action_odds(rules: Any, s: Any, action: str) -> dict[str, Any] | None:
    """Exact odds of the battle `action` starts, joins or refights, from the acting side's view; None for others.

    An attacking move or landing counts the Units already outside that town (one attack force,
    Patton: Battles); `battle T` fights with the stacks there now; `stand` refights the tie with the
    forces left; a retreat into an enemy town fights with the enemy's +2 dice (optional rule).
    The numbers are one round's: a tie is refought or ended by a voluntary retreat.
    """
    from .actions import BATTLE, LAND, MOVE, RETREAT, STAND
    from .battle import attacker_force, defender_force

    act = rules.table(s.board).parse(action)
    if act is None:
        return None
    kind = act.kind
    b = s.board
    if kind in (MOVE, RETREAT):
        x, y = b.road_ends[act.where >> 1]
        target = x if act.where & 1 else y
        actor = s.mover if kind == MOVE else s.actor
        if s.side[target] != 1 - actor:
            return None
        if kind == RETREAT:
            return choice_odds(
                act.armor,
                act.infantry,
                *fighting_defenders(s, target),
                2,
                True,
                "retreating into it (the enemy adds 2 dice)",
            )
        aa, ai = attackers_outside(s, target, actor)
        note = f"with the {mix_text(aa, ai)} already outside" if aa + ai else "if no more Units join the attack"
        return choice_odds(aa + act.armor, ai + act.infantry, *fighting_defenders(s, target), 0, True, note)
    if kind == LAND:
        town = b.landing_town[act.where]
        if s.side[town] != 1:
            return None
        aa, ai = attackers_outside(s, town, 0)
        return choice_odds(
            aa + act.armor, ai + act.infantry, *fighting_defenders(s, town), 0, True, "landers who lose are eliminated"
        )
    if kind == BATTLE:
        return choice_odds(*attackers_outside(s, act.where, s.mover), *fighting_defenders(s, act.where), 0, True, "")
    if kind == STAND and s.battle is not None:
        battle = s.battle
        return choice_odds(
            *attacker_force(s),
            *defender_force(s),
            battle.bonus,
            s.actor == battle.attacker,
            "refought with the Units left",
        )
    return None


def attackers_outside(s: Any, town: int, side: int) -> tuple[int, int]:
    """`side`'s Units stopped outside `town`, ready to attack it (one attack force)."""
    armor = infantry = 0
    for st in s.stacks:
        if st.target == town and st.owner == side:
            armor += st.armor
            infantry += st.infantry
    return armor, infantry


def fighting_defenders(s: Any, town: int) -> tuple[int, int]:
    """The town's Units that fight: not those that retreated into it from another battle."""
    return s.armor[town] - s.joined_a[town], s.inf[town] - s.joined_i[town]


def choice_odds(aa: int, ai: int, da: int, di: int, bonus: int, attacker_view: bool, note: str) -> dict[str, Any]:
    """One round of a battle between these forces as a choice's odds ("p", "fraction", "text", "dice", "outcome"),
    from the attacker's view or the defender's; `note` says what the forces assume."""
    o = round_outcome(aa, ai, da, di, bonus)
    n, m = dice_for(aa, ai), dice_for(da, di, bonus)
    win = o["attacker_wins"] if attacker_view else o["defender_wins"]
    lose = (o["defender_wins"] if attacker_view else o["attacker_wins"]) + o["both_eliminated"]
    mine, theirs = (n, m) if attacker_view else (m, n)
    dice = "die" if mine == 1 else "dice"
    dead_tie = stalemate(aa, ai, da, di, bonus)
    after = " (neither side could throw again: if both stand, the attacker falls back)" if dead_tie else ""
    text = (
        f"{mine} {dice} against {theirs}{f', {note}' if note else ''}: "
        f"the enemy retreats or is wiped out {float(win):.0%}, tie {float(o['tie']):.0%}{after}, "
        f"you fall back or are wiped out {float(lose):.0%} (first round)."
    )
    return {
        "p": float(win),
        "fraction": f"{win.numerator}/{win.denominator}",
        "text": text,
        "dice": [mine, theirs],
        "outcome": {"win": float(win), "tie": float(o["tie"]), "lose": float(lose)},
    }


def battle_odds(s: Any, side: str | None) -> list[dict[str, Any]]:
    """The battle whose dice are being thrown (or whose tie may be refought), then each attack set up.

    For every seat, the one a battle is fought against too (Patton: Battles): one round with the
    forces as they stand. "p", "fraction", "text", "dice", "outcome" are from `side`'s view (the
    attacker's when `side` is neither), as `action_odds` words a choice; "odds" and "exact" from
    the attacker's. A battle already decided this round (casualties, retreats) is left out: its
    dice are known.
    """
    from .battle import attacker_force, defender_force
    from .board import SIDES
    from .state import DICE, RETREAT_BATTLE, TIE

    viewer = SIDES.index(side) if side in SIDES else None
    out: list[dict[str, Any]] = []
    battle = s.battle
    current: tuple[int, int] | None = None
    if battle is not None:
        current = (battle.target, battle.attacker)
        if s.phase in (DICE, TIE):
            if s.phase == DICE:
                status, note = (
                    "fighting",
                    f"round {battle.round}, before the dice" if battle.round > 1 else "before the dice",
                )
            else:
                from .battle import no_refight

                status, note = (
                    "tie",
                    (
                        "neither side can throw a die: if both stand, the attacker falls back"
                        if no_refight(s)
                        else "if neither side retreats from the tie, refought with the Units left"
                    ),
                )
            if battle.kind == RETREAT_BATTLE:
                note += "; the retreating Units are eliminated if they lose"
            out.append(
                _battle_entry(
                    s,
                    battle.target,
                    battle.attacker,
                    attacker_force(s),
                    defender_force(s),
                    battle.bonus,
                    status,
                    note,
                    viewer,
                )
            )
    for town, attacker in sorted({(st.target, st.owner) for st in s.stacks}):
        if (town, attacker) == current or s.side[town] != 1 - attacker:
            continue
        landers = any(st.target == town and st.owner == attacker and st.source >= s.board.n for st in s.stacks)
        note = "set up, not yet fought" + ("; landers who lose are eliminated" if landers else "")
        out.append(
            _battle_entry(
                s,
                town,
                attacker,
                attackers_outside(s, town, attacker),
                fighting_defenders(s, town),
                0,
                "pending",
                note,
                viewer,
            )
        )
    return out


def _battle_entry(
    s: Any,
    town: int,
    attacker: int,
    att: tuple[int, int],
    dfn: tuple[int, int],
    bonus: int,
    status: str,
    note: str,
    viewer: int | None,
) -> dict[str, Any]:
    from .board import SIDES

    outcome = round_outcome(*att, *dfn, bonus)
    names = s.board.side_names
    n, m = dice_for(*att), dice_for(*dfn, bonus)
    entry = choice_odds(*att, *dfn, bonus, viewer is None or viewer == attacker, note)
    entry.update(
        {
            "town": s.board.names[town],
            "attacker": SIDES[attacker],
            "defender": SIDES[1 - attacker],
            "status": status,
            "mine": None if viewer is None else ("attacker" if viewer == attacker else "defender"),
            "forces": {
                "attacker": {"armor": att[0], "infantry": att[1]},
                "defender": {"armor": dfn[0], "infantry": dfn[1]},
            },
            "bonus": bonus,
            "attacker_dice": n,
            "defender_dice": m,
            "odds": {key: float(p) for key, p in outcome.items()},
            "exact": {key: f"{p.numerator}/{p.denominator}" for key, p in outcome.items()},
            "summary": (
                f"{names[attacker]} {n} {'die' if n == 1 else 'dice'} against {names[1 - attacker]} {m}: "
                f"the attacker wins {float(outcome['attacker_wins']):.0%}, tie {float(outcome['tie']):.0%}, "
                f"the defender holds {float(outcome['defender_wins']):.0%}, "
                f"both wiped out {float(outcome['both_eliminated']):.0%} (one round)."
            ),
        }
    )
    return entry


# -- the calculator: one request model for the command line, the protocol and the browser ---------
def parse_force(text: str | None, name: str) -> dict[str, int]:
    """A force as the command line writes it ("2A3I": 2 Armored, 3 Infantry; "3I" and "2A" too) as the
    protocol's {"armor": 2, "infantry": 3}, read by the game's one force reader (board.parse_mix); a
    WarroomError says how to write it."""
    mix = parse_mix(text, typed=True) if text else None
    if mix is None:
        raise WarroomError(f"--{name} must be a force like 2A3I (armor A, infantry I), not {text!r}")
    return {"armor": mix[0], "infantry": mix[1]}


def force_text(force: Mapping[str, int]) -> str:
    """{"armor": 2, "infantry": 3} as "2A3I", the way the command line writes it."""
    armor, infantry = force.get("armor", 0), force.get("infantry", 0)
    return (f"{armor}A" if armor else "") + (f"{infantry}I" if infantry or not armor else "")


def _force(request: Mapping[str, Any], key: str) -> tuple[int, int]:
    force = request.get(key)
    if not isinstance(force, dict):
        raise WarroomError(f'odds needs "{key}": {{"armor": A, "infantry": I}}')
    out = []
    for kind in ("armor", "infantry"):
        value = force.get(kind, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
            raise WarroomError(f"{key}.{kind} must be a whole number of Units from 0 to 99, not {value!r}")
        out.append(value)
    return out[0], out[1]


class PattonOdds:
    """Patton's odds for every front end (engine.spec.OddsCapability): the battle calculator (Patton:
    Battles, Casualties; the Optional Retreating Rule's +2 dice), the battles of the position, and
    the odds of each choice that starts, joins or refights a battle."""

    fields: tuple[OddsField, ...] = (
        OddsField(
            "attacker",
            "object",
            '{"armor": A, "infantry": I} (the command line\'s 2A3I is {"armor":2,"infantry":3})',
            required=True,
            cli="the attacking force, e.g. 2A3I (armor A, infantry I)",
        ),
        OddsField(
            "defender", "object", '{"armor": A, "infantry": I}', required=True, cli="the defending force, e.g. 1A2I"
        ),
        OddsField("retreat_battle", "boolean", "the Optional Retreating Rule's +2 dice to the defender"),
    )
    answer = (
        '{"ok":true,"attacker_dice","defender_dice","attacker_higher","defender_higher","tie","casualties_to_defender",'
        '"casualties_to_attacker","outcome","exact","max_dice"}'
    )
    position_answer = '{"ok":true,"battles":[{"town","attacker_side","attacker","defender",...}]}'

    def calculate(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """{"attacker": {"armor": A, "infantry": I}, "defender": {...}, "retreat_battle": bool} -> one
        battle's exact odds: probabilities as floats, "exact" the main ones as fractions "p/q"."""
        reject_unknown(request, [f.name for f in self.fields], "patton odds")
        for key in ("attacker", "defender"):
            force = request.get(key)
            extra = set(force) - {"armor", "infantry"} if isinstance(force, dict) else set()
            if extra:
                raise BadRequestError(
                    f'"{key}" takes "armor" and "infantry", not {", ".join(sorted(map(repr, extra)))}'
                )
        retreat_battle = request.get("retreat_battle", False)
        if not isinstance(retreat_battle, bool):
            raise BadRequestError(f'"retreat_battle" must be true or false, not {retreat_battle!r}')
        aa, ai = _force(request, "attacker")
        da, di = _force(request, "defender")
        return force_odds(aa, ai, da, di, 2 if retreat_battle else 0)

    def parse_cli(self, values: Mapping[str, str]) -> dict[str, Any]:
        retreat_battle = values.get("retreat_battle", "false").strip().lower() in ("true", "yes", "on", "1")
        return {
            "attacker": parse_force(values.get("attacker"), "attacker"),
            "defender": parse_force(values.get("defender"), "defender"),
            "retreat_battle": retreat_battle,
        }

    def describe(self, answer: Mapping[str, Any]) -> list[str]:
        attacker, defender = force_text(answer["attacker"]), force_text(answer["defender"])
        lines = [
            f"Patton battle: {attacker} attacks {defender}: {answer['attacker_dice']} dice against "
            f"{answer['defender_dice']}"
            f"{' (the Optional Retreating Rule: +2 dice to the defender)' if answer.get('retreat_battle') else ''}.",
            "Exact outcome of the throw: "
            + " · ".join(
                f"{key.replace('_', ' ')} {answer[key]:.2%}" for key in ("attacker_higher", "defender_higher", "tie")
            ),
        ]
        for side in ("defender", "attacker"):
            dist = answer[f"casualties_to_{side}"]
            lines.append(f"Casualties to the {side}: " + ", ".join(f"{n}: {float(p):.1%}" for n, p in dist.items()))
        return lines

    def position(self, ruleset: Any, state: Any) -> dict[str, Any]:
        """The battle in progress, or each battle the mover has set up."""
        return {"battles": position_odds(state)}

    def action_odds(self, ruleset: Any, state: Any, action: str) -> dict[str, Any] | None:
        return action_odds(ruleset, state, action)

    def battle_odds(self, ruleset: Any, state: Any, side: str | None) -> list[dict[str, Any]]:
        return battle_odds(state, side)


def protocol_odds(request: dict[str, Any], match: Any = None) -> dict[str, Any]:
    """The protocol's answer, {"ok": true, ...}, without a protocol session (scripts, tests): the calculator
    for a request with "attacker", else with the current `match` the battles of its position."""
    if "attacker" not in request and match is not None:
        unknown = set(request) - {"cmd", "id"}
        if unknown:
            raise BadRequestError(
                f"odds of the current game take no fields (got {', '.join(sorted(map(repr, unknown)))}); "
                'name the game and give "attacker" and "defender" for a battle of your own'
            )
        return {"ok": True, **PattonOdds().position(match.ruleset, match.state)}
    return {"ok": True, **PattonOdds().calculate(request)}


def position_odds(s: Any) -> list[dict[str, Any]]:
    """Odds of the battle in progress, or of each battle the mover has set up."""
    b = s.board
    battle = s.battle
    if battle is not None:
        targets = [(battle.target, battle.attacker, battle.bonus)]
    else:
        targets = [(t, s.mover, 0) for t in sorted({st.target for st in s.stacks if st.owner == s.mover})]
    out = []
    for town, side, bonus in targets:
        aa, ai = attackers_outside(s, town, side)
        da, di = fighting_defenders(s, town)
        entry = {
            "town": b.names[town],
            "attacker_side": SIDES[side],
            "attacker": {"armor": aa, "infantry": ai},
            "defender": {"armor": da, "infantry": di},
        }
        entry.update(force_odds(aa, ai, da, di, bonus))
        out.append(entry)
    return out


def force_odds(aa: int, ai: int, da: int, di: int, bonus: int = 0) -> dict[str, Any]:
    """The calculator's answer for one battle between these forces."""
    n, m = dice_for(aa, ai), dice_for(da, di, bonus)
    higher, tie, lower = comparison(n, m)
    on_defender = casualty_distribution(n)
    on_attacker = casualty_distribution(m)
    outcome = round_outcome(min(aa, 99), min(ai, 99), min(da, 99), min(di, 99), bonus)
    return {
        "attacker_dice": n,
        "defender_dice": m,
        "attacker_higher": float(higher),
        "defender_higher": float(lower),
        "tie": float(tie),
        "casualties_to_defender": {str(k): float(p) for k, p in on_defender.items()},
        "casualties_to_attacker": {str(k): float(p) for k, p in on_attacker.items()},
        "outcome": {key: float(p) for key, p in outcome.items()},
        "exact": {"attacker_higher": str(higher), "defender_higher": str(lower), "tie": str(tie)},
        "max_dice": MAX_DICE,
    }
