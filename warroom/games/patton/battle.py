"""Battles: dice, casualties, who must retreat, ties, the attacker's retreat and the winner entering.

A battle is fought for one town by every stack the attacker stopped outside it ("considered
as a single attack force"). The dice are rolled one die at a time (chance nodes: the
attacker's dice, then the defender's), so a player at the table can type each die.

Rule citations: "Patton: Battles", "Patton: Casualties", "Patton: Retreating".
"""

from __future__ import annotations

from warroom.engine.ruleset import Event

from .board import mix_text
from .combat import casualties_from, dice_for, losses
from .objectives import note_ousted, update_relief
from .state import BATTLE_ORDER, CASUALTY, DICE, EMPTY, RETREAT_BATTLE, RETREATING, TIE, Battle, PattonState, Retreat

BATTLES = "Patton: Battles"
CASUALTIES = "Patton: Casualties"
RETREAT_RULE = "Patton: Retreating"
OPTIONAL = "Patton: Optional Retreating Rule for Advanced Players"
LANDINGS = "Patton: Sicily — Allied Landings"
RETREAT_LIMIT = 5  # "moves his Units, up to a maximum of 5"


def attacking_stacks(s: PattonState) -> list[list[int]]:
    battle = s.battle
    assert battle is not None
    return [st for st in s.stacks if st[0] == battle.target and st[4] == battle.attacker]


def attacker_force(s: PattonState) -> tuple[int, int]:
    armor = infantry = 0
    for st in attacking_stacks(s):
        armor += st[2]
        infantry += st[3]
    return armor, infantry


def defender_force(s: PattonState) -> tuple[int, int]:
    """The defender's Units that fight: not those that retreated in from another battle."""
    battle = s.battle
    assert battle is not None
    t = battle.target
    if s.side[t] != battle.defender:
        return 0, 0
    return s.armor[t] - s.joined_a[t], s.inf[t] - s.joined_i[t]


def side_name(s: PattonState, side: int) -> str:
    return s.board.side_names[side]


def start_battle(s: PattonState, target: int, events: list[Event], log: bool) -> None:
    s.battle = Battle(target, s.mover)
    begin_round(s, events, log)


def start_retreat_battle(s: PattonState, target: int, from_town: int, armor: int, infantry: int, side: int, events: list[Event], log: bool) -> None:
    """Optional Retreating Rule: the retreating defender fights for an enemy town, the enemy +2 dice."""
    s.stacks.append([target, from_town, armor, infantry, side])
    s.battle = Battle(target, side, RETREAT_BATTLE, bonus=2, from_town=from_town)
    if log:
        b = s.board
        events.append({
            "type": "retreat_battle",
            "text": f"{mix_text(armor, infantry)} retreat from {b.towns[from_town].name} towards {b.towns[target].name}, held by the "
                    f"{side_name(s, 1 - side)}: they fight for it, the {side_name(s, 1 - side)} adding 2 dice; a lower total eliminates them.",
            "rule": OPTIONAL,
        })
    begin_round(s, events, log)


def begin_round(s: PattonState, events: list[Event], log: bool) -> None:
    battle = s.battle
    assert battle is not None
    aa, ai = attacker_force(s)
    da, di = defender_force(s)
    battle.n = dice_for(aa, ai)
    battle.m = dice_for(da, di, battle.bonus)
    battle.att_dice = []
    battle.def_dice = []
    if log:
        from .odds import round_odds

        b = s.board
        odds = round_odds(battle.n, battle.m)
        again = f" (refought, round {battle.round})" if battle.round > 1 else ""
        events.append({
            "type": "battle",
            "text": f"Battle for {b.towns[battle.target].name}{again}: {side_name(s, battle.attacker)} {mix_text(aa, ai) or 'none'} throw "
                    f"{battle.n} {_dice(battle.n)}, {side_name(s, battle.defender)} {mix_text(da, di) or 'none'} throw {battle.m} {_dice(battle.m)}. "
                    f"Odds of the dice totals alone: attacker higher {odds[0]:.0%}, tie {odds[1]:.0%}, defender higher {odds[2]:.0%}.",
            "rule": BATTLES,
            "attacker_dice": battle.n,
            "defender_dice": battle.m,
        })
    if battle.n + battle.m == 0:
        resolve_round(s, events, log)
    else:
        s.phase = DICE


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


def roll(s: PattonState, value: int, events: list[Event], log: bool) -> None:
    """One die of the battle: the attacker's first, then the defender's."""
    battle = s.battle
    assert battle is not None
    if len(battle.att_dice) < battle.n:
        battle.att_dice.append(value)
    else:
        battle.def_dice.append(value)
    if len(battle.att_dice) == battle.n and len(battle.def_dice) == battle.m:
        resolve_round(s, events, log)


def resolve_round(s: PattonState, events: list[Event], log: bool) -> None:
    """Casualties on both sides, then (once the attacker has chosen where his fall) the retreat."""
    battle = s.battle
    assert battle is not None
    b = s.board
    t = battle.target
    on_defender = casualties_from(battle.att_dice)
    on_attacker = casualties_from(battle.def_dice)
    if log:
        events.append({
            "type": "battle_dice",
            "text": f"{side_name(s, battle.attacker)} throw {_show(battle.att_dice)} (total {sum(battle.att_dice)}, {on_defender} "
                    f"{_cas(on_defender)}); {side_name(s, battle.defender)} throw {_show(battle.def_dice)} (total {sum(battle.def_dice)}, "
                    f"{on_attacker} {_cas(on_attacker)}).",
            "rule": CASUALTIES,
            "attacker_dice": list(battle.att_dice),
            "defender_dice": list(battle.def_dice),
        })
    da, di = defender_force(s)
    la, li = losses(on_defender, da, di)
    if la + li:
        s.armor[t] -= la
        s.inf[t] -= li
        lost = s.eliminated[battle.defender]
        lost[0] += la
        lost[1] += li
        if s.armor[t] + s.inf[t] == 0:
            s.side[t] = EMPTY
        if log:
            events.append({"type": "casualties", "text": f"{side_name(s, battle.defender)} in {b.towns[t].name} remove {mix_text(la, li)}.", "rule": CASUALTIES})
    aa, ai = attacker_force(s)
    la, li = losses(on_attacker, aa, ai)
    if la + li == 0:
        outcome(s, events, log)
        return
    options = casualty_options(s, la, li)
    if len(options) == 1:
        apply_casualties(s, options[0], events, log)
        return
    s.phase = CASUALTY
    s.actor = battle.attacker


def _show(dice: list[int]) -> str:
    return "-".join(str(d) for d in dice) if dice else "no dice"


def _cas(n: int) -> str:
    return "casualty" if n == 1 else "casualties"


def attacker_losses(s: PattonState) -> tuple[int, int]:
    battle = s.battle
    assert battle is not None
    aa, ai = attacker_force(s)
    return losses(casualties_from(battle.def_dice), aa, ai)


def casualty_options(s: PattonState, la: int, li: int) -> list[tuple[tuple[int, int, int], ...]]:
    """Every way to take `la` armor and `li` infantry from the attacking stacks: (stack index, armor, infantry)."""
    stacks = attacking_stacks(s)
    index = [s.stacks.index(st) for st in stacks]
    out: list[tuple[tuple[int, int, int], ...]] = []

    def split(total: int, caps: list[int]) -> list[list[int]]:
        if not caps:
            return [[]] if total == 0 else []
        result = []
        for take in range(min(total, caps[0]) + 1):
            for rest in split(total - take, caps[1:]):
                result.append([take, *rest])
        return result

    for armor_split in split(la, [st[2] for st in stacks]):
        for inf_split in split(li, [st[3] for st in stacks]):
            out.append(tuple((index[k], armor_split[k], inf_split[k]) for k in range(len(stacks)) if armor_split[k] + inf_split[k]))
    return out


def source_name(s: PattonState, source: int) -> str:
    b = s.board
    return b.names[source] if source < b.n else b.landings[source - b.n].id


def apply_casualties(s: PattonState, parts: tuple[tuple[int, int, int], ...], events: list[Event], log: bool) -> None:
    battle = s.battle
    assert battle is not None
    lost = s.eliminated[battle.attacker]
    texts = []
    for k, la, li in parts:
        st = s.stacks[k]
        st[2] -= la
        st[3] -= li
        lost[0] += la
        lost[1] += li
        if log:
            texts.append(f"{mix_text(la, li)} from the stack from {source_name(s, st[1])}")
    s.stacks = [st for st in s.stacks if st[2] + st[3] > 0]
    if log and texts:
        events.append({"type": "casualties", "text": f"{side_name(s, battle.attacker)} remove " + ", ".join(texts) + ".", "rule": CASUALTIES})
    outcome(s, events, log)


def outcome(s: PattonState, events: list[Event], log: bool) -> None:
    """Compare totals (Retreating): the lower total retreats, unless one side is wiped out; a tie asks."""
    battle = s.battle
    assert battle is not None
    b = s.board
    t = battle.target
    aa, ai = attacker_force(s)
    da, di = defender_force(s)
    attacker_alive, defender_alive = aa + ai > 0, da + di > 0
    att_total, def_total = sum(battle.att_dice), sum(battle.def_dice)
    if not attacker_alive and not defender_alive:
        if log:
            events.append({"type": "battle_result", "text": f"Both sides' Units in the battle for {b.towns[t].name} are eliminated.", "rule": RETREAT_RULE})
        end_battle(s, events, log)
    elif not defender_alive:
        if log:
            events.append({
                "type": "battle_result",
                "text": f"The {side_name(s, battle.defender)} Units in {b.towns[t].name} are eliminated: the {side_name(s, battle.attacker)} do not "
                        "have to retreat, whatever the totals.",
                "rule": RETREAT_RULE,
            })
        defender_retreats(s, events, log)  # any Units that retreated in and did not fight must leave
    elif not attacker_alive:
        if log:
            events.append({"type": "battle_result", "text": f"The attacking Units are eliminated; the {side_name(s, battle.defender)} hold {b.towns[t].name}.", "rule": RETREAT_RULE})
        end_battle(s, events, log)
    elif att_total > def_total:
        if log:
            events.append({"type": "battle_result", "text": f"{side_name(s, battle.defender)} total {def_total} is lower than {att_total}: they must retreat.", "rule": RETREAT_RULE})
        defender_retreats(s, events, log)
    elif att_total < def_total:
        if log:
            events.append({"type": "battle_result", "text": f"{side_name(s, battle.attacker)} total {att_total} is lower than {def_total}: they must retreat.", "rule": RETREAT_RULE})
        attacker_retreats(s, events, log)
    else:
        s.phase = TIE
        s.actor = battle.attacker
        s.tie_asked = 0
        if log:
            if no_refight(s):
                then = "if both stand, a refight would throw no dice and never end, so the attacker falls back"
            else:
                then = "else the battle is refought"
            events.append({"type": "tie", "text": f"Tie {att_total}-{def_total}: either side may retreat voluntarily (the attacker is asked first); {then}.",
                           "rule": RETREAT_RULE})


def no_refight(s: PattonState) -> bool:
    """Whether neither side of the battle could throw a die in a refight (a lone Infantry Unit against
    a lone Infantry Unit): such a tie would be refought for ever."""
    battle = s.battle
    assert battle is not None
    aa, ai = attacker_force(s)
    da, di = defender_force(s)
    return dice_for(aa, ai) == 0 and dice_for(da, di, battle.bonus) == 0


def tie_decision(s: PattonState, retreat: bool, events: list[Event], log: bool) -> None:
    battle = s.battle
    assert battle is not None
    who = s.actor
    if retreat:
        if log:
            events.append({"type": "tie_retreat", "text": f"The {side_name(s, who)} retreat voluntarily.", "rule": RETREAT_RULE})
        if who == battle.attacker:
            attacker_retreats(s, events, log)
        else:
            defender_retreats(s, events, log, forced=False)
        return
    if log:
        events.append({"type": "tie_stand", "text": f"The {side_name(s, who)} will not retreat.", "rule": RETREAT_RULE})
    if s.tie_asked == 0:
        s.tie_asked = 1
        s.actor = battle.defender
        return
    s.tie_asked = 0
    if no_refight(s):
        # Retreating: "if neither player will retreat the battle is refought" — a refight without dice
        # is the same tie for ever; the attacker, who has not won the town, falls back (NOTES.md).
        if log:
            events.append({"type": "battle_result", "text": "Neither side retreats and neither can throw a die: a refight could never end, "
                           "so the attacker falls back.", "rule": RETREAT_RULE})
        attacker_retreats(s, events, log)
        return
    battle.round += 1
    begin_round(s, events, log)


def attacker_retreats(s: PattonState, events: list[Event], log: bool) -> None:
    """Each attacking stack moves back along its road to the town it came from."""
    battle = s.battle
    assert battle is not None
    b = s.board
    lost = s.eliminated[battle.attacker]
    for st in attacking_stacks(s):
        target, source, armor, infantry, owner = st
        if battle.kind == RETREAT_BATTLE:
            why, rule = "they have no place to retreat and are eliminated", OPTIONAL
        elif source >= b.n:
            why, rule = "Units attempting to land are eliminated", LANDINGS
        elif s.side[source] == 1 - owner:
            why, rule = f"{b.towns[source].name} is now held by the enemy, so they surrender", RETREAT_RULE
        else:
            why = ""
            rule = RETREAT_RULE
        if why:
            lost[0] += armor
            lost[1] += infantry
            if log:
                events.append({"type": "eliminated", "text": f"{side_name(s, owner)} {mix_text(armor, infantry)} outside {b.towns[target].name}: {why}.", "rule": rule})
            continue
        s.side[source] = owner
        s.armor[source] += armor
        s.inf[source] += infantry
        if log:
            events.append({"type": "retreat", "text": f"{side_name(s, owner)} {mix_text(armor, infantry)} retreat back to {b.towns[source].name}.", "rule": RETREAT_RULE})
    s.stacks = [st for st in s.stacks if not (st[0] == battle.target and st[4] == battle.attacker)]
    end_battle(s, events, log)


def defender_retreats(s: PattonState, events: list[Event], log: bool, forced: bool = True) -> None:
    """The defender's Units in the town retreat (up to 5, along enemy-free roads); the retreat
    module asks where, the rest surrender, then the attacker enters. `forced` is False for a
    retreat chosen after a tie: the Optional Retreating Rule's fighting retreat is only for "a
    defending player who is forced to retreat"."""
    battle = s.battle
    assert battle is not None
    t = battle.target
    s.joined_a[t] = s.joined_i[t] = 0  # the battle is over: Units that retreated in leave with the rest
    units = s.armor[t] + s.inf[t] if s.side[t] == battle.defender else 0
    s.retreat = Retreat(t, battle.defender, min(RETREAT_LIMIT, units), forced)
    s.phase = RETREATING
    s.actor = battle.defender
    from .retreat import begin  # retreat builds on this module; imported here, not at the top

    begin(s, events, log)


def enter(s: PattonState, events: list[Event], log: bool) -> None:
    """The winning attacker's stacks move into the town they fought for."""
    battle = s.battle
    assert battle is not None
    t = battle.target
    aa, ai = attacker_force(s)
    s.stacks = [st for st in s.stacks if not (st[0] == t and st[4] == battle.attacker)]
    if aa + ai == 0:
        return
    s.side[t] = battle.attacker
    s.armor[t] += aa
    s.inf[t] += ai
    if log:
        b = s.board
        events.append({"type": "enter", "text": f"{side_name(s, battle.attacker)} {mix_text(aa, ai)} enter {b.towns[t].name}.", "rule": RETREAT_RULE})


def end_battle(s: PattonState, events: list[Event], log: bool) -> None:
    battle = s.battle
    assert battle is not None
    t = battle.target
    s.joined_a[t] = s.joined_i[t] = 0
    if s.armor[t] + s.inf[t] == 0:
        s.side[t] = EMPTY
    s.battle = None
    s.retreat = None
    note_ousted(s)
    update_relief(s, events, log)
    s.phase = BATTLE_ORDER

