"""Plain-language labels for Dragoon actions, and the reason an action is illegal (naming the rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.errors import examples, quoted

from .actions import ACCEPT, ACTIVATE, FFI, INVADE, REROLL, REROLL_ID, Action
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
    if s.rp <= 0:
        return f"{quoted(action)}: no RP left; each action costs 1 RP — Dragoon: Using Action Charts"
    if act.kind in (INVADE, ACTIVATE, FFI):
        return _why_not_unit_action(rules, s, act, quoted(action))
    return _why_not_attack(rules, s, act, quoted(action))


def _why_not_unit_action(rules: DragoonRules, s: DragoonState, act: Action, said: str) -> str:
    """Why a unit may not invade, flip to active or take an FFI marker now (Using Action Charts, French
    landings, FFI); `said` is the action as the player sent it, quoted."""
    i, unit = rules.unit_of(act), act.unit
    if act.kind == INVADE:
        landing = rules.board.landing_turn[i]
        if landing is not None:
            return f"{said}: {unit} lands on Alpha Beach on turn {landing} for free — Dragoon: French landings"
        return f"{said}: {unit} has already invaded — Dragoon: Using Action Charts"
    if act.kind == ACTIVATE:
        return f"{said}: {unit} is not stalled — Dragoon: Using Action Charts"
    if s.allied_pos[i] == IN_BOX:
        return f"{said}: {unit} is not on the map yet — Dragoon: FFI"
    return f"{said}: {unit} already has an FFI marker (limit 1 per unit) — Dragoon: FFI"


def _why_not_attack(rules: DragoonRules, s: DragoonState, act: Action, said: str) -> str:
    """Why a unit may not attack now: not on the map, stalled or spent (Using Action Charts), the Air marker
    (Air Support), or the place it may not advance into (Allied Advance/German Retreat Restrictions)."""
    i, unit = rules.unit_of(act), act.unit
    if s.allied_pos[i] == IN_BOX:
        return f"{said}: {unit} has not invaded or landed yet — Dragoon: Using Action Charts"
    if s.stalled[i]:
        return (
            f"{said}: {unit} is stalled and may not attack; flip it to active first (1 RP) — "
            "Dragoon: Using Action Charts"
        )
    if s.spent[i]:
        return (
            f"{said}: {unit} has already attacked, invaded or landed this turn; "
            "a unit attacks at most once a turn and not on the turn it invades or lands — Dragoon: Using Action Charts"
        )
    target = rules.target_of(s, i)
    no_air = _why_no_air(s, target, said) if act.air else ""
    if no_air:
        return no_air
    barred = advance_restriction(rules, s, i, target) if target >= 0 else None
    if barred == NOT_BEFORE_198:
        return (
            f"{said}: the US 3rd ID cannot advance into Avignon until the German 198th ID has entered it — "
            "Dragoon: Allied Advance/German Retreat Restrictions"
        )
    if barred == NEVER_ENTERED:
        return (
            f"{said}: Allied units can never advance into {rules.board.locations[target].name}; "
            "attack it only when German units are there — Dragoon: Allied Advance/German Retreat Restrictions"
        )
    return f"{said} is not legal now (it does not match {unit}'s position on its route) — Dragoon: Using Action Charts"


def _why_no_air(s: DragoonState, target: int, said: str) -> str:
    """Why the Air marker may not support this attack (Air Support), or "" where it may."""
    if s.air_grounded:
        return f"{said}: bad weather was last turn's BOT result, so no Air support this turn — Dragoon: Air Support"
    if s.air_used:
        return f"{said}: Air support supports only one attack a turn — Dragoon: Air Support"
    if target >= 0 and target not in s.german_loc:
        return f"{said}: Air support may not support an attack on an empty location — Dragoon: Air Support"
    return ""
