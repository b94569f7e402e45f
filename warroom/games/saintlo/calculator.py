"""Saint-Lo's odds for every front end (the spec's OddsCapability): the calculator of a battle given by its
dice (6.2, the full ties re-rolled), and the odds of each attack legal in a position, with the artillery
that could still support it (7.3) and the Battle Reports in play (9) counted in.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import comb
from typing import TYPE_CHECKING, Any

from warroom.engine.errors import BadRequestError
from warroom.engine.fields import reject_unknown
from warroom.engine.spec import OddsField

from . import attack as attacks
from . import card_cases
from .actions import ATTACK, FIRE, Action
from .effects import stat
from .names import target_name, unit_name
from .seats import army_of
from .state import Attack, Phase
from .tables import ATTACK_STAT

if TYPE_CHECKING:
    from .rules import SaintLoRules
    from .state import SaintLoState
    from .tables import Tables

MAX_DICE = 60
"""The calculator's bound on either side's dice (far beyond any attack the counters and cards allow)."""


FIELDS: tuple[OddsField, ...] = (
    OddsField(
        "attack_dice",
        "integer",
        "the attacker's dice: its attack, plus each supporting artillery's (6.2, 7.3)",
        required=True,
    ),
    OddsField(
        "defense_dice",
        "integer",
        "the defender's dice: the unit's defence or the Command Post's value (6.2, 2.4)",
        required=True,
    ),
    OddsField(
        "card_defense",
        "integer",
        "the most defence dice the defender's Battle Reports may still add (9), e.g. 2 for Dug In: each case given",
    ),
)


def _dice(request: Mapping[str, Any], name: str, least: int) -> int:
    value = request.get(name)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= MAX_DICE:
        raise BadRequestError(f'field "{name}" is a whole number of dice from {least} to {MAX_DICE}, not {value!r}')
    return value


@cache
def _binomial(n: int, faces: int) -> tuple[Fraction, ...]:
    """P(k of n dice show the highest of `faces` equally likely faces), k = 0..n."""
    p = Fraction(1, faces)
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


@cache
def _verdict(attack: int, defense: int, face: int) -> tuple[Fraction, Fraction]:
    """(P(destroyed), P(survives)) of one throw when the dice left all show `face` or less.

    6.2 compares the throws sorted highest first, pair by pair, and a side that runs out of dice loses to
    more dice: so the first face, from the highest down, that the two throws show a different number of
    times decides, for the side showing it more often. Equal counts of every face are a full tie (re-roll)."""
    if face == 1:
        return (Fraction(int(attack > defense)), Fraction(int(attack < defense)))
    win = lose = Fraction(0)
    pa, pd = _binomial(attack, face), _binomial(defense, face)
    for i, p in enumerate(pa):
        below = sum(pd[:i], Fraction(0))
        above = sum(pd[i + 1 :], Fraction(0))
        win += p * below
        lose += p * above
        if i <= defense:
            w, lo = _verdict(attack - i, defense - i, face - 1)
            win += p * pd[i] * w
            lose += p * pd[i] * lo
    return win, lose


def win_fraction(attack_dice: int, defense_dice: int) -> Fraction:
    """The exact chance that `attack_dice` destroy a unit defending with `defense_dice` (6.2), full ties
    re-rolled: the same number as odds.win_fraction (tested), in O(6 n^3) instead of every pair of throws."""
    if attack_dice < 1:
        return Fraction(0)
    if defense_dice < 1:
        return Fraction(1)
    win, lose = _verdict(attack_dice, defense_dice, 6)
    return win / (win + lose)


def battle(attack_dice: int, defense_dice: int) -> dict[str, Any]:
    """The exact chance that the attacker destroys the defender (6.2, full ties re-rolled)."""
    p = win_fraction(attack_dice, defense_dice)
    return {
        "destroyed": float(p),
        "fraction": f"{p.numerator}/{p.denominator}",
        "text": f"{_dice_words(attack_dice)} against {defense_dice}: destroyed {float(p):.1%}",
    }


def _dice_words(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def card_odds(t: Tables, s: SaintLoState, a: Attack) -> dict[str, Any]:
    """The attack's chance over the Battle Reports the defending army may still play (card_cases: from its
    hand size, deck and discard pile, never its hand): "cases" (the none case first), "low", "high",
    "assumes" and "range" (the words: the range and the cases that make it, or the one number and why)."""
    army = 1 - t.unit_army[a.attacker]
    found = card_cases.cases(t, s, a)
    name, held = card_cases.defender_name(t, a), card_cases.hand_size(s, army)
    listed: list[dict[str, Any]] = [
        {
            "if": f"if the {name} plays {card_cases.play_words(t, army, c.plays, lambda u: unit_name(t, s, u))}",
            "p": float(c.destroyed),
            "fraction": str(c.destroyed),
            "attack_dice": c.attack_dice,
            "defense_dice": c.defense_dice,
        }
        for c in found
    ]
    low, high = min(c.destroyed for c in found), max(c.destroyed for c in found)
    if held == 0:
        assumes = f"the {name} holds no Battle Report (9)"
    elif len(found) == 1:
        assumes = f"none of the Battle Reports the {name} may hold ({held} in hand) changes these dice (9)"
    else:
        assumes = (
            f"the {name} holds {held} Battle Report{'s' if held > 1 else ''}, any of its deck's not yet discarded, "
            "and may play them once the attack is declared (9); your own replies are not counted"
        )
    if len(found) == 1:
        words = f"destroyed {float(high):.1%} ({assumes})"
    else:  # the none case, each card alone, and the worst combination
        shown = [c for c, case in zip(listed, found, strict=True) if len(case.plays) <= 1]
        worst = min(listed, key=lambda c: c["p"])
        if worst not in shown:
            shown.append(worst)
        each = "; ".join(f"{c['p']:.1%} {c['if']}" for c in shown)
        words = f"destroyed {float(low) * 100:.1f}-{float(high):.1%} ({each})"
    return {"cases": listed, "low": float(low), "high": float(high), "assumes": assumes, "range": words}


class SaintLoOdds:
    """The OddsCapability of warroom.engine.spec for Saint-Lo."""

    answer = '{"ok":true,"destroyed","fraction","text"}'
    position_answer = (
        '{"ok":true,"attacks":[{"action","attack_dice","defense_dice","destroyed","support",'
        '"supported_dice","supported"}],"battle"}'
    )

    fields: tuple[OddsField, ...] = FIELDS

    def calculate(self, request: Mapping[str, Any]) -> dict[str, Any]:
        reject_unknown(request, [f.name for f in self.fields], "saintlo odds")
        attack, defense = _dice(request, "attack_dice", 0), _dice(request, "defense_dice", 0)
        found = battle(attack, defense)
        if request.get("card_defense") is None:
            return found
        extra = _dice(request, "card_defense", 0)
        cases = [(k, win_fraction(attack, defense + k)) for k in range(extra + 1)]
        each = "; ".join(
            f"{float(p):.1%} if {'no Battle Report adds to the defence' if not k else f'they add {_dice_words(k)}'}"
            for k, p in cases
        )
        low, high = cases[-1][1], cases[0][1]
        words = f"{_dice_words(attack)} against {defense}: destroyed {float(low) * 100:.1f}-{float(high):.1%} ({each})"
        return {
            **found,
            "cases": [{"if": f"{k} more defence dice", "p": float(p), "fraction": str(p)} for k, p in cases],
            "low": float(low),
            "high": float(high),
            "assumes": "the defender may still play Battle Reports adding up to "
            f"{_dice_words(extra)} to its defence once the attack is declared (9)",
            "text": words if extra else found["text"],
        }

    def parse_cli(self, values: Mapping[str, str]) -> dict[str, Any]:
        out = {"attack_dice": values.get("attack_dice"), "defense_dice": values.get("defense_dice")}
        return out | ({"card_defense": values["card_defense"]} if values.get("card_defense") is not None else {})

    def describe(self, answer: Mapping[str, Any]) -> list[str]:
        if "survey" in answer:
            return ["Saint-Lo attacks", *(str(a["text"]) for a in answer["survey"])]
        return ["Saint-Lo attack (6.2)", str(answer["text"])]

    def position(self, ruleset: Any, state: Any) -> dict[str, Any]:
        legal = ruleset.legal_actions(state)
        found = [self._attack(ruleset, state, a) for a in legal if a.startswith(ATTACK + " ")]
        return {"attacks": found, "battle": self._pending(ruleset, state)}

    def action_odds(self, ruleset: Any, state: Any, action: str) -> dict[str, Any] | None:
        if action == FIRE and state.attack is not None and action in ruleset.legal_actions(state):
            pending = self._pending(ruleset, state)
            assert pending is not None
            return {
                "p": pending["destroyed"],
                "fraction": pending["fraction"],
                **{key: pending[key] for key in ("low", "high", "assumes")},
                "cases": [{"if": c["if"], "p": c["p"], "fraction": c["fraction"]} for c in pending["cases"]],
                "text": pending["text"],
            }
        if not action.startswith(ATTACK + " ") or action not in ruleset.legal_actions(state):
            return None
        found = self._attack(ruleset, state, action)
        text = f"{_dice_words(found['attack_dice'])} against {found['defense_dice']}: {found['range']}"
        if found["support"]:
            text += f"; with {len(found['support'])} artillery in support (7.3): {found['supported_range']}"
        return {
            "p": found["destroyed"],
            "fraction": found["fraction"],
            "low": found["low"],
            "high": found["high"],
            "cases": [{"if": c["if"], "p": c["p"], "fraction": c["fraction"]} for c in found["cases"]],
            "assumes": found["assumes"],
            "text": text,
        }

    def battle_odds(self, ruleset: Any, state: Any, side: str | None) -> list[dict[str, Any]]:
        pending = self._pending(ruleset, state)
        return [pending] if pending is not None else []

    # -- helpers ------------------------------------------------------------------------------------
    def _attack(self, rules: SaintLoRules, s: SaintLoState, action: str) -> dict[str, Any]:
        """One legal attack: its dice now (cards in play counted), and with every artillery unit that could
        still be called to it (7.3), within what the army can pay (1 Supply each, after the attacker's own)."""
        t = rules.t
        act = Action.from_id(action)
        u, h = t.unit_index[act.subject], t.hex_of[act.where]
        a = attacks.target_in(t, s, u, h)
        dice, defense = attacks.attack_dice(t, s, a), attacks.defense_dice(t, s, a)
        found = {"action": action, "attack_dice": dice, "defense_dice": defense, **battle(dice, defense)}
        army = army_of(s, s.seat)
        budget = s.supplies[army] - (0 if (s.current == u and s.paid) else 1)
        support = sorted(attacks.supporters(t, s, a), key=lambda x: -stat(t, s, x, ATTACK_STAT))[: max(budget, 0)]
        extra = sum(stat(t, s, x, ATTACK_STAT) for x in support)
        found["support"] = [t.unit_ids[x] for x in support]
        found["supported_dice"] = dice + extra
        found["supported"] = float(win_fraction(dice + extra, defense)) if dice else 0.0
        found.update(card_odds(t, s, a))  # the defender's Battle Reports (9), without support
        if support:
            backed = card_odds(t, s, a._replace(supporters=tuple(support)))
            found["supported_low"], found["supported_range"] = backed["low"], backed["range"]
        return found

    def _pending(self, rules: SaintLoRules, s: SaintLoState) -> dict[str, Any] | None:
        """The attack declared and not yet decided (support being called, the dice about to be thrown)."""
        a = s.attack
        if a is None or s.phase not in (
            Phase.SUPPORT,
            Phase.SUPPORT_REPLY,
            Phase.WINDOW,
            Phase.ATTACK_ROLL,
            Phase.DEFENSE_ROLL,
        ):
            return None
        t = rules.t
        dice, defense = attacks.attack_dice(t, s, a), attacks.defense_dice(t, s, a)
        target = f"Command Post {a.target}" if a.kind else t.unit_ids[a.target]
        out = {
            "attacker": t.unit_ids[a.attacker],  # ids, for programs; the text names them as players do
            "target": target,
            "attack_dice": dice,
            "defense_dice": defense,
            **battle(dice, defense),
        }
        if s.phase in (Phase.SUPPORT, Phase.SUPPORT_REPLY, Phase.WINDOW):  # the defender may still play (9)
            out.update(card_odds(t, s, a))
            words = f"{_dice_words(dice)} against {defense}: {out['range']}"
        else:  # the dice are being thrown: no window is left (reports.py)
            p = Fraction(str(out["fraction"]))
            out.update(low=float(p), high=float(p), cases=[], assumes="no Battle Report can be played now")
            words = str(out["text"])
        out["text"] = f"{unit_name(t, s, a.attacker)} against {target_name(t, s, a)}: {words}"
        return out
