"""Battles: dice, casualties, who must retreat, ties, the attacker's retreat and the winner entering.

A battle is fought for one town by every stack the attacker stopped outside it ("considered
as a single attack force"). The dice are rolled one die at a time (chance nodes: the
attacker's dice, then the defender's), so a player at the table can type each die.

Rule citations: "Patton: Battles", "Patton: Casualties", "Patton: Retreating".
"""

from __future__ import annotations

from warroom.engine.events import Events

from .board import mix_text
from .combat import casualties_from, dice_for, losses
from .objectives import note_ousted, update_relief
from .state import (
    BATTLE_ORDER,
    CASUALTY,
    DICE,
    EMPTY,
    RETREAT_BATTLE,
    RETREATING,
    TIE,
    Battle,
    PattonState,
    Retreat,
    Stack,
)

BATTLES = "Patton: Battles"
CASUALTIES = "Patton: Casualties"
RETREAT_RULE = "Patton: Retreating"
OPTIONAL = "Patton: Optional Retreating Rule for Advanced Players"
LANDINGS = "Patton: Sicily — Allied Landings"
RETREAT_LIMIT = 5  # "moves his Units, up to a maximum of 5"


def attacking_stacks(s: PattonState) -> list[Stack]:
    battle = s.battle
    assert battle is not None
    return [st for st in s.stacks if st.target == battle.target and st.owner == battle.attacker]


def attacker_force(s: PattonState) -> tuple[int, int]:
    armor = infantry = 0
    for st in attacking_stacks(s):
        armor += st.armor
        infantry += st.infantry
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


def start_battle(s: PattonState, target: int, events: Events) -> None:
    s.battle = Battle(target, s.mover)
    begin_round(s, events)


def start_retreat_battle(
    s: PattonState, target: int, from_town: int, armor: int, infantry: int, side: int, events: Events
) -> None:
    """Optional Retreating Rule: the retreating defender fights for an enemy town, the enemy +2 dice."""
    s.stacks.append(Stack(target, from_town, armor, infantry, side))
    s.battle = Battle(target, side, RETREAT_BATTLE, bonus=2, from_town=from_town)
    if events.on:
        b = s.board
        events.emit(
            "retreat_battle",
            f"{mix_text(armor, infantry)} retreat from {b.towns[from_town].name} towards {b.towns[target].name}, "
            f"held by the {side_name(s, 1 - side)}: they fight for it, the {side_name(s, 1 - side)} adding 2 dice; a "
            "lower total eliminates them.",
            OPTIONAL,
        )
    begin_round(s, events)


def begin_round(s: PattonState, events: Events) -> None:
    battle = s.battle
    assert battle is not None
    aa, ai = attacker_force(s)
    da, di = defender_force(s)
    battle.n = dice_for(aa, ai)
    battle.m = dice_for(da, di, battle.bonus)
    battle.att_dice = []
    battle.def_dice = []
    if events.on:
        from .odds import round_odds

        b = s.board
        odds = round_odds(battle.n, battle.m)
        again = f" (refought, round {battle.round})" if battle.round > 1 else ""
        events.emit(
            "battle",
            f"Battle for {b.towns[battle.target].name}{again}: {side_name(s, battle.attacker)} "
            f"{mix_text(aa, ai) or 'none'} throw {battle.n} {_dice(battle.n)}, {side_name(s, battle.defender)} "
            f"{mix_text(da, di) or 'none'} throw {battle.m} {_dice(battle.m)}. Odds of the dice totals alone: "
            f"attacker higher {odds[0]:.0%}, tie {odds[1]:.0%}, defender higher {odds[2]:.0%}.",
            BATTLES,
            attacker_dice=battle.n,
            defender_dice=battle.m,
        )
    if battle.n + battle.m == 0:
        resolve_round(s, events)
    else:
        s.phase = DICE


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


def roll(s: PattonState, value: int, events: Events) -> None:
    """One die of the battle: the attacker's first, then the defender's."""
    battle = s.battle
    assert battle is not None
    if len(battle.att_dice) < battle.n:
        battle.att_dice.append(value)
    else:
        battle.def_dice.append(value)
    if len(battle.att_dice) == battle.n and len(battle.def_dice) == battle.m:
        resolve_round(s, events)


def resolve_round(s: PattonState, events: Events) -> None:
    """Casualties on both sides, then (once the attacker has chosen where his fall) the retreat."""
    battle = s.battle
    assert battle is not None
    b = s.board
    t = battle.target
    on_defender = casualties_from(battle.att_dice)
    on_attacker = casualties_from(battle.def_dice)
    if events.on:
        events.emit(
            "battle_dice",
            f"{side_name(s, battle.attacker)} throw {_show(battle.att_dice)} (total {sum(battle.att_dice)}, "
            f"{on_defender} {_cas(on_defender)}); {side_name(s, battle.defender)} throw {_show(battle.def_dice)} "
            f"(total {sum(battle.def_dice)}, {on_attacker} {_cas(on_attacker)}).",
            CASUALTIES,
            attacker_dice=list(battle.att_dice),
            defender_dice=list(battle.def_dice),
        )
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
        if events.on:
            events.emit(
                "casualties",
                f"{side_name(s, battle.defender)} in {b.towns[t].name} remove {mix_text(la, li)}.",
                CASUALTIES,
            )
    aa, ai = attacker_force(s)
    la, li = losses(on_attacker, aa, ai)
    if la + li == 0:
        outcome(s, events)
        return
    options = casualty_options(s, la, li)
    if len(options) == 1:
        apply_casualties(s, options[0], events)
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
    battle = s.battle
    assert battle is not None
    index = [k for k, st in enumerate(s.stacks) if st.target == battle.target and st.owner == battle.attacker]
    stacks = [s.stacks[k] for k in index]
    out: list[tuple[tuple[int, int, int], ...]] = []

    def split(total: int, caps: list[int]) -> list[list[int]]:
        if not caps:
            return [[]] if total == 0 else []
        result = []
        for take in range(min(total, caps[0]) + 1):
            for rest in split(total - take, caps[1:]):
                result.append([take, *rest])
        return result

    for armor_split in split(la, [st.armor for st in stacks]):
        for inf_split in split(li, [st.infantry for st in stacks]):
            out.append(
                tuple(
                    (index[k], armor_split[k], inf_split[k])
                    for k in range(len(stacks))
                    if armor_split[k] + inf_split[k]
                )
            )
    return out


def source_name(s: PattonState, source: int) -> str:
    b = s.board
    return b.names[source] if source < b.n else b.landings[source - b.n].id


def apply_casualties(s: PattonState, parts: tuple[tuple[int, int, int], ...], events: Events) -> None:
    battle = s.battle
    assert battle is not None
    lost = s.eliminated[battle.attacker]
    texts = []
    for k, la, li in parts:
        st = s.stacks[k]
        s.stacks[k] = st._replace(armor=st.armor - la, infantry=st.infantry - li)
        lost[0] += la
        lost[1] += li
        if events.on:
            texts.append(f"{mix_text(la, li)} from the stack from {source_name(s, st.source)}")
    s.stacks = [st for st in s.stacks if st.armor + st.infantry > 0]
    if events.on and texts:
        events.emit("casualties", f"{side_name(s, battle.attacker)} remove " + ", ".join(texts) + ".", CASUALTIES)
    outcome(s, events)


def outcome(s: PattonState, events: Events) -> None:
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
        if events.on:
            events.emit(
                "battle_result",
                f"Both sides' Units in the battle for {b.towns[t].name} are eliminated.",
                RETREAT_RULE,
            )
        end_battle(s, events)
    elif not defender_alive:
        if events.on:
            events.emit(
                "battle_result",
                f"The {side_name(s, battle.defender)} Units in {b.towns[t].name} are eliminated: the "
                f"{side_name(s, battle.attacker)} do not have to retreat, whatever the totals.",
                RETREAT_RULE,
            )
        defender_retreats(s, events)  # any Units that retreated in and did not fight must leave
    elif not attacker_alive:
        if events.on:
            events.emit(
                "battle_result",
                f"The attacking Units are eliminated; the {side_name(s, battle.defender)} hold {b.towns[t].name}.",
                RETREAT_RULE,
            )
        end_battle(s, events)
    elif att_total > def_total:
        if events.on:
            events.emit(
                "battle_result",
                f"{side_name(s, battle.defender)} total {def_total} is lower than {att_total}: they must retreat.",
                RETREAT_RULE,
            )
        defender_retreats(s, events)
    elif att_total < def_total:
        if events.on:
            events.emit(
                "battle_result",
                f"{side_name(s, battle.attacker)} total {att_total} is lower than {def_total}: they must retreat.",
                RETREAT_RULE,
            )
        attacker_retreats(s, events)
    else:
        s.phase = TIE
        s.actor = battle.attacker
        s.tie_asked = 0
        if events.on:
            if no_refight(s):
                then = "if both stand, a refight would throw no dice and never end, so the attacker falls back"
            else:
                then = "else the battle is refought"
            events.emit(
                "tie",
                f"Tie {att_total}-{def_total}: either side may retreat voluntarily (the attacker is asked first); "
                f"{then}.",
                RETREAT_RULE,
            )


def no_refight(s: PattonState) -> bool:
    """Whether neither side of the battle could throw a die in a refight (a lone Infantry Unit against
    a lone Infantry Unit): such a tie would be refought for ever."""
    battle = s.battle
    assert battle is not None
    aa, ai = attacker_force(s)
    da, di = defender_force(s)
    return dice_for(aa, ai) == 0 and dice_for(da, di, battle.bonus) == 0


def tie_decision(s: PattonState, retreat: bool, events: Events) -> None:
    battle = s.battle
    assert battle is not None
    who = s.actor
    if retreat:
        if events.on:
            events.emit("tie_retreat", f"The {side_name(s, who)} retreat voluntarily.", RETREAT_RULE)
        if who == battle.attacker:
            attacker_retreats(s, events)
        else:
            defender_retreats(s, events, forced=False)
        return
    if events.on:
        events.emit("tie_stand", f"The {side_name(s, who)} will not retreat.", RETREAT_RULE)
    if s.tie_asked == 0:
        s.tie_asked = 1
        s.actor = battle.defender
        return
    s.tie_asked = 0
    if no_refight(s):
        # Retreating: "if neither player will retreat the battle is refought" — a refight without dice
        # is the same tie for ever; the attacker, who has not won the town, falls back (NOTES.md).
        if events.on:
            events.emit(
                "battle_result",
                "Neither side retreats and neither can throw a die: a refight could never end, so the attacker "
                "falls back.",
                RETREAT_RULE,
            )
        attacker_retreats(s, events)
        return
    battle.round += 1
    begin_round(s, events)


def attacker_retreats(s: PattonState, events: Events) -> None:
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
            if events.on:
                events.emit(
                    "eliminated",
                    f"{side_name(s, owner)} {mix_text(armor, infantry)} outside {b.towns[target].name}: {why}.",
                    rule,
                )
            continue
        s.side[source] = owner
        s.armor[source] += armor
        s.inf[source] += infantry
        if events.on:
            events.emit(
                "retreat",
                f"{side_name(s, owner)} {mix_text(armor, infantry)} retreat back to {b.towns[source].name}.",
                RETREAT_RULE,
            )
    s.stacks = [st for st in s.stacks if not (st.target == battle.target and st.owner == battle.attacker)]
    end_battle(s, events)


def defender_retreats(s: PattonState, events: Events, forced: bool = True) -> None:
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

    begin(s, events)


def enter(s: PattonState, events: Events) -> None:
    """The winning attacker's stacks move into the town they fought for."""
    battle = s.battle
    assert battle is not None
    t = battle.target
    aa, ai = attacker_force(s)
    s.stacks = [st for st in s.stacks if not (st.target == t and st.owner == battle.attacker)]
    if aa + ai == 0:
        return
    s.side[t] = battle.attacker
    s.armor[t] += aa
    s.inf[t] += ai
    if events.on:
        b = s.board
        events.emit(
            "enter",
            f"{side_name(s, battle.attacker)} {mix_text(aa, ai)} enter {b.towns[t].name}.",
            RETREAT_RULE,
        )


def end_battle(s: PattonState, events: Events) -> None:
    battle = s.battle
    assert battle is not None
    t = battle.target
    s.joined_a[t] = s.joined_i[t] = 0
    if s.armor[t] + s.inf[t] == 0:
        s.side[t] = EMPTY
    s.battle = None
    s.retreat = None
    note_ousted(s)
    update_relief(s, events)
    s.phase = BATTLE_ORDER
