"""Exact odds for Dragoon's single-die rolls (rulebook: Resolving Unit Attacks, FFI).

One calculation serves every front end: `attack_odds` gives an attack's chances as fractions,
`action_odds` the menus' per-action entry, and `DragoonOdds` is the game's odds capability
(warroom.engine.spec.OddsCapability: the calculator of `warroom odds dragoon` and of the protocol's
`{"cmd":"odds"}`, the attacks legal now), which the spec offers every front end.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from warroom.engine.errors import WarroomError
from warroom.engine.fields import bool_field, int_field, reject_unknown
from warroom.engine.spec import OddsField

from .actions import ATTACK, INVADE, REROLL_ID
from .advance import NEVER_ENTERED, NOT_BEFORE_198, advance_restriction
from .state import ATTACK_REROLL, BEYOND, BOT_REROLL, OPPOSED

if TYPE_CHECKING:
    from .rules import DragoonRules
    from .state import DragoonState


def advance_fraction(drm: int, ffi: bool, advance_on: int = 3) -> Fraction:
    """P(modified d6 >= advance_on), with one FFI re-roll (same DRM) after a failure."""
    success = Fraction(sum(1 for face in range(1, 7) if face + drm >= advance_on), 6)
    if ffi:
        success = success + (1 - success) * success
    return success


def advance_probability(drm: int, ffi: bool, advance_on: int = 3) -> float:
    return float(advance_fraction(drm, ffi, advance_on))


def fraction_text(p: Fraction) -> str:
    """A probability as "p/q", as players read it off the charts."""
    return f"{p.numerator}/{p.denominator}"


def attack_odds(rules: DragoonRules, s: DragoonState, action: str) -> dict[str, Any] | None:
    """An attack action's odds: {"action", "opposed", "drm", "ffi", "advance", "stall", "takes", "win"}.

    "advance" (the chance the roll succeeds) and "stall" are Fractions; "takes" says whether a
    success takes the location and "win" what a success does, in words (`win_effect`). None for
    an id that is not an attack. Only the top unit of a stack is attacked (11th PzD
    Special Rules); an unopposed attack always advances, and only a roll of `stall_on` stalls it,
    which the unit's FFI may re-roll (Resolving Unit Attacks; FFI).
    """
    act = rules.action_of(action)
    if act is None or act.kind != ATTACK:
        return None
    i, air = rules.unit_of(act), act.air
    b = rules.board
    target = rules.target_of(s, i)
    defender = rules.top_unit(s, target)
    ffi = bool(s.ffi[i])
    if defender < 0:
        drm, advance = 0, Fraction(1)
        stall = 1 - advance_fraction(0, ffi, b.stall_on + 1)
    else:
        drm = rules.attack_drm(s, target, defender, air)
        advance, stall = advance_fraction(drm, ffi, b.advance_on), Fraction(0)
    takes, win = win_effect(rules, s, i)
    return {
        "action": action,
        "opposed": defender >= 0,
        "drm": drm,
        "ffi": ffi,
        "advance": advance,
        "stall": stall,
        "takes": takes,
        "win": win,
    }


def win_effect(rules: DragoonRules, s: DragoonState, i: int) -> tuple[bool, str]:
    """Whether a won attack by Allied unit i takes its target, and what the win does, in words.

    A win advances only when the location is left empty and may be entered: never Montelimar,
    not Avignon before the 198th ID has entered it (Allied Advance/German Retreat Restrictions),
    and not a location the 11th PzD still holds (it neither retreats nor is eliminated: 11th PzD
    Special Rules). The odds and the menus say so instead of "to advance" (issue 12, item 21).
    """
    b = rules.board
    target = rules.target_of(s, i)
    defender = rules.top_unit(s, target)
    if defender < 0:
        return True, f"advances into {b.locations[target].name}"
    name = b.german[defender].name
    if defender == b.panzer:
        effect = (
            f"flips the {name} from desperate to normal status; it does not retreat"
            if s.desperate[defender]
            else f"changes nothing: the {name} never retreats and is not in desperate status"
        )
    else:
        from .attacks import retreat_destination

        dest, _ = retreat_destination(rules, s, defender, target)
        if dest >= 0:
            effect = f"retreats the {name} to {b.locations[dest].name}"
        elif dest == BEYOND:
            effect = f"drives the {name} off the map to {b.retreat_beyond[defender]}"
        else:
            effect = f"eliminates the {name} (+1 VP)"
    place = b.locations[target].name
    barred = advance_restriction(rules, s, i, target)
    if barred == NEVER_ENTERED:
        return False, f"cannot take {place} (Allied units never enter it); a win {effect}"
    if any(g != defender for g in rules.germans_at(s, target)):
        return False, f"cannot take {place} while the rest of the stack holds it; a win {effect}"
    if defender == b.panzer:
        return False, f"cannot take {place}: a win {effect}"
    if barred == NOT_BEFORE_198:
        return False, f"cannot take {place} before the 198th ID has entered it; a win {effect}"
    return True, f"a win {effect} and advances into {place}"


def legal_attack_odds(rules: DragoonRules, s: DragoonState) -> list[dict[str, Any]]:
    """`attack_odds` of every attack legal now, in the order the rules list them."""
    return [odds for action in rules.legal_actions(s) if (odds := attack_odds(rules, s, action)) is not None]


def _entry(p: Fraction, text: str) -> dict[str, Any]:
    return {"p": float(p), "fraction": fraction_text(p), "text": text}


def action_odds(rules: DragoonRules, s: DragoonState, action: str) -> dict[str, Any] | None:
    """{"p", "fraction", "text"} for an action that involves a die (attacks, invasions, FFI re-rolls); else None."""
    b = rules.board
    no_stall_on = b.stall_on + 1
    if action == REROLL_ID:
        if s.phase == ATTACK_REROLL and s.attack is not None:
            mode, drm = s.attack.mode, s.attack.drm
            if mode == OPPOSED:
                p = advance_fraction(drm, False, b.advance_on)
                takes, win = win_effect(rules, s, s.attack.unit)
                if takes:
                    return _entry(p, f"{fraction_text(p)} that the re-roll advances (needs {b.advance_on - drm}+)")
                return _entry(
                    p, f"{fraction_text(p)} that the re-roll wins (needs {b.advance_on - drm}+); the attack {win}"
                )
            p = advance_fraction(0, False, no_stall_on)
            return _entry(p, f"{fraction_text(p)} that the re-roll is not a {b.stall_on} (no stall)")
        if s.phase == BOT_REROLL:
            p = 1 - advance_fraction(0, False, b.advance_on)
            return _entry(p, f"{fraction_text(p)} that the German re-roll fails (it needs {b.advance_on}+)")
        return None
    act = rules.action_of(action)
    if act is None:
        return None
    if act.kind == INVADE:
        p = advance_fraction(0, False, no_stall_on)
        return _entry(p, f"{fraction_text(p)} to land without stalling (a {b.stall_on} stalls)")
    odds = attack_odds(rules, s, action)
    if odds is None:
        return None
    ffi = odds["ffi"]
    if not odds["opposed"]:
        p = 1 - odds["stall"]
        return _entry(p, f"{fraction_text(p)} to advance without stalling{' (FFI re-roll)' if ffi else ''}")
    p, drm = odds["advance"], odds["drm"]
    roll = f"DRM {drm:+d}, needs {b.advance_on - drm}+ on the die{' (with the FFI re-roll)' if ffi else ''}"
    if odds["takes"]:
        return _entry(p, f"{fraction_text(p)} to advance: {roll}")
    return _entry(p, f"{fraction_text(p)} to win: {roll}; the attack {odds['win']}")


SURVEY_DRMS = range(-3, 3)
"""The DRMs an attack can have (fortress port -1, desperate defense -1 or -2, Air support +1): the
command line's table when no --drm is given."""

TRUE_WORDS = frozenset({"true", "yes", "on", "1"})


class DragoonOdds:
    """Dragoon's odds for every front end (engine.spec.OddsCapability): the calculator (Resolving Unit
    Attacks; French Forces of the Interior), the attacks legal now, and the menu's per-action odds."""

    fields: tuple[OddsField, ...] = (
        OddsField("drm", "integer", "the attack's total die roll modifier", required=True),
        OddsField("ffi", "boolean", "the unit has an FFI marker: one re-roll after a failure"),
    )
    answer = '{"ok":true,"advance","fraction","needs"}'
    position_answer = (
        '{"ok":true,"attacks":[{"action","opposed","drm","ffi","advance","fraction","stall","takes","win"}]}'
    )

    def calculate(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """{"drm": D, "ffi": bool} -> the chance to advance on `advance_on`+ after the DRM."""
        from .board import load_board

        reject_unknown(request, [f.name for f in self.fields], "dragoon odds")
        drm = int_field(request, "drm", required=True)
        assert drm is not None
        advance_on = load_board().advance_on
        p = advance_fraction(drm, bool_field(request, "ffi"), advance_on)
        return {"advance": float(p), "fraction": fraction_text(p), "needs": advance_on - drm}

    def parse_cli(self, values: Mapping[str, str]) -> dict[str, Any] | list[dict[str, Any]]:
        ffi = values.get("ffi", "false").strip().lower() in TRUE_WORDS
        text = values.get("drm")
        if text is None:  # no DRM: every DRM an attack can have, with and without the FFI re-roll
            return [{"drm": drm, "ffi": with_ffi} for drm in SURVEY_DRMS for with_ffi in (False, True)]
        try:
            return {"drm": int(text), "ffi": ffi}
        except ValueError:
            raise WarroomError(f"drm must be a whole number (the attack's total DRM, e.g. -1), not {text!r}") from None

    def describe(self, answer: Mapping[str, Any]) -> list[str]:
        if "survey" in answer:
            return self._table(answer["survey"])
        drm, ffi = answer["drm"], answer["ffi"]
        p = Fraction(answer["fraction"])
        return [
            f"Dragoon attack, DRM {drm:+d}{' with an FFI re-roll' if ffi else ''}: {needs_text(answer['needs'])}.",
            f"Advance: {fraction_text(p)} = {float(p):.2%}   No advance: {fraction_text(1 - p)} = {float(1 - p):.2%}",
        ]

    @staticmethod
    def _table(rows: list[Mapping[str, Any]]) -> list[str]:
        from .board import load_board

        chances: dict[int, dict[bool, Fraction]] = {}
        needs: dict[int, int] = {}
        for row in rows:
            chances.setdefault(row["drm"], {})[row["ffi"]] = Fraction(row["fraction"])
            needs[row["drm"]] = row["needs"]
        lines = [
            f"Dragoon attacks: advance on {load_board().advance_on}+ after modifiers (exact)",
            f"{'DRM':>4}  {'needs on the die':<22}  {'advance':>14}  {'with FFI re-roll':>16}",
        ]
        for drm, by_ffi in chances.items():
            plain, with_ffi = by_ffi.get(False), by_ffi.get(True)
            cells = [f"{fraction_text(p)} = {float(p):.1%}" if p is not None else "" for p in (plain, with_ffi)]
            lines.append(f"{drm:>+4d}  {needs_text(needs[drm]):<22}  {cells[0]:>14}  {cells[1]:>16}")
        lines.append("DRMs: fortress port -1, desperate defense -1 (11th PzD -2), Air support +1.")
        return lines

    def position(self, ruleset: Any, state: Any) -> dict[str, Any]:
        """Every attack legal now, with its DRM, whether the unit's FFI gives a re-roll, and its odds."""
        attacks = [
            {
                "action": odds["action"],
                "opposed": odds["opposed"],
                "drm": odds["drm"],
                "ffi": odds["ffi"],
                "advance": float(odds["advance"]),
                "fraction": fraction_text(odds["advance"]),
                "stall": float(odds["stall"]),
                "takes": odds["takes"],
                "win": odds["win"],
            }
            for odds in legal_attack_odds(ruleset, state)
        ]
        return {"attacks": attacks}

    def action_odds(self, ruleset: Any, state: Any, action: str) -> dict[str, Any] | None:
        return action_odds(ruleset, state, action)

    def battle_odds(self, ruleset: Any, state: Any, side: str | None) -> list[dict[str, Any]]:
        return []  # one die decides each attack at once: no battle stands set up or half fought


def needs_text(roll: int) -> str:
    """What the die must show, in words ("needs 4+ on the die")."""
    if roll <= 1:
        return "any roll advances"
    if roll > 6:
        return "no roll can advance"
    return f"needs {roll}+ on the die"
