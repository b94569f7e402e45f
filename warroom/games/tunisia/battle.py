"""One battle from its declaration to its end (7.2-7.5, 10.0-15.0): air support, air combat, the two
rolls, losses, retreats, the advance and a breakthrough, as steps of the state's `Battle` record.

Each function takes the ruleset (its catalog and board), the state and the event sink; those that end
in a decision set the phase and return, and the decision's handler calls `continue_battle` again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warroom.engine.events import Events

from . import air
from .breakthrough import conducting
from .catalog import Catalog
from .combat import LONE, SIMULTANEOUS, attack_modifier, combat_factor, succeeds, support_drm, supporting_assets
from .losses import eliminate, loss_candidates, take_loss
from .retreat import RETREATS, retreat_options
from .stacking import occupants, unit_at
from .state import RETURN_TO_BASE, Battle, Phase, TunisiaState

if TYPE_CHECKING:
    from .rules import TunisiaRules

# the stages of a battle after its rolls (Battle.stage)
DEFENDER_LOSS, ATTACKER_LOSS, RETREAT, ADVANCE, BREAKTHROUGH, DONE = range(6)


def declare(rules: TunisiaRules, s: TunisiaState, unit: int, target: int, air_asset: int, events: Events) -> None:
    """7.2, 7.3A: the attack is declared, the attacker's air asset (if any) flies to it; then the defender
    may add one of his (7.3C-E)."""
    cat = rules.cat
    origin = s.loc[unit]
    here = occupants(s).get(target, [])
    defender = unit_at(cat, here)
    breakthrough = s.phase == Phase.BREAKTHROUGH
    s.attacked[unit] = True
    if breakthrough:
        s.bt_attacked = True
    if air_asset >= 0:
        air.fly(s, air_asset)
    s.battle = Battle(unit, origin, target, defender, air_asset, -1, breakthrough=breakthrough)
    if events.on:
        b = rules.board
        what = cat.name[defender] if defender >= 0 else "support assets"
        events.emit(
            "attack",
            f"{cat.name[unit]} in {b.label(origin)} attacks {what} in {b.label(target)}"
            + (f" with {cat.name[air_asset]}" if air_asset >= 0 else "")
            + ".",
            "11.2",
        )
    options = air.air_in_range(cat, s, 1 - cat.side[unit], target, defending=True)
    if options:
        s.phase = Phase.DEFENSIVE_AIR
    else:
        after_air_support(rules, s, events)


def defensive_air(rules: TunisiaRules, s: TunisiaState, asset: int, events: Events) -> None:
    """7.3C-E: the defender's choice, after the attacker's."""
    b = s.battle
    assert b is not None
    if asset >= 0:
        air.fly(s, asset)
        s.battle = b._replace(defender_air=asset)
        if events.on:
            events.emit(
                "air_support",
                f"{rules.cat.name[asset]} flies to the defence of {rules.board.label(b.target)}.",
                air.AIR_SUPPORT,
            )
    after_air_support(rules, s, events)


def after_air_support(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """7.3F: two air assets fight first (10.0); else the attacker rolls."""
    b = s.battle
    assert b is not None
    s.phase = Phase.AIR_ROLL_ATTACKER if b.attacker_air >= 0 and b.defender_air >= 0 else Phase.ATTACK_ROLL


def roll_air_attacker(rules: TunisiaRules, s: TunisiaState, roll: int, events: Events) -> None:
    b = s.battle
    assert b is not None
    s.battle = b._replace(attacker_air_roll=roll)
    s.phase = Phase.AIR_ROLL_DEFENDER


def roll_air_defender(rules: TunisiaRules, s: TunisiaState, roll: int, events: Events) -> None:
    b = s.battle
    assert b is not None
    a, d = air.air_combat(rules.cat, s, b.attacker_air, b.attacker_air_roll, b.defender_air, roll, events)
    s.battle = b._replace(attacker_air=a, defender_air=d)  # 10.2C: only survivors join the ground combat
    s.phase = Phase.ATTACK_ROLL


def roll_attack(rules: TunisiaRules, s: TunisiaState, roll: int, events: Events) -> None:
    """11.2-11.5: the attacker's roll, with the terrain and his supports."""
    cat = rules.cat
    b = s.battle
    assert b is not None
    side = cat.side[b.attacker]
    modifier = attack_modifier(cat, s, b.origin, b.target, side, b.attacker_air)
    for p in supporting_assets(cat, s, b.origin, side):
        s.attacked[p] = True  # 11.1A: a support asset attacks once a Combat Phase
    cf = combat_factor(cat, s, b.attacker)
    hits = succeeds(roll, modifier, cf)
    s.battle = b._replace(attack_roll=roll, attack_hits=hits)
    if events.on:
        events.emit(
            "attack_roll",
            f"Attack: {roll}{modifier:+d} = {roll + modifier} against CF {cf}: "
            + ("success." if hits else "no effect."),
            "11.5",
            roll=roll,
        )
    if b.defender >= 0:
        s.phase = Phase.DEFENSE_ROLL
    else:
        continue_battle(rules, s, events)  # 12.4A: lone support assets do not defend


def roll_defense(rules: TunisiaRules, s: TunisiaState, roll: int, events: Events) -> None:
    """12.1-12.2: the defender's roll, with his supports and no terrain."""
    cat = rules.cat
    b = s.battle
    assert b is not None
    modifier = support_drm(cat, s, b.target, cat.side[b.defender], b.defender_air)
    cf = combat_factor(cat, s, b.defender)
    hits = succeeds(roll, modifier, cf)
    s.battle = b._replace(defense_hits=hits)
    if events.on:
        events.emit(
            "defense_roll",
            f"Defence: {roll}{modifier:+d} = {roll + modifier} against CF {cf}: "
            + ("success." if hits else "no effect."),
            "12.2",
            roll=roll,
        )
    continue_battle(rules, s, events)


def continue_battle(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """Carry the battle on from its current stage until a decision is needed or it ends (12.3: both losses
    apply after both rolls). Each stage moves the battle to the next and says whether it stopped for a
    decision (or ended the battle)."""
    while True:
        b = s.battle
        assert b is not None
        st = b.stage
        if st == DEFENDER_LOSS:
            stop = _defender_loss_stage(rules, s, b, events)
        elif st == ATTACKER_LOSS:
            stop = _attacker_loss_stage(rules, s, b, events)
        elif st == RETREAT:
            stop = _retreat_stage(rules, s, b, events)
        elif st == ADVANCE:
            stop = _advance_stage(s, b)
        elif st == BREAKTHROUGH:
            stop = _breakthrough_stage(rules, s, b, events)
        else:
            _end_battle(s, b)
            stop = True
        if stop:
            return


def _defender_loss_stage(rules: TunisiaRules, s: TunisiaState, b: Battle, events: Events) -> bool:
    """12.3, 13.1-13.3: a successful attack costs the defender a step, his choice where he has one; a lone air
    asset successfully attacked is eliminated (13.3)."""
    cat = rules.cat
    s.battle = b._replace(stage=ATTACKER_LOSS)
    if not b.attack_hits:
        return False
    candidates = (
        loss_candidates(cat, s, b.target, b.defender)
        if b.defender >= 0
        else _lone_candidates(cat, s, b.target, 1 - cat.side[b.attacker])
    )
    if len(candidates) > 1:
        s.phase = Phase.DEFENDER_LOSS
        return True
    if candidates:
        apply_defender_loss(rules, s, candidates[0], events)
    else:  # 13.3: a lone air asset successfully attacked is eliminated
        for p, where in enumerate(s.loc):
            if where == b.target and cat.is_air[p]:
                eliminate(cat, s, p)
                if events.on:
                    events.emit("eliminated", f"{cat.name[p]}, alone, is eliminated.", "13.3")
    return False


def _attacker_loss_stage(rules: TunisiaRules, s: TunisiaState, b: Battle, events: Events) -> bool:
    """12.3, 13.1: a successful defence costs the attacker a step, his choice where he has one."""
    s.battle = b._replace(stage=RETREAT)
    if not b.defense_hits:
        return False
    candidates = loss_candidates(rules.cat, s, b.origin, b.attacker)
    if len(candidates) > 1:
        s.phase = Phase.ATTACKER_LOSS
        return True
    if candidates:
        apply_attacker_loss(rules, s, candidates[0], events)
    return False


def _retreat_stage(rules: TunisiaRules, s: TunisiaState, b: Battle, events: Events) -> bool:
    """14.1A, 12.4B: the defender retreats where only the attack succeeded, lone support assets whatever the
    attack did; it stops while a retreat waits for the defender's choice."""
    s.battle = b._replace(stage=ADVANCE)
    lone = b.defender < 0
    if lone or (b.attack_hits and not b.defense_hits):  # 14.1A, 12.4B
        start_retreat(rules, s, lone and not b.attack_hits, events)
        if s.retreating:
            return True
    return False


def _advance_stage(s: TunisiaState, b: Battle) -> bool:
    """14.3: the attacker may advance where it still stands in its hex and the battle hex is empty."""
    s.battle = b._replace(stage=BREAKTHROUGH)
    if s.loc[b.attacker] == b.origin and not any(where == b.target for where in s.loc):
        s.phase = Phase.ADVANCE
        return True
    return False


def _breakthrough_stage(rules: TunisiaRules, s: TunisiaState, b: Battle, events: Events) -> bool:
    """15.0A-C: a successful attack by a unit stacked with a general that cleared the battle hex (15.0B: its
    enemy counters retreated or died) may break through, once a battle that was not one itself."""
    cat = rules.cat
    s.battle = b._replace(stage=DONE)
    enemy = 1 - cat.side[b.attacker]  # 15.0B: the enemy counters of the battle hex retreated or died
    cleared = not any(where == b.target and cat.side[p] == enemy for p, where in enumerate(s.loc))
    if (
        b.breakthrough
        or not b.attack_hits
        or s.loc[b.attacker] < 0
        or not cleared
        or _general_with(cat, s, b.attacker) < 0
    ):
        return False
    s.battle = None
    s.breakthrough, s.bt_moved, s.bt_attacked = b.attacker, False, False
    for p in conducting(rules, s, b.attacker):
        s.attacked[p] = False  # 15.0A, C: the assets with it may attack a second time
    s.phase = Phase.BREAKTHROUGH
    if events.on:
        events.emit(
            "breakthrough",
            f"{cat.name[b.attacker]}, stacked with a general, may break through: move and attack once more.",
            "15.0A",
        )
    return True


def _end_battle(s: TunisiaState, b: Battle) -> None:
    """The battle is over: back to the Attack Phase (15.0E: a breakthrough's unit neither moves nor attacks
    again this phase)."""
    s.battle = None
    if b.breakthrough:
        s.breakthrough = -1  # 15.0E: no more movement or attacks by it this phase
    s.phase = Phase.ATTACK


def _lone_candidates(cat: Catalog, s: TunisiaState, hex_: int, side: int) -> list[int]:
    return [p for p, where in enumerate(s.loc) if where == hex_ and cat.side[p] == side and not cat.is_air[p]]


def _general_with(cat: Catalog, s: TunisiaState, unit: int) -> int:
    where = s.loc[unit]
    for p, w in enumerate(s.loc):
        if w == where and cat.is_general[p] and cat.side[p] == cat.side[unit]:
            return p
    return -1


def apply_defender_loss(rules: TunisiaRules, s: TunisiaState, piece: int, events: Events) -> None:
    b = s.battle
    assert b is not None
    now = take_loss(rules.cat, s, piece, events)
    if piece == b.defender and now >= 0:  # its battlegroup defends on; an eliminated unit stays named (12.4: not lone)
        s.battle = b._replace(defender=now)


def apply_attacker_loss(rules: TunisiaRules, s: TunisiaState, piece: int, events: Events) -> None:
    b = s.battle
    assert b is not None
    now = take_loss(rules.cat, s, piece, events)
    if piece == b.attacker:
        s.battle = b._replace(attacker=now if now >= 0 else piece)  # an eliminated attacker stays named, off the map


def start_retreat(rules: TunisiaRules, s: TunisiaState, lone_failed: bool, events: Events) -> None:
    """14.1: every surviving piece leaves the battle hex. Air assets never retreat: one there is eliminated
    (14.1C: "successfully attacked at an airfield hex"), or moved to the Return to Base box where support
    assets alone (no unit: "lone", 12.4A-B) survived the attack (12.4C), whether or not ground assets stand
    with it."""
    cat = rules.cat
    b = s.battle
    assert b is not None
    pieces = [p for p, where in enumerate(s.loc) if where == b.target]
    ground = [p for p in pieces if not cat.is_air[p]]
    for p in pieces:
        if cat.is_air[p]:
            if lone_failed:
                s.loc[p] = RETURN_TO_BASE
                if events.on:
                    events.emit(
                        "return_to_base",
                        f"{cat.name[p]}, attacked with no unit and missed, goes to the Return to Base box.",
                        LONE,
                    )
            else:
                eliminate(cat, s, p)
                if events.on:
                    events.emit(
                        "eliminated", f"{cat.name[p]} cannot retreat from its airfield and is eliminated.", "14.1C"
                    )
    s.retreating = tuple(ground)
    next_retreats(rules, s, events)


def next_retreats(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """Retreat the waiting pieces in order: none possible eliminates (14.2D), one is taken at once, a choice
    stops for the defender's decision."""
    cat = rules.cat
    b = s.battle
    assert b is not None
    while s.retreating:
        piece = s.retreating[0]
        options = retreat_options(cat, s, piece, b.target, occupants(s))
        if len(options) > 1:
            s.phase = Phase.RETREAT
            return
        s.retreating = s.retreating[1:]
        if options:
            retreat_to(rules, s, piece, options[0], events)
        else:
            eliminate(cat, s, piece)
            if events.on:
                events.emit("eliminated", f"{cat.name[piece]} cannot retreat two hexes and is eliminated.", "14.2D")


def retreat_to(rules: TunisiaRules, s: TunisiaState, piece: int, hex_: int, events: Events) -> None:
    if events.on:
        b = rules.board
        events.emit(
            "retreat", f"{rules.cat.name[piece]} retreats from {b.label(s.loc[piece])} to {b.label(hex_)}.", RETREATS
        )
    s.loc[piece] = hex_


def advance(rules: TunisiaRules, s: TunisiaState, events: Events) -> None:
    """7.5C-D, 14.3A: the attacking unit and the support assets stacked with it (not air) enter the vacated
    hex, spending no MP and ignoring EZOCs."""
    cat = rules.cat
    b = s.battle
    assert b is not None
    side = cat.side[b.attacker]
    for p, where in enumerate(s.loc):
        if where == b.origin and cat.side[p] == side and not cat.is_air[p]:
            s.loc[p] = b.target
    if events.on:
        board = rules.board
        events.emit(
            "advance",
            f"{cat.name[b.attacker]} advances from {board.label(b.origin)} into {board.label(b.target)}.",
            "14.3",
        )


__all__ = ["SIMULTANEOUS", "advance", "continue_battle", "declare"]
