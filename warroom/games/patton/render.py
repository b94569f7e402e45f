"""Patton on the terminal: the board as a table of towns and roads, the objective, the cards,
the battle in progress with its exact odds and pending rolls, drawn with rich; `terminal_view` hands
them to the terminal through the spec (the help is help.py's, shared with the browser).

Drawn from the state alone (nothing in Patton is hidden), so the same function serves play,
replay and tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from warroom.engine.spec import TerminalView

from .actions import LAND, MOVE, PLACE, REMOVE, RETREAT
from .battle import attacker_force, defender_force
from .board import mix_text
from .combat import dice_for
from .objectives import red_towns_held
from .odds import attackers_outside, fighting_defenders, round_odds, round_outcome
from .state import CARD, DICE, OVER, PHASE_NAMES, RESERVE_DICE, TIE, PattonState

if TYPE_CHECKING:
    from warroom.engine.match import Match

    from .rules import PattonRules

SIDE_STYLE = ("bold white on blue3", "bold white on red3")
SIDE_TEXT = ("bold blue", "bold red")
ROAD_MARK = {"solid": "━", "dashed": "╌", "dotted": "┈"}


def render_board(match: Match) -> RenderableType:
    return board_view(match.state)


def action_label(match: Match, action: str) -> str:
    """The rules' plain-language label; an action that starts, joins or refights a battle adds its
    exact first-round odds, so the choice is made knowing them (Patton: Battles)."""
    label = match.ruleset.describe_action(match.state, action)
    note = odds_note(match, action)
    return f"{label} {note}" if note else label


def odds_note(match: Match, action: str) -> str:
    """`[2 v 1 dice · first round: win 60%, tie 10%, lose 30%]` for an action that fights, else "".

    The figures are one round's result with its casualties (the enemy retreats or is wiped out /
    a tie / you fall back or are wiped out), not the bare comparison of dice totals the battle
    line also gives; a tie is refought or ended by a voluntary retreat."""
    rules: PattonRules = match.ruleset  # type: ignore[assignment]
    odds = rules.action_odds(match.state, action)
    if not odds:
        return ""
    mine, theirs = odds["dice"]
    o = odds["outcome"]
    return f"[{mine} v {theirs} dice · first round: win {o['win']:.0%}, tie {o['tie']:.0%}, lose {o['lose']:.0%}]"


def action_path(match: Match, action: str) -> tuple[str, ...]:
    """The steps a player takes to this action in a step menu (warroom/menus.py): where from, where
    to, then which Units (with the exact odds of an attack). Other actions are one step."""
    s: PattonState = match.state
    b = s.board
    rules: PattonRules = match.ruleset  # type: ignore[assignment]
    act = rules.table(b).parse(action)
    if act is None:
        return (action_label(match, action),)
    kind = act.kind
    if kind == MOVE:
        d, armor, infantry = act.where, act.armor, act.infantry
        x, y = _road_ends(s, d)
        road = d >> 1
        cost = b.road_cost[road]
        used = f", {s.seg[road]}/5 Units used it" if s.seg[road] else ""
        attack = s.side[y] == 1 - s.mover
        where = (
            f"attack {b.towns[y].name} ({b.side_names[s.side[y]]} {mix_text(s.armor[y], s.inf[y])})"
            if attack
            else f"to {b.towns[y].name} ({_holder(s, y)})"
        )
        leaf = f"{mix_text(armor, infantry)} ({(armor + infantry) * cost} MP)"
        note = odds_note(match, action) if attack else ""
        return (
            f"From {b.towns[x].name} ({mix_text(s.armor[x], s.inf[x])})",
            f"{where} · {b.road_kind[road]} road, {cost} MP a Unit{used}",
            f"{leaf} {note}".strip(),
        )
    if kind == LAND:
        k, armor, infantry = act.where, act.armor, act.infantry
        town = b.landing_town[k]
        fight = f", {b.side_names[1]} {mix_text(s.armor[town], s.inf[town])}: fight for it" if s.side[town] == 1 else ""
        leaf = f"{mix_text(armor, infantry)} ({armor + infantry} MP) {odds_note(match, action)}".strip()
        return (
            f"Land from offshore ({mix_text(*s.offboard)})",
            f"at {b.landings[k].id} into {b.towns[town].name}{fight} · "
            f"{b.landing_capacity[k] - s.land_used[k]} Units can land there",
            leaf,
        )
    if kind == RETREAT:
        d, armor, infantry = act.where, act.armor, act.infantry
        x, y = _road_ends(s, d)
        into = (
            f"towards enemy-held {b.towns[y].name}, fighting for it (enemy +2 dice)"
            if s.side[y] == 1 - s.actor
            else f"to {b.towns[y].name}"
        )
        return (
            f"Retreat from {b.towns[x].name} {into}",
            f"{mix_text(armor, infantry)} {odds_note(match, action)}".strip(),
        )
    if kind == PLACE:
        return (f"Place in {b.towns[act.where].name}", mix_text(act.armor, act.infantry))
    if kind == REMOVE:
        return (f"Remove from {b.towns[act.where].name} (more than 10 Units)", mix_text(act.armor, act.infantry))
    return (action_label(match, action),)


def _road_ends(s: PattonState, d: int) -> tuple[int, int]:
    x, y = s.board.road_ends[d >> 1]
    return (y, x) if d & 1 else (x, y)


def _holder(s: PattonState, t: int) -> str:
    owner = s.side[t]
    return "empty" if owner < 0 else f"{s.board.side_names[owner]} {mix_text(s.armor[t], s.inf[t])}"


def _attack_odds(s: PattonState, town: int, attacker: int) -> str:
    """An attack set up and not yet fought: forces, dice and its exact first-round result."""
    b = s.board
    aa, ai = attackers_outside(s, town, attacker)
    da, di = fighting_defenders(s, town)
    return (
        f"{b.towns[town].name}: {b.side_names[attacker]} {mix_text(aa, ai)} ({_dice(dice_for(aa, ai))}) against "
        f"{mix_text(da, di)} ({_dice(dice_for(da, di))}): {round_text(aa, ai, da, di, 0)}"
    )


def round_text(aa: int, ai: int, da: int, di: int, bonus: int) -> str:
    """One round's exact result from the attacker's side, casualties and the no-dice fall-back included,
    then the bare comparison of dice totals (the battle event's "attacker higher"), each labelled:
    the two differ because a side wiped out by casualties loses whatever its total."""
    o = round_outcome(aa, ai, da, di, bonus)
    higher, tie, lower = round_odds(dice_for(aa, ai), dice_for(da, di, bonus))
    return (
        f"this round, casualties counted: attacker takes it {float(o['attacker_wins']):.0%}, "
        f"tie {float(o['tie']):.0%}, attacker falls back {float(o['defender_wins'] + o['both_eliminated']):.0%} · "
        f"dice totals alone: attacker higher {higher:.0%}, tie {tie:.0%}, defender higher {lower:.0%}"
    )


def board_view(s: PattonState) -> RenderableType:
    parts: list[RenderableType] = [_header(s), _objective(s), _towns(s)]
    if s.stacks:
        parts.append(_stacks(s))
    if s.battle is not None:
        parts.append(_battle(s))
    parts.append(Text("h: help · the odds of every battle are shown before its dice", style="dim"))
    return Group(*parts)


def status_line(match: Match) -> Text:
    """The header's first line (scenario, turn, whose phase, MP left): shown between two decisions of one phase."""
    return _header(match.state).split("\n")[0]


def _header(s: PattonState) -> Text:
    b = s.board
    names = b.side_names
    text = Text()
    text.append(b.title.upper(), style="bold")
    last = b.turns or s.turn_limit
    text.append(f" · turn {s.turn}/{last} · ")
    if s.phase == OVER:
        text.append("game over", style="bold")
    else:
        text.append(
            f"{names[s.mover]}: {PHASE_NAMES[s.phase] if s.phase < len(PHASE_NAMES) else ''}", style="bold cyan"
        )
        text.append(f" · MP {s.mp} of {s.mp_total}")
    text.append("\nCards face up: ")
    for side in (0, 1):
        shown = s.cards[side]
        text.append(f"{names[side]} ")
        text.append(" ".join(map(str, shown[-4:])) or "-", style="bold")
        text.append("   ")
    unseen = [f"{v}×{c}" if c > 1 else str(v) for v, c in enumerate(s.pool) if c]
    text.append("· not yet turned: " + (" ".join(unseen) or "none"), style="dim")
    return text


def _objective(s: PattonState) -> Text:
    b = s.board
    names = b.side_names
    text = Text()
    if b.objective == "red_towns":
        held = [b.towns[t].name for t in b.red_towns if s.side[t] == 0]
        text.append(
            f"Red towns held by the {names[0]}: {red_towns_held(s)} (5 needed at the end of a {names[1]} turn)",
            style="bold",
        )
        if held:
            text.append(": " + ", ".join(held))
    elif b.objective == "relief_and_hold":
        text.append(f"{b.towns[b.relieve].name}: ", style="bold")
        text.append(
            "relieved" if s.relieved else "besieged (its Units cannot move or fight)",
            style="green" if s.relieved else "yellow",
        )
        text.append(f" · {b.towns[b.hold].name}: ", style="bold")
        if s.held:
            text.append("taken and held", style="green")
        else:
            text.append(f"held by the {names[s.side[b.hold]]}" if s.side[b.hold] >= 0 else "empty")
    else:
        text.append(f"{b.towns[b.hold].name}: ", style="bold")
        text.append(f"held by the {names[s.side[b.hold]]}" if s.side[b.hold] >= 0 else "empty")
        text.append(f" · {names[0]} offshore: {mix_text(*s.offboard) or 'none'}")
        used = [b.towns[t].name for t in b.defection_towns if s.defection_used[t]]
        text.append(f" · defections used: {', '.join(used) or 'none'}", style="dim")
    lost = f" · lost: {names[0]} {mix_text(*s.eliminated[0]) or '0'}, {names[1]} {mix_text(*s.eliminated[1]) or '0'}"
    text.append(lost, style="dim")
    return text


def _marks(s: PattonState, t: int) -> str:
    b = s.board
    marks = ""
    if b.red[t]:
        marks += " ●"
    if b.star[t]:
        marks += " *"
    if b.defection[t]:
        marks += f" ({b.defection[t]}{'✓' if s.defection_used[t] else ''})"
    return marks


def side_tags(names: tuple[str, str]) -> tuple[str, str]:
    """Short owner marks for road ends, in text so they read without colour: the names' first
    letters (G for German), or as many letters as tell them apart (Al, Ax)."""
    k = 1
    while k < min(map(len, names)) and names[0][:k].lower() == names[1][:k].lower():
        k += 1
    return names[0][:k], names[1][:k]


def _towns(s: PattonState) -> Table:
    """Every town with its holder and Units, in text as well as colour (a monochrome or piped
    console shows who holds what), and its roads: each road's end says who holds it."""
    b = s.board
    tags = side_tags(b.side_names)
    table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    table.add_column("town")
    table.add_column("held by")
    table.add_column("units", justify="right")
    table.add_column(
        Text(
            f"roads (MP a Unit; [{tags[0]}] {b.side_names[0]}-held, [{tags[1]}] {b.side_names[1]}-held; "
            "Units used this turn)"
        )
    )
    for t in sorted(range(b.n), key=lambda t: (s.side[t] < 0, s.side[t], b.towns[t].name)):
        owner = s.side[t]
        name = Text(b.towns[t].name, style="bold" if owner >= 0 else "dim")
        name.append(_marks(s, t), style="red" if b.red[t] else "yellow")
        holder = Text(b.side_names[owner], style=SIDE_TEXT[owner]) if owner >= 0 else Text("-", style="dim")
        units = Text(mix_text(s.armor[t], s.inf[t]), style=SIDE_STYLE[owner]) if owner >= 0 else Text("")
        roads = Text()
        for _, road, to, cost in b.out[t]:
            if roads:
                roads.append("  ")
            roads.append(f"{ROAD_MARK[b.road_kind[road]]}{cost} ", style="dim")
            end = s.side[to]
            roads.append(b.towns[to].name, style=("blue" if end == 0 else "red" if end == 1 else ""))
            if end >= 0:
                roads.append(f"[{tags[end]}]", style=SIDE_TEXT[end])
            if s.seg[road]:
                roads.append(f" {s.seg[road]}/5 used", style="yellow")
        table.add_row(name, holder, units, roads)
    for k, la in enumerate(b.landings):
        if s.offboard[0] + s.offboard[1]:
            table.add_row(
                Text(la.id, style="dim"),
                Text(""),
                Text(f"{s.land_used[k]}/{b.landing_capacity[k]}", style="dim"),
                Text(f"lands at {b.towns[b.landing_town[k]].name}", style="dim"),
            )
    return table


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _stacks(s: PattonState) -> Text:
    b = s.board
    text = Text("Attacks waiting outside towns: ", style="bold")
    items = []
    for target, source, armor, infantry, owner in s.stacks:
        src = b.towns[source].name if source < b.n else b.landings[source - b.n].id
        items.append(f"{b.side_names[owner]} {mix_text(armor, infantry)} {src} → {b.towns[target].name}")
    text.append("; ".join(items))
    fighting = s.battle.target if s.battle is not None else -1
    for target in sorted({st.target for st in s.stacks if st.target != fighting}, key=lambda t: b.towns[t].name):
        attacker = next(st.owner for st in s.stacks if st.target == target)
        text.append("\n  odds · " + _attack_odds(s, target, attacker), style="cyan")
    return text


def _battle(s: PattonState) -> Text:
    """The battle being fought, with the exact odds of this round (casualties and retreats included)."""
    battle = s.battle
    assert battle is not None
    b = s.board
    aa, ai = attacker_force(s)
    da, di = defender_force(s)
    n, m = dice_for(aa, ai), dice_for(da, di, battle.bonus)
    text = Text(f"Battle for {b.towns[battle.target].name}", style="bold")
    text.append(
        f" (round {battle.round}): {b.side_names[battle.attacker]} {mix_text(aa, ai)} ({_dice(n)}) "
        f"against {b.side_names[battle.defender]} {mix_text(da, di)} ({_dice(m)})"
    )
    # Odds only while they are still to be decided: the round's dice (DICE), or the refight a tie
    # may lead to (TIE, with the forces left). Once thrown, the round's odds would be stale.
    if s.phase in (DICE, TIE):
        lead = "if refought: " if s.phase == TIE else ""
        text.append(f" · {lead}{round_text(aa, ai, da, di, battle.bonus)}", style="cyan")
        if s.phase == DICE and (battle.att_dice or battle.def_dice):
            text.append(" (before the first die)", style="dim")
    if battle.att_dice or battle.def_dice:
        text.append(
            f" · thrown: {'-'.join(map(str, battle.att_dice)) or '–'} / {'-'.join(map(str, battle.def_dice)) or '–'}"
        )
    return text


def pending_roll(match: Match) -> RenderableType | None:
    """What the card or die about to be rolled decides."""
    s: PattonState = match.state
    b = s.board
    if s.phase == CARD:
        left = sum(s.pool)
        chances = ", ".join(f"{v}: {c}/{left}" for v, c in enumerate(s.pool) if c)
        return Text(
            f"Turn up the {b.side_names[s.mover]} movement card (MP = card + the opponent's face-up card). "
            f"Chances: {chances}"
        )
    if s.phase == DICE and s.battle is not None:
        battle = s.battle
        if len(battle.att_dice) < battle.n:
            who, k, n = battle.attacker, len(battle.att_dice) + 1, battle.n
        else:
            who, k, n = battle.defender, len(battle.def_dice) + 1, battle.m
        prompt = Text(f"{b.side_names[who]} die {k} of {n}. ", style="bold")
        prompt.append(_battle(s))
        return prompt
    if s.phase == RESERVE_DICE:
        return Text(
            f"{b.side_names[s.mover]} reserve dice: die {len(s.reserve_dice) + 1} of 3 (a double brings reserves)."
        )
    return None


def roll_name(match: Match) -> str | None:
    """A movement card is turned up, not rolled: the terminal asks for its value by that name."""
    return "movement card" if match.state.phase == CARD else None


def event_style(event: dict[str, Any]) -> str:
    kind = event.get("type", "")
    if kind == "game_over":
        return "bold green"
    if kind in ("battle", "battle_result"):
        return "bold"
    if kind in ("casualties", "eliminated", "surrender", "stacking", "defect"):
        return "red"
    if kind in ("card", "relieved", "objective", "reserves"):
        return "cyan"
    return ""


def terminal_view() -> TerminalView:
    """Patton's part of the terminal (the spec's `terminal`); its help is the spec's `help`, its
    sides' names the scenario's `terms`."""
    return TerminalView(
        render_board=render_board,
        action_label=action_label,
        action_path=action_path,
        pending_roll=pending_roll,
        event_style=event_style,
        roll_name=roll_name,
        status_line=status_line,
    )
