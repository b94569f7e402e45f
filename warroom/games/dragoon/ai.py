"""Operation Dragoon's computer player: the Allied heuristic, a position evaluation, per-game facts.

The heuristic plays the turn the way a good player does: invade at once, spend every RP
where it buys the most expected VP (attacks, Air on the attack it helps most, FFI on units
facing fortresses or desperate defenders, activating stalled units that have work), re-roll
with FFI when it matters, and end only when nothing useful is left. The drives share the RP by a plan
(`DRIVE_WEIGHTS`): the US 3rd ID's drive to Orgon and the Avignon trap comes first until turn 21, and
VI Corps's drive to Crest gets only the RP nothing else wants until turn 22. Its values come from the
projection (projection.py), so the "why" it gives is the gain it expects. The evaluation is
the projected VP, normalised by the most VP the game allows.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from warroom.engine.spec import AgentHooks

from . import attacks, movement
from .advance import advance_restriction, may_advance_into
from .board import Board
from .odds import advance_probability
from .projection import (
    EVALUATION,
    PLANNING,
    Model,
    ProjectionCache,
    Tuning,
    View,
    expected_vp,
    model_of,
    projected_vp,
    secured_vp,
    step_chances,
    unit_views,
)
from .rules import DragoonRules
from .state import ATTACK_REROLL, BOT_REROLL, ELIMINATED, IN_BOX, OPPOSED, DragoonState

STALL_COST = 0.057
"""The VP-equivalent of being stalled: an RP to flip back and a turn exposed to being pushed back
(0.04 by hand; 0.057 from the joint tuning under `DRIVE_WEIGHTS`)."""
NEXT_TURN_FACTOR = 0.64
"""Discount on next turn's chances: the BOT may stall the attacker or dig the defender in first
(0.7 by hand; 0.64 from the joint tuning under `DRIVE_WEIGHTS`)."""
COLUMN_HORIZON = 3
"""Turns ahead the heuristic follows the escape column's march when judging a blow at it."""
MIN_GAIN = 1e-3
FFI_FACTOR = 0.82
"""The weight of an FFI bought before this turn's attack (its gain: the re-roll's chance times the attack's
value) against another attack for the same RP (1 by hand, 0.82 from the joint tuning: an RP on a second
attack is worth a little more than the sum says)."""
SPARE_FFI_NEXT = 0.61
"""With RP to spare, the discount on an FFI's re-roll of the unit's next attack (not before next turn)."""
SPARE_FFI_THREAT = 0.33
"""With RP to spare, the share of a counterattack an FFI marker turns away (the German re-roll)."""
SPARE_ACTIVATE = 0.4
"""With RP to spare, the share of `STALL_COST` flipping a stalled unit saves (next turn's RP; 0.5 by hand).
The two spare-RP FFI values above were 0.6 and 2/6 by hand; the joint tuning left them where they were."""
TURN_BANDS: tuple[tuple[int, int], ...] = ((15, 17), (18, 19), (20, 21), (22, 24), (25, 29))
"""The bands of turns over which a drive's weight (`DRIVE_WEIGHTS`) holds: the landings, the race to Orgon,
the Avignon trap, the ports and Cannes, the last turns."""
DRIVE_WEIGHTS: dict[str, tuple[float, ...]] = {
    "VI-Corps": (0.0491, 0.0431, 0.0307, 0.734, 0.949),
    "3rd-ID": (18.1, 63.6, 22.8, 1.55, 1.13),
    "1st-ABTF": (1.06, 2.21, 0.622, 0.529, 0.627),
    "II-Corps": (0.241, 0.96, 0.923, 0.841, 1.26),
    "3e-DIA": (0.732, 0.834, 1.78, 2.51, 1.92),
}
"""The share of its projected value each Allied unit's attacks (and so their FFI) are weighed at, in each band
of `TURN_BANDS`: how the drives share the RP the projection treats as each drive's own.

The projection counts on every drive attacking a share of the later turns, so it never prices the RP the
drives really share (NOTES.md, Search: what is left). Two rules were made by hand and measured one at a time:
VI Corps's drive to Crest (four opposed attacks for the 19th Army RS's 1 VP, counterattacked all the way)
is a last call on the RP until turn 22 (weight 0.05), and the US 3rd ID's drive to Orgon and the Avignon trap,
the one drive on a timetable, comes first until turn 21 (x30). This table is the same idea over every drive
and band, tuned jointly with `PLANNING`, the two constants above and the four below by a cross-entropy search
(three stages of 30, 30 and 34 numbers, 12 candidates a round, each round on 300-400 new seeds with the same
keyed dice for every candidate, 46 rounds in all, started from the hand-made rules; NOTES.md, Search: the
joint tuning). Measured on 2,000 fresh seeds (900000-901999, keyed dice, paired): 7.40 VP against 7.33
for the hand-made rules, +0.071 (SE 0.013). What it learned reads as a plan: the French II Corps waits
while the 1st ABTF drives on Cannes (turns 15-19), the 3rd ID still comes first until turn 21, and the 3e
DIA's drive on Marseilles leads from turn 20. A unit not listed weighs 1."""


def evaluate(ruleset: DragoonRules, state: DragoonState) -> float:
    """Expected VP, normalised to [0, 1] by the most VP the game allows; no port held at the end is 0."""
    m = model_of(ruleset)
    return max(0.0, min(1.0, expected_vp(ruleset, state) / m.max_vp))


def value_text(ruleset: DragoonRules, value: float) -> str:
    """An evaluation in the player's terms, for MCTS's explanation."""
    return f"about {value * model_of(ruleset).max_vp:.1f} VP expected"


def summarize(ruleset: DragoonRules, state: DragoonState) -> dict[str, Any]:
    """One finished game's facts for the simulation report: VP, outcome, captures, eliminations."""
    b = ruleset.board
    vp, _ = ruleset.victory_points(state)
    result = ruleset.result(state)
    objectives = [loc for loc, value in enumerate(b.vp) if value]
    objectives.sort(key=lambda loc: -b.vp[loc])
    return {
        "VP": vp,
        "German units eliminated": len(state.eliminated),
        "captured": {b.locations[loc].name: state.captured.get(loc) for loc in objectives},
        "held at the end": {b.locations[loc].name: bool(state.control[loc]) for loc in objectives},
        "winner": result.winner if result else None,
    }


# -- the heuristic -------------------------------------------------------------------------------
class _Attack:
    """What one attack by unit i would do, and what it is worth."""

    __slots__ = (
        "i",
        "target",
        "defender",
        "p",
        "p_air",
        "value",
        "weight",
        "air_ok",
        "stall_risk",
        "text",
        "gained_port",
        "gained_other",
    )

    def __init__(self) -> None:
        self.i = self.target = self.defender = -1
        self.p = self.p_air = self.value = self.stall_risk = 0.0
        self.weight = 1.0  # _drive_weight (VI Corps, the 3rd ID); `value` is already multiplied by it
        self.air_ok = False
        self.text = ""
        self.gained_port = self.gained_other = 0.0
        """The VP a success secures beyond what the projection counts: at a port (which the projection
        needs held), and elsewhere; `_analyse_attack`'s steps add to them in turn."""


def _analyse_attack(
    m: Model,
    s: DragoonState,
    i: int,
    views: list[View],
    secured: tuple[float, float],
    air_legal: bool,
    cache: ProjectionCache,
) -> _Attack:
    """Value of the attack unit i can make now: success probability and expected VP it adds."""
    rules, b = m.rules, m.board
    a = _Attack()
    a.i = i
    target = rules.target_of(s, i)
    a.target = target
    pos, foe_pos, foe_desp, _ = views[i]
    nxt = s.turn + 1
    fail_views = list(views)
    fail_views[i] = (pos, foe_pos, foe_desp, nxt)
    rp_after = s.rp - 1.0
    fail_value = projected_vp(m, s, fail_views, secured, rp_now=rp_after, cache=cache)
    succ_views = list(views)
    removed: frozenset[int] = frozenset()
    text: list[str] = []
    defender = rules.top_unit(s, target) if target >= 0 else -1
    a.defender = defender
    if defender < 0:
        a.p = a.p_air = 1.0
        a.stall_risk = (1 / 6) * STALL_COST
        succ_views[i] = (pos + 1, foe_pos, foe_desp, nxt)
        advance = True
        text.append(f"advances into {b.locations[target].name if target >= 0 else ''}")
    else:
        removed, advance = _opposed(m, s, a, air_legal, succ_views, text)
    if advance and target >= 0:
        _objective_taken(m, s, a, text)
    if target in b.escape_pos or target == b.crest:
        _column_setup(m, s, a, text)
    sp, so = secured
    succ_value = projected_vp(
        m, s, succ_views, (sp + a.gained_port, so + a.gained_other), removed, rp_after, cache=cache
    )
    a.value = succ_value - fail_value
    a.text = ", ".join(text)
    return a


def _opposed(
    m: Model, s: DragoonState, a: _Attack, air_legal: bool, succ_views: list[View], text: list[str]
) -> tuple[frozenset[int], bool]:
    """An opposed attack's chances, and what its success does to the defender: the German units it takes
    out of the projection, and whether the attacker advances (its view in `succ_views` moved on if so)."""
    rules, b = m.rules, m.board
    i, target, defender = a.i, a.target, a.defender
    drm = rules.attack_drm(s, target, defender, False)
    a.p = advance_probability(drm, False, b.advance_on)  # FFI is counted by _attack_gain
    a.p_air = advance_probability(drm + b.air_drm, False, b.advance_on)
    a.air_ok = air_legal
    if defender == b.panzer:
        # 11th PzD Special Rules: defeated, it flips to normal and goes under the infantry
        text.append(
            f"flips the {b.german[defender].name} off its desperate defense"
            if s.desperate[defender]
            else f"achieves nothing against the {b.german[defender].name}, which never retreats"
        )
        return frozenset(), False
    removed = _defender_driven_off(m, s, a, succ_views, text)
    others = [g for g in rules.germans_at(s, target) if g != defender]
    advance = not others and advance_restriction(rules, s, i, target) is None
    if advance:
        p0 = succ_views[i]
        succ_views[i] = (p0[0] + 1, p0[1], p0[2], s.turn + 1)
    return removed, advance


def _defender_driven_off(
    m: Model, s: DragoonState, a: _Attack, succ_views: list[View], text: list[str]
) -> frozenset[int]:
    """Where a defeated infantry defender goes (Resolving Unit Attacks): its elimination's VP, the attacker's
    foe moved back along the route, and the German units the success takes out of the projection."""
    rules, b = m.rules, m.board
    i, target, defender = a.i, a.target, a.defender
    pos, foe_pos, _, _ = succ_views[i]  # as yet the unit's view before the attack
    nxt = s.turn + 1
    dest, _ = attacks.retreat_destination(rules, s, defender, target)
    if dest == ELIMINATED:
        if m.port_milestone[i][min(pos + 1, len(b.routes[i]) - 1)] and b.route_of[defender] == i:
            a.gained_port += 1.0
        else:
            a.gained_other += 1.0
        text.append(f"eliminates the {b.german[defender].name} (+1 VP)")
    elif dest >= 0:
        text.append(f"pushes the {b.german[defender].name} back to {b.locations[dest].name}")
    else:
        text.append(f"drives the {b.german[defender].name} off the map")
    if defender != m.foe[i]:
        return frozenset({defender}) if dest == ELIMINATED else frozenset()
    new_foe = b.routes[i].index(dest) if dest >= 0 and dest in b.routes[i] else -1
    foe_desp_after = new_foe >= 0 and b.desperate_for[dest] == defender
    succ_views[i] = (pos, new_foe, foe_desp_after, nxt)
    if dest < 0 and foe_pos >= 0 and pos >= m.chain_end[i]:
        # the foe can no longer counterattack to retake what this unit holds
        held = b.vp[b.routes[i][pos]] if pos >= 0 else 0
        a.gained_other += held * m.counterattack.get(defender, 0.0) * 0.5 * max(b.last_turn - s.turn + 1, 0)
    return frozenset()


def _objective_taken(m: Model, s: DragoonState, a: _Attack, text: list[str]) -> None:
    """The VP of the location a successful attack advances into, if not yet Allied (How to Win)."""
    b = m.board
    target = a.target
    if b.vp[target] and not s.control[target]:
        if target in m.ports:
            a.gained_port += b.vp[target]
        else:
            a.gained_other += b.vp[target]
        text.append(f"takes {b.locations[target].name} ({b.vp[target]} VP)")
    if a.i == b.vi_corps and target == b.crest:
        text.append("reaches Crest, which sends the 11th PzD to Montelimar")


def _column_setup(m: Model, s: DragoonState, a: _Attack, text: list[str]) -> None:
    """What a success on the escape track (or at Crest) sets up against the escape column, which moves on
    after the actions: the column units expected destroyed with it, less without it."""
    rules = m.rules
    i, target, defender = a.i, a.target, a.defender
    after = s.clone()
    if defender >= 0:
        attacks.defeat(rules, after, i, target, defender)
    else:
        after.allied_pos[i] += 1
        attacks.enter(rules, after, target, i)
    after.spent[i] = True
    after.rp -= 1
    before = s.clone()
    before.spent[i] = True
    before.rp -= 1
    setup = _column_kills(m, after) - _column_kills(m, before)
    if setup > 0.05:
        text.append("sets up a blow at the escape column next turn")
    a.gained_other += setup


def _column_kills(m: Model, t: DragoonState) -> float:
    """Expected escape-column units destroyed by the attacks still open this turn and in the next
    few turns, as the column marches on and the Allies close the trap (mutates t).

    A column unit on top of a location an Allied unit attacks, with no place to retreat, dies
    if the attack succeeds; a column unit pushed back south from Montelimar walks back into the
    trap; a desperate 11th PzD on top must be flipped first (Dragoon: German Movement, 11th PzD
    Special Rules, Allied Advance/German Retreat Restrictions).
    """
    rules, b = m.rules, m.board
    best: dict[int, float] = {}
    if t.rp > 0:
        _kill_chances(m, t, True, 1.0, best)
    weight = 1.0
    for _ in range(COLUMN_HORIZON):
        if t.turn >= b.last_turn:
            break
        movement.german_movement(rules, t)
        t.turn += 1
        weight *= NEXT_TURN_FACTOR
        _kill_chances(m, t, False, weight, best)
        # the Allies walk into the empty stops of the withdrawal route ahead of them
        for u in range(len(b.allied)):
            target = rules.target_of(t, u) if t.allied_pos[u] != IN_BOX else -1
            if target in b.escape_pos and may_advance_into(rules, t, u, target):
                t.allied_pos[u] += 1
    return sum(best.values())


def _kill_chances(m: Model, t: DragoonState, this_turn: bool, weight: float, best: dict[int, float]) -> None:
    """Record, per column unit, the best discounted chance an Allied attack destroys it in position t."""
    rules, b = m.rules, m.board
    for u in range(len(b.allied)):
        if t.allied_pos[u] == IN_BOX or (this_turn and (t.spent[u] or t.stalled[u])):
            continue
        target = rules.target_of(t, u)
        if target < 0 or target not in b.escape_pos:
            continue
        top = rules.top_unit(t, target)
        if top < 0:
            continue
        drm = rules.attack_drm(t, target, top, False)
        q = m.q[max(-6, min(3, drm))]
        if top == b.panzer:
            if t.desperate[top]:
                for g in rules.germans_at(t, target):
                    if g in m.column:
                        best[g] = max(best.get(g, 0.0), weight * 0.25 * q)
            continue
        if top not in m.column:
            continue
        dest, _ = attacks.retreat_destination(rules, t, top, target)
        chance = q if dest == ELIMINATED else 0.3 * q if target == b.montelimar else 0.0
        if chance:
            best[top] = max(best.get(top, 0.0), weight * chance)


def _step_value(
    m: Model,
    s: DragoonState,
    i: int,
    views: list[View],
    secured: tuple[float, float],
    cache: ProjectionCache,
) -> float:
    """What the unit's next step along its route is worth (for FFI and activation decisions)."""
    pos, foe_pos, foe_desp, _ = views[i]
    nxt = s.turn + 1
    here = list(views)
    here[i] = (pos, foe_pos, foe_desp, nxt)
    ahead = list(views)
    new_foe = foe_pos + 1 if foe_pos >= 0 and foe_pos == pos + 1 else foe_pos
    ahead[i] = (pos + 1, new_foe if new_foe < len(m.board.routes[i]) else -1, False, nxt)
    rp_after = s.rp - 1.0
    return max(
        0.0,
        projected_vp(m, s, ahead, secured, rp_now=rp_after, cache=cache)
        - projected_vp(m, s, here, secured, rp_now=rp_after, cache=cache),
    )


def heuristic_policy(ruleset: DragoonRules, state: DragoonState) -> tuple[str, str]:
    """A competent Allied player: the action it picks and, in plain words, why."""
    m = model_of(ruleset)
    s = state
    if s.phase == ATTACK_REROLL:
        return _attack_reroll(m, s)
    if s.phase == BOT_REROLL:
        return _bot_reroll(m, s)
    legal = ruleset.legal_actions(s)
    if len(legal) == 1:
        return legal[0], "The only legal action."
    return _plan_actions(m, s, legal)


def _attack_reroll(m: Model, s: DragoonState) -> tuple[str, str]:
    assert s.attack is not None
    b = m.board
    i, mode = s.attack.unit, s.attack.mode
    unit = b.allied[i].id
    if mode == OPPOSED:
        return (
            "reroll ffi",
            f"Dragoon: FFI — the attack failed; {unit}'s FFI re-rolls it (that is what the marker is for).",
        )
    # a 1 on an invasion or unopposed advance stalls the unit: keep the FFI for a real fight ahead
    views = unit_views(m, s)
    end = m.end(i, views[i])
    pos = views[i][0] + 1
    fights_ahead = end > pos and any(q < 1.0 for q in step_chances(m, s, i, (pos, *views[i][1:]), end))
    if fights_ahead:
        return "accept", f"Keep {unit}'s FFI for the opposed attacks ahead; a stall costs only an RP to undo."
    return "reroll ffi", f"{unit} has no hard fight ahead, so its FFI re-rolls the 1 to avoid the stall."


def _bot_reroll(m: Model, s: DragoonState) -> tuple[str, str]:
    assert s.bot_attack is not None
    b = m.board
    target = s.bot_attack.target
    unit = b.allied[target].id
    if s.stalled[target]:
        return (
            "reroll ffi",
            f"{unit} is stalled, so this German success would push it back: its FFI makes the German re-roll.",
        )
    return "accept", f"{unit} is only stalled by this result (an RP to undo); its FFI is worth more on its next attack."


def _plan_actions(m: Model, s: DragoonState, legal: list[str]) -> tuple[str, str]:
    legal_set = set(legal)
    invasion = _invasion(m, s, legal_set)
    if invasion is not None:
        return invasion
    views = unit_views(m, s)
    secured = secured_vp(m, s)
    air_legal = not s.air_used and not s.air_grounded
    cache = ProjectionCache()  # the projections below are all of position s
    attacks = _worth_attacking(m, s, legal_set, views, secured, air_legal, cache)
    chosen, ffi_for, air_unit = _plan_rp(s, attacks)
    if chosen and air_legal:
        air_unit = _air_unit(s, attacks, chosen, ffi_for)
    if chosen:
        return _first_step(m, s, legal_set, attacks, chosen, ffi_for, air_unit)
    return _spare_rp(m, s, legal_set, views, secured, cache)


def _invasion(m: Model, s: DragoonState, legal_set: set[str]) -> tuple[str, str] | None:
    """Invasions first: every turn a unit waits in its box is a turn lost on its route."""
    rules, b = m.rules, m.board
    invasions = [k for k in range(len(b.allied)) if rules.invade_id[k] in legal_set]
    if not invasions:
        return None
    best = max(invasions, key=lambda k: (m.chain_end[k] - 0, -k))
    return rules.invade_id[
        best
    ], f"Invade at once: {b.allied[best].name} has {m.chain_end[best] + 1} steps to go on its route."


def _worth_attacking(
    m: Model,
    s: DragoonState,
    legal_set: set[str],
    views: list[View],
    secured: tuple[float, float],
    air_legal: bool,
    cache: ProjectionCache,
) -> dict[int, _Attack]:
    """Each unit's attack that may be made this turn and gains more than `MIN_GAIN`, weighed by its drive."""
    rules = m.rules
    attacks: dict[int, _Attack] = {}
    for i in range(len(m.board.allied)):
        if s.allied_pos[i] == IN_BOX or s.spent[i]:
            continue
        plain, air = rules.attack_id[i][s.allied_pos[i]]
        can = plain in legal_set or (s.stalled[i] and plain and _attack_possible(m, s, i))
        if not can:
            continue
        a = _analyse_attack(m, s, i, views, secured, air_legal and (air in legal_set or s.stalled[i]), cache)
        a.weight = _drive_weight(m, s, i)
        a.value *= a.weight
        if a.value > MIN_GAIN:
            attacks[i] = a
    return attacks


def _plan_rp(s: DragoonState, attacks: dict[int, _Attack]) -> tuple[set[int], set[int], int]:
    """A greedy plan for the RP this turn: each increment is an attack (with its activation) or an FFI.
    The attacks chosen, the units given FFI, and the unit given Air (-1 for none)."""
    rp = s.rp
    chosen: set[int] = set()
    ffi_for: set[int] = set()
    air_unit = -1
    while rp > 0:
        best_kind, best_i, best_cost = _best_increment(s, attacks, chosen, ffi_for, air_unit, rp)
        if not best_kind:
            break
        if best_kind == "attack":
            chosen.add(best_i)
            if air_unit < 0 and attacks[best_i].air_ok:
                air_unit = best_i
        else:
            ffi_for.add(best_i)
        rp -= best_cost
    return chosen, ffi_for, air_unit


def _best_increment(
    s: DragoonState, attacks: dict[int, _Attack], chosen: set[int], ffi_for: set[int], air_unit: int, rp: int
) -> tuple[str, int, int]:
    """The plan's next step with the best gain per RP: ("attack" or "ffi", unit, cost), or ("", -1, 0)."""
    best_rate, best_kind, best_i, best_cost = MIN_GAIN, "", -1, 0
    for i, a in attacks.items():
        has_ffi = s.ffi[i] or i in ffi_for
        with_air = air_unit == i or (air_unit < 0 and a.air_ok)
        if i not in chosen:
            cost = 2 if s.stalled[i] else 1
            rate = _attack_gain(a, has_ffi, with_air) / cost
            if cost <= rp and rate > best_rate:
                best_rate, best_kind, best_i, best_cost = rate, "attack", i, cost
        elif not has_ffi and a.defender >= 0:
            rate = FFI_FACTOR * (_attack_gain(a, True, with_air) - _attack_gain(a, False, with_air))
            if rate > best_rate:
                best_rate, best_kind, best_i, best_cost = rate, "ffi", i, 1
    return best_kind, best_i, best_cost


def _air_unit(s: DragoonState, attacks: dict[int, _Attack], chosen: set[int], ffi_for: set[int]) -> int:
    """Air re-assigned to the chosen attack it helps most (-1 where it helps none by more than `MIN_GAIN`)."""
    helped = {
        i: _attack_gain(attacks[i], s.ffi[i] or i in ffi_for, True)
        - _attack_gain(attacks[i], s.ffi[i] or i in ffi_for, False)
        for i in chosen
        if attacks[i].air_ok
    }
    return max(helped, key=lambda i: helped[i]) if helped and max(helped.values()) > MIN_GAIN else -1


def _first_step(
    m: Model,
    s: DragoonState,
    legal_set: set[str],
    attacks: dict[int, _Attack],
    chosen: set[int],
    ffi_for: set[int],
    air_unit: int,
) -> tuple[str, str]:
    """The plan's first action: the most valuable attack, with its FFI and activation before it."""
    rules = m.rules
    i = max(chosen, key=lambda k: (attacks[k].value, -k))
    a = attacks[i]
    unit = m.board.allied[i]
    if i in ffi_for and not s.ffi[i]:
        return (
            rules.ffi_id[i],
            f"FFI to {unit.id} before its attack: the re-roll lifts its chance to advance from "
            f"{a.p_air if i == air_unit else a.p:.0%} to {_chance(a, True, i == air_unit):.0%}.",
        )
    if s.stalled[i]:
        return rules.activate_id[i], f"Flip {unit.id} to active: it has an attack worth making ({a.text})."
    plain, air = rules.attack_id[i][s.allied_pos[i]]
    use_air = i == air_unit and air in legal_set
    p = _chance(a, s.ffi[i], use_air)
    action = air if use_air else plain
    gain = _attack_gain(a, s.ffi[i], use_air)
    return (
        action,
        f"{unit.id}{' with Air support' if use_air else ''}: {p:.0%} to succeed; "
        f"success {a.text} (+{gain / a.weight:.2f} VP expected).",
    )


def _drive_weight(m: Model, s: DragoonState, i: int) -> float:
    """How unit i's attacks are weighed against the others' this turn (`DRIVE_WEIGHTS`)."""
    return _drive_weights(m.board)[i][_band(s.turn)]


@cache
def _drive_weights(board: Board) -> tuple[tuple[float, ...], ...]:
    """`DRIVE_WEIGHTS` by Allied unit index (1 for a unit the table does not name)."""
    ones = (1.0,) * len(TURN_BANDS)
    return tuple(DRIVE_WEIGHTS.get(unit.id, ones) for unit in board.allied)


def _band(turn: int) -> int:
    """The band of `TURN_BANDS` a turn falls in (the last band after it)."""
    for k, (_, last) in enumerate(TURN_BANDS):
        if turn <= last:
            return k
    return len(TURN_BANDS) - 1


def _attack_possible(m: Model, s: DragoonState, i: int) -> bool:
    """Whether unit i, once active, would have an attack to make (the rules' own test, unstalled)."""
    rules = m.rules
    twin = s.clone()
    twin.stalled[i] = False
    twin.legal = None
    plain, _ = rules.attack_id[i][s.allied_pos[i]]
    return plain in rules.legal_actions(twin)


def _chance(a: _Attack, ffi: bool, air: bool) -> float:
    """Chance the attack succeeds, with or without an FFI re-roll and Air."""
    if a.defender < 0:
        return 1.0
    p = a.p_air if air and a.air_ok else a.p
    return p + (1 - p) * p if ffi else p


def _attack_gain(a: _Attack, ffi: bool, air: bool) -> float:
    """Expected VP an attack adds, with or without an FFI re-roll and Air."""
    if a.defender < 0:
        return a.value - (0.0 if ffi else a.stall_risk)
    return _chance(a, ffi, air) * a.value


def _spare_rp(
    m: Model,
    s: DragoonState,
    legal_set: set[str],
    views: list[View],
    secured: tuple[float, float],
    cache: ProjectionCache,
) -> tuple[str, str]:
    """No attack is worth an RP: put what is left where it helps later (FFI, activations), else end."""
    rules, b = m.rules, m.board
    options: list[tuple[float, str, str]] = []
    for i in range(len(b.allied)):
        if s.allied_pos[i] == IN_BOX:
            continue
        step = _step_value(m, s, i, views, secured, cache)
        g = m.foe[i]
        threat = m.counterattack.get(g, 0.0) if g >= 0 and rules.bot_target(s, g) == i else 0.0
        # what a successful counterattack costs: a stalled unit is pushed back a step, an active one stalls
        setback = step if s.stalled[i] else STALL_COST
        if rules.ffi_id[i] in legal_set:
            nxt = _next_q(m, s, i, views)
            # the re-roll on its next attack (not before next turn: discounted), or against a counterattack
            value = SPARE_FFI_NEXT * nxt * (1 - nxt) * step + threat * SPARE_FFI_THREAT * setback
            if value > MIN_GAIN:
                options.append(
                    (
                        value,
                        rules.ffi_id[i],
                        f"FFI to {b.allied[i].id} for its next attack ({nxt:.0%} to succeed without a re-roll).",
                    )
                )
        if rules.activate_id[i] in legal_set and step > 0:
            value = threat * step + SPARE_ACTIVATE * STALL_COST  # ready to attack next turn without paying then
            options.append(
                (
                    value,
                    rules.activate_id[i],
                    f"Flip {b.allied[i].id} to active: it has work ahead, and a stalled unit is pushed back by a "
                    "successful counterattack.",
                )
            )
    if options:
        options.sort(key=lambda o: -o[0])
        value, action, why = options[0]
        return action, why
    return "end", f"Nothing useful is left for the {s.rp} RP remaining (RP cannot be saved)."


def _next_q(m: Model, s: DragoonState, i: int, views: list[View]) -> float:
    """Chance of the unit's next opposed attack along its route (1.0 if none is ahead)."""
    pos = views[i][0]
    end = m.end(i, views[i])
    if end <= pos:
        return 1.0
    for q in step_chances(m, s, i, views[i], end):
        if q < 1.0:
            return q
    return 1.0


MCTS_WITHHELD = (
    "the generic MCTS plays below this game's heuristic (5.65 VP against 6.80 on the same seeds 1000-1039, paired "
    "-1.15 VP, SE 0.38; NOTES.md, Search): play the heuristic or the game's own search"
)
"""Why the generic MCTS is not offered in Dragoon (issue 40: no search agent below its own heuristic)."""


def agent_hooks() -> AgentHooks[DragoonState]:
    """What the computer players use of this game (the spec's `agents`: warroom.ai builds its agents from them)."""
    from .search import search_agent

    # search: paired heuristic playouts to the end of the game (search.py); MCTS with the projection
    # at its leaves plays worse than the heuristic (NOTES.md, "Search")
    return AgentHooks(
        heuristic_policy=heuristic_policy,
        evaluate=evaluate,
        value_text=value_text,
        summarize=summarize,
        search=search_agent,
        withheld={"mcts": MCTS_WITHHELD},
    )


__all__ = [
    "agent_hooks",
    "EVALUATION",
    "PLANNING",
    "Tuning",
    "evaluate",
    "expected_vp",
    "heuristic_policy",
    "summarize",
    "value_text",
]
