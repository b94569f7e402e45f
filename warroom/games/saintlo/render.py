"""Saint-Lo in the terminal: the board as a text hex map (warroom.hexmap_text, the same map data as the
browser's: web/layout.py's `map_features`), each unit as its army's marker and type letter with its
attack, defence and mobility, the Command Posts with their values, then the Supplies, the seat's hand, the
Battle Reports in play and the attack being fought with its exact odds.

Drawn from what the seat to act may see (its observation, position.py), so a hot-seat game never shows a
hand or a face-down deployment to the wrong player; a replay or a game over shows everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text

from warroom.engine.spec import TerminalView
from warroom.hexmap_text import Counter, TextHexMap

from .actions import ATTACK, BUY, DEPLOY, MOVE, PLAY, POST, READY, SECTOR, Action
from .board import load_board
from .names import attack_target, card_name, target_name, unit_id_name
from .placement import shuffle_dice
from .seats import army_of
from .state import Phase
from .web.layout import map_features

if TYPE_CHECKING:
    from warroom.engine.match import Match

MARKER = {"allied": "A", "axis": "X"}
STYLE = {"allied": "bold blue", "axis": "bold red"}
TYPE_LETTER = {"infantry": "F", "tank": "T", "artillery": "R", "aircraft": "V", "supply": "S"}
"""The rulebook's type letters (7), but artillery as R (A is the Allied marker)."""


@cache
def text_map() -> TextHexMap:
    board = load_board()
    terrain, paths, places = map_features(board)
    return TextHexMap(
        board.grid,
        terrain=terrain,
        paths=paths,
        places=places,
        terrain_glyphs={"bocage": ".", "river": "~", "forest": "f", "town": "t"},
    )


def viewer(match: Match) -> str | None:
    """Whose eyes the board is drawn for: the seat to act, or everything once over or between seats."""
    to_act = match.to_act
    return to_act if to_act in match.ruleset.info.sides and not match.over else None


def _counter(rules: Any, uid: str, used: bool) -> Counter:
    t = rules.t
    spec = t.kind_of(t.unit_index[uid])
    attack = f"{spec.attack}/{spec.land_attack}" if spec.type == "aircraft" else str(spec.attack)
    name = f"{TYPE_LETTER[spec.type]}{attack}{spec.defense}{spec.mobility}{'*' if used else ''}"
    return Counter(MARKER[spec.side], name, STYLE[spec.side])


def board_view(match: Match) -> RenderableType:
    rules = match.ruleset
    t = rules.t  # type: ignore[attr-defined]
    side = viewer(match)
    view = rules.observation(match.state, side)
    units: dict[int, list[Counter]] = {}
    for uid, where in view["units"].items():
        units.setdefault(t.hex_of[where["hex"]], []).append(_counter(rules, uid, where["used"]))
    for army, backs in view.get("backs", {}).items():  # the enemy's face-down units (4.3)
        for back in backs:
            name = "V back" if back["air"] else "back"
            units.setdefault(t.hex_of[back["hex"]], []).append(Counter(MARKER[army], name, STYLE[army]))
    for post in view["posts"]:
        if post["hex"] not in (None, "destroyed"):
            units.setdefault(t.hex_of[post["hex"]], []).append(
                Counter(MARKER[post["army"]], f"CP{post['defense']}", STYLE[post["army"]])
            )
    focus = [t.hex_of[w["hex"]] for w in view["units"].values()][:1]
    notes = [
        "F infantry, T tank, R artillery, V aircraft (air/land attack), S supply: attack, defence, mobility; "
        "* used this turn; CPn a Command Post of defence n; back: a face-down unit (V: an aircraft)"
    ]
    drawn = text_map().view(units, {}, focus=focus, sides={"A": "Allied", "X": "Axis"}, notes=notes)
    return Group(drawn, *panel(match, view, side))


def panel(match: Match, view: dict[str, Any], side: str | None) -> list[Text]:
    """The lines under the map: turn and phase, Supplies, posts lost, hands, cards in play, the attack."""
    rules = match.ruleset
    t = rules.t  # type: ignore[attr-defined]
    lines = [
        Text(
            f"Turn {view['turn']} · {match.ruleset.turn_and_phase(match.state)[1]} · "
            f"{view['active'].capitalize()} to play · objective {view['options']['objective']} Command Posts"
        )
    ]
    lines.append(
        Text(
            f"Supplies: Allied {view['supplies']['allied']}, Axis {view['supplies']['axis']} · "
            f"Command Posts lost: Allied {view['lost_posts']['allied']}, Axis {view['lost_posts']['axis']} · "
            f"units used this turn: {view['activations']}/10"
        )
    )
    for seat, hand in view["hands"].items():
        if isinstance(hand, list):
            army = army_of(match.state, rules.seat_index[seat])  # type: ignore[attr-defined]
            names = [t.cards[army][t.card_index[army][c]].name for c in hand]
            lines.append(Text(f"{seat}'s hand: {', '.join(names) or 'empty'}"))
        else:
            lines.append(Text(f"{seat} holds {hand} Battle Reports"))
    if "face_down" in view:
        for army, n in view["face_down"].items():
            lines.append(Text(f"{army.capitalize()}: {n} units deployed face down (4.3)"))
    for effect in view["effects"]:
        army = 0 if effect["army"] == "allied" else 1
        card = t.cards[army][t.card_index[army][effect["card"]]]
        target = f" on {unit_id_name(t, match.state, effect['unit'])}" if effect["unit"] else ""
        lines.append(Text(f"In play ({effect['army']}): {card.name}{target}: {card.text}"))
    attack = view.get("attack")
    if attack:
        from .calculator import SaintLoOdds

        s = match.state
        pending = SaintLoOdds().battle_odds(rules, s, side)
        odds = f" · {pending[0]['text']}" if pending else ""
        helpers = [unit_id_name(t, s, x) for x in attack["supporters"]]
        support = f" with {', '.join(helpers)}" if helpers else ""
        assert s.attack is not None
        target = target_name(t, s, s.attack)
        lines.append(Text(f"Attack: {unit_id_name(t, s, attack['attacker'])}{support} on {target}{odds}", style="bold"))
    return lines


def render_board(match: Match) -> RenderableType:
    return board_view(match)


def action_label(match: Match, action: str) -> str:
    """The rules' label, and for an attack its exact odds (6.2) with the dice now."""
    label = match.ruleset.describe_action(match.state, action)
    if action.startswith("attack ") or action == "fire":
        from .calculator import SaintLoOdds

        odds = SaintLoOdds().action_odds(match.ruleset, match.state, action)
        if odds:
            return f"{label} [{odds['text']}]"
    return label


def action_path(match: Match, action: str) -> tuple[str, ...]:
    """A stepped menu for long lists, all in words (an id is never shown): first what acts or is placed (a
    counter, a kind, a Command Post's value, a Battle Report), then the rest of the action; an action of its
    own (done, end, fire, a swap) is its label."""
    t = match.ruleset.t  # type: ignore[attr-defined]
    s = match.state
    act = Action.from_id(action)
    k = act.kind
    if k == MOVE:
        return (f"Move {unit_id_name(t, s, act.subject)}", f"to {act.where}")
    if k == ATTACK:
        odds = action_label(match, action)[len(match.ruleset.describe_action(s, action)) :]
        return (
            f"Attack with {unit_id_name(t, s, act.subject)}",
            f"{attack_target(t, s, act.subject, act.where)}{odds}",
        )
    if k in (DEPLOY, BUY):
        kind = t.kind_index.get(act.subject)
        name = t.kinds[kind].name if kind is not None else act.subject
        cost = f" ({t.kinds[kind].cost} Supplies)" if k == BUY and kind is not None else ""
        return (f"{'Deploy' if k == DEPLOY else 'Buy'} {name}{cost}", f"on {act.where}")
    if k == POST:
        return (f"Place a Command Post of defence {act.where}", f"on {act.subject}")
    if k == PLAY and act.where:
        card = card_name(t, army_of(s, s.seat), act.subject)
        return (f'Play "{card}"', f"on {unit_id_name(t, s, act.where)}")
    return (action_label(match, action),)


def status_line(match: Match) -> Text:
    """The turn, Supplies and posts lost; in the setup, where the menu keeps the choices that place all the rest."""
    s = match.state
    if s.phase in (Phase.POSTS, Phase.DEPLOY):  # 4.2, 4.3: `ready` and `sector NAME` (placement.py) close the menu
        return Text("Saint-Lo · setup · to place all the rest at once, take one of the last entries of the menu")
    return Text(
        f"Saint-Lo · turn {s.turn} · Supplies {s.supplies[0]}/{s.supplies[1]} · posts lost "
        f"{s.lost_posts[0]}/{s.lost_posts[1]} (Allied/Axis)"
    )


def roll_name(match: Match) -> str | None:
    """A Battle Report is turned up, not rolled: the terminal asks for its number by that name (9)."""
    return "Battle Report" if match.state.phase == Phase.DRAW else None


def pending_roll(match: Match) -> RenderableType | None:
    """At a card typed in at the table: the number of every Battle Report of the drawer's deck (all of them,
    not only those left, which would show the table the drawer's hands: the spec's `entry_outcomes`)."""
    s = match.state
    if s.phase == Phase.DEPLOY and s.bulk != -1:  # a deployment in bulk's dice (placement.py)
        dealing = shuffle_dice(match.ruleset.t, s)  # type: ignore[attr-defined]
        k = len(s.bulk_dice)
        if k < dealing:
            return Text(
                f"Die {k + 1} of {dealing + 1}: the first {dealing} deal the counters among their hexes (the backs do "
                "not show which is where); the last varies the hexes (4.3)."
            )
        return Text(f"Die {k + 1} of {dealing + 1}: each face gives the computer's placement a different turn (4.3).")
    if s.phase != Phase.DRAW or not s.draw_queue:
        return None
    cards = match.ruleset.t.cards[army_of(s, s.draw_queue[0])]  # type: ignore[attr-defined]
    return Text("Battle Reports: " + ", ".join(f"{k} {card.name}" for k, card in enumerate(cards)))


def action_order(match: Match, actions: Sequence[str]) -> list[str]:
    """The menu's order: the setup in bulk first (4.2, 4.3: the computer's placement, a sector at once), so a
    player meets the one-decision setup before the 146 single placements; the rules' order otherwise. The legal
    list itself keeps them last, where scripts that take the first action expect single placements."""
    bulk = [a for a in actions if a == READY or a.startswith(SECTOR + " ")]
    return bulk + [a for a in actions if a not in bulk] if bulk else list(actions)


def terminal_view() -> TerminalView:
    """Saint-Lo's part of the terminal (the spec's `terminal`); its help is the spec's `help`."""
    return TerminalView(
        render_board=render_board,
        action_label=action_label,
        action_path=action_path,
        status_line=status_line,
        pending_roll=pending_roll,
        roll_name=roll_name,
        action_order=action_order,
    )
