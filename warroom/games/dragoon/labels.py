"""Plain-language labels for Dragoon actions, and the reason an action is illegal (naming the rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.errors import examples, quoted

from .actions import ACCEPT, ACTIVATE, FFI, INVADE, REROLL, REROLL_ID
from .advance import NEVER_ENTERED, NOT_BEFORE_198, advance_restriction
from .odds import advance_probability, win_effect
from .state import ACTIONS, ATTACK_REROLL, BOT_REROLL, IN_BOX, OPPOSED, PHASE_NAMES, DragoonState

if TYPE_CHECKING:
    from .rules import DragoonRules


def describe(rules: DragoonRules, s: DragoonState, action: str) -> str:
    b = rules.board
    if action == "end":
        return f"End Allied actions (the {s.rp} RP left {'is' if s.rp == 1 else 'are'} lost)"
    if action == "accept":
        return "Keep the roll (FFI stays)"
    if action == REROLL_ID:
        if s.phase == ATTACK_REROLL and s.attack is not None:
            i, mode, drm = s.attack.unit, s.attack.mode, s.attack.drm
            if mode == OPPOSED:
                takes, _ = win_effect(rules, s, i)
                return (
                    f"Use {b.allied[i].id}'s FFI to re-roll: {advance_probability(drm, False, b.advance_on):.0%} to "
                    f"{'advance' if takes else 'win'}"
                )
            return f"Use {b.allied[i].id}'s FFI to re-roll the 1 (5/6 to avoid the stall)"
        if s.phase == BOT_REROLL and s.bot_attack is not None:
            return f"Use {b.allied[s.bot_attack.target].id}'s FFI to make the German re-roll"
        return "Use the FFI to re-roll"
    act = rules.action_of(action)
    if act is None:
        return action
    kind, i, air = act.kind, rules.unit_of(act), act.air
    unit = b.allied[i]
    if kind == INVADE:
        where = b.locations[b.routes[i][0]].name
        return (
            f"{unit.name}: {'drop on' if b.locations[b.routes[i][0]].kind == 'drop_zone' else 'invade'} {where} "
            "(1 RP; a roll of 1 stalls)"
        )
    if kind == ACTIVATE:
        return f"{unit.name}: flip from stalled to active (1 RP)"
    if kind == FFI:
        return f"{unit.name}: add an FFI marker (1 RP; one re-roll, attacking or defending)"
    target = rules.target_of(s, i)
    name = b.locations[target].name
    defender = rules.top_unit(s, target)
    if defender < 0:
        return f"{unit.name}: advance into empty {name} (1 RP; a roll of 1 stalls)"
    drm = rules.attack_drm(s, target, defender, air)
    p = advance_probability(drm, s.ffi[i], b.advance_on)
    extra = " with Air support" if air else ""
    reroll = " with FFI re-roll" if s.ffi[i] else ""
    takes, win = win_effect(rules, s, i)
    if takes:
        return (
            f"{unit.name}: attack {b.german[defender].name} in {name}{extra} "
            f"(1 RP; DRM {drm:+d}, {p:.0%} to advance{reroll})"
        )
    # Dragoon: Allied Advance/German Retreat Restrictions, 11th PzD Special Rules: this attack never advances
    return (
        f"{unit.name}: attack {b.german[defender].name} in {name}{extra} "
        f"(1 RP; DRM {drm:+d}, {p:.0%} to win{reroll}; {win})"
    )


def why_illegal(rules: DragoonRules, s: DragoonState, action: str) -> str:
    """A message naming the action, the phase and the rule that forbids it."""
    b = rules.board
    if s.phase not in (ACTIONS, ATTACK_REROLL, BOT_REROLL):
        return (
            f"{quoted(action)} is not legal: a die roll is pending ({PHASE_NAMES[s.phase]}); "
            "no decision is asked for now — Dragoon: Sequence of Play Each Turn"
        )
    if s.phase in (ATTACK_REROLL, BOT_REROLL):
        return (
            f"{quoted(action)} is not legal: the Allied player must decide on the FFI re-roll "
            "('reroll ffi' or 'accept') — Dragoon: FFI"
        )
    act = rules.action_of(action)
    if act is None:
        return f"{quoted(action)} is not a Dragoon action; legal now: {examples(rules.legal_actions(s))}"
    if act.kind in (REROLL, ACCEPT):
        return (
            f"{quoted(action)}: there is no failed roll to re-roll or accept now; "
            "FFI re-rolls are offered right after a roll — Dragoon: FFI"
        )
    if not act.unit:  # "end": always legal while the Allied actions last
        return f"{quoted(action)} is not legal now — Dragoon: Sequence of Play Each Turn"
    kind, i, air = act.kind, rules.unit_of(act), act.air
    unit = act.unit
    if s.rp <= 0:
        return f"{quoted(action)}: no RP left; each action costs 1 RP — Dragoon: Using Action Charts"
    p = s.allied_pos[i]
    if kind == INVADE:
        if b.landing_turn[i] is not None:
            return (
                f"{quoted(action)}: {unit} lands on Alpha Beach on turn {b.landing_turn[i]} for free — "
                "Dragoon: French landings"
            )
        return f"{quoted(action)}: {unit} has already invaded — Dragoon: Using Action Charts"
    if kind == ACTIVATE:
        return f"{quoted(action)}: {unit} is not stalled — Dragoon: Using Action Charts"
    if kind == FFI:
        if p == IN_BOX:
            return f"{quoted(action)}: {unit} is not on the map yet — Dragoon: FFI"
        return f"{quoted(action)}: {unit} already has an FFI marker (limit 1 per unit) — Dragoon: FFI"
    if p == IN_BOX:
        return f"{quoted(action)}: {unit} has not invaded or landed yet — Dragoon: Using Action Charts"
    if s.stalled[i]:
        return (
            f"{quoted(action)}: {unit} is stalled and may not attack; flip it to active first (1 RP) — "
            "Dragoon: Using Action Charts"
        )
    if s.spent[i]:
        return (
            f"{quoted(action)}: {unit} has already attacked, invaded or landed this turn; "
            "a unit attacks at most once a turn and not on the turn it invades or lands — Dragoon: Using Action Charts"
        )
    target = rules.target_of(s, i)
    if air:
        if s.air_grounded:
            return (
                f"{quoted(action)}: bad weather was last turn's BOT result, so no Air support this turn — "
                "Dragoon: Air Support"
            )
        if s.air_used:
            return f"{quoted(action)}: Air support supports only one attack a turn — Dragoon: Air Support"
        if target >= 0 and target not in s.german_loc:
            return (
                f"{quoted(action)}: Air support may not support an attack on an empty location — Dragoon: Air Support"
            )
    barred = advance_restriction(rules, s, i, target) if target >= 0 else None
    if barred == NOT_BEFORE_198:
        return (
            f"{quoted(action)}: the US 3rd ID cannot advance into Avignon until the German 198th ID has entered it — "
            "Dragoon: Allied Advance/German Retreat Restrictions"
        )
    if barred == NEVER_ENTERED:
        return (
            f"{quoted(action)}: Allied units can never advance into {b.locations[target].name}; "
            "attack it only when German units are there — Dragoon: Allied Advance/German Retreat Restrictions"
        )
    return (
        f"{quoted(action)} is not legal now (it does not match {unit}'s position on its route) — "
        "Dragoon: Using Action Charts"
    )
