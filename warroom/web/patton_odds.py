"""Patton: the exact odds of the battle being fought and of every attack set up, for both seats.

`action_odds` (warroom.games.patton.odds) answers for the acting seat's own choices; a battle is
also fought *against* the other seat, which must see the same odds before it is fought
(Patton: Battles). This reads the position only, by the engine's own helpers, so the numbers are
the ones `action_odds` and the battle's event show: one round, exact, ties refought.
"""

from __future__ import annotations

from typing import Any

from warroom.games.patton.battle import attacker_force, defender_force
from warroom.games.patton.board import SIDES
from warroom.games.patton.combat import dice_for
from warroom.games.patton.odds import attackers_outside, fighting_defenders, round_outcome
from warroom.games.patton.state import DICE, RETREAT_BATTLE, TIE, PattonState

FIGHTING, TIE_REFIGHT, PENDING = "fighting", "tie", "pending"


def battle_odds(s: PattonState, side: str | None) -> list[dict[str, Any]]:
    """The battle whose dice are being thrown (or whose tie may be refought), then each attack set up.

    Every entry is for one round with the forces as they stand: "outcome"/"p"/"text" from `side`'s
    view (the attacker's when `side` is neither), "exact" and "odds" from the attacker's, with the
    towns, sides and forces. A battle already decided this round (casualties, retreats) is left
    out: its dice are known.
    """
    viewer = SIDES.index(side) if side in SIDES else None
    out: list[dict[str, Any]] = []
    battle = s.battle
    current: tuple[int, int] | None = None
    if battle is not None:
        current = (battle.target, battle.attacker)
        if s.phase in (DICE, TIE):
            aa, ai = attacker_force(s)
            da, di = defender_force(s)
            if s.phase == DICE:
                status, note = FIGHTING, f"round {battle.round}, before the dice" if battle.round > 1 else "before the dice"
            else:
                status, note = TIE_REFIGHT, "if neither side retreats from the tie, refought with the Units left"
            if battle.kind == RETREAT_BATTLE:
                note += "; the retreating Units are eliminated if they lose"
            out.append(_entry(s, battle.target, battle.attacker, (aa, ai), (da, di), battle.bonus, status, note, viewer))
    board = s.board
    attacks = sorted({(st[0], st[4]) for st in s.stacks})
    for town, attacker in attacks:
        if (town, attacker) == current or s.side[town] != 1 - attacker:
            continue
        landers = any(st[0] == town and st[4] == attacker and st[1] >= board.n for st in s.stacks)
        note = "set up, not yet fought" + ("; landers who lose are eliminated" if landers else "")
        out.append(_entry(s, town, attacker, attackers_outside(s, town, attacker), fighting_defenders(s, town), 0, PENDING, note, viewer))
    return out


def _entry(s: PattonState, town: int, attacker: int, att: tuple[int, int], dfn: tuple[int, int], bonus: int,
           status: str, note: str, viewer: int | None) -> dict[str, Any]:
    outcome = round_outcome(*att, *dfn, bonus)
    names = s.board.side_names
    n, m = dice_for(*att), dice_for(*dfn, bonus)
    attacker_view = viewer is None or viewer == attacker
    win = outcome["attacker_wins"] if attacker_view else outcome["defender_wins"]
    lose = (outcome["defender_wins"] if attacker_view else outcome["attacker_wins"]) + outcome["both_eliminated"]
    mine, theirs = (n, m) if attacker_view else (m, n)
    entry: dict[str, Any] = {
        # the seat's own side of it, as action_odds words a choice: win / tie / lose (lose counts both wiped out)
        "p": float(win),
        "fraction": f"{win.numerator}/{win.denominator}",
        "outcome": {"win": float(win), "tie": float(outcome["tie"]), "lose": float(lose)},
        "dice": [mine, theirs],
        "text": (f"{mine} {'die' if mine == 1 else 'dice'} against {theirs}, {note}: the enemy retreats or is wiped out {float(win):.0%}, "
                 f"tie {float(outcome['tie']):.0%}, you fall back or are wiped out {float(lose):.0%} (first round)."),
    }
    entry.update({
        "town": s.board.names[town],
        "attacker": SIDES[attacker],
        "defender": SIDES[1 - attacker],
        "status": status,
        "mine": None if viewer is None else ("attacker" if viewer == attacker else "defender"),
        "forces": {"attacker": {"armor": att[0], "infantry": att[1]}, "defender": {"armor": dfn[0], "infantry": dfn[1]}},
        "bonus": bonus,
        "attacker_dice": n,
        "defender_dice": m,
        "odds": {key: float(p) for key, p in outcome.items()},
        "exact": {key: f"{p.numerator}/{p.denominator}" for key, p in outcome.items()},
        "summary": (f"{names[attacker]} {n} {'die' if n == 1 else 'dice'} against {names[1 - attacker]} {m}: the attacker wins "
                    f"{float(outcome['attacker_wins']):.0%}, tie {float(outcome['tie']):.0%}, the defender holds "
                    f"{float(outcome['defender_wins']):.0%}, both wiped out {float(outcome['both_eliminated']):.0%} (one round)."),
    })
    return entry
