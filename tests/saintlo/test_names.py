"""Saint-Lo speaks to players in their words (issue item 2): every text a front end shows names a counter by its
printed name and hex ("Tiger I at 1408"), a Battle Report by its printed title ("Hedgerow Position", not
`dug_in`), and a throw as its dice ("6 and 2 against 6, 3 and 1"); ids (`de_tiger_i.1`) stay what actions,
records and scripts speak.

Seeded games of the two-player and the team game (10), played by the heuristic and by random choices, are read
through each front end's words at every decision: the terminal's labels, step-menu paths and menus
(warroom/menus.py) and its board panel, the browser's action descriptors (warroom.web.layouts), the odds texts,
the events the log and the terminal print, the computer's reasons, and the protocol's events and odds answers.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from rich.console import Console

import warroom
from warroom.ai import get_agent
from warroom.engine.match import Match
from warroom.engine.ruleset import DICE_SIDE
from warroom.games.saintlo.calculator import SaintLoOdds
from warroom.games.saintlo.names import dice_words, unit_name
from warroom.games.saintlo.state import Phase
from warroom.menus import build_level, step_into
from warroom.protocol import ProtocolSession
from warroom.terminal import load_renderer
from warroom.web.layouts import describe_actions

ID = re.compile(r"\b(us|de)_[a-z0-9_]+(\.\d+)?\b")
"""A counter's or a kind's id: never in a text a player reads."""
SAMPLE = 60
"""Actions a decision's long list is read through (at random, and the first of each kind): some 2,500 at a
deployment."""


def _ids_in(texts: Iterator[str] | list[str]) -> list[str]:
    return [text for text in texts if ID.search(text)]


def _sample(legal: list[str], rng: random.Random) -> list[str]:
    if len(legal) <= SAMPLE:
        return legal
    first = {}
    for action in legal:
        first.setdefault(action.split(" ", 1)[0], action)
    return [*first.values(), *rng.sample(legal, SAMPLE)]


def _shown_at(m: Match, game: str, rng: random.Random, board: bool) -> Iterator[str]:
    """Every text the front ends show at this decision, for a sample of its actions."""
    renderer = load_renderer(game)
    legal = m.legal_actions()
    actions = _sample(legal, rng)
    odds = SaintLoOdds()
    for action in actions:
        yield renderer.action_label(m, action)  # the terminal's menu line, odds included
        if renderer.action_path is not None:
            yield from renderer.action_path(m, action)
        found = odds.action_odds(m.ruleset, m.state, action)
        if found:
            yield found["text"]
    for d in describe_actions(m, actions):  # the browser's buttons and the payload's `labels`
        yield d["label"]
    paths = {a: renderer.action_path(m, a) for a in legal} if renderer.action_path else {}
    label = lambda a: renderer.action_label(m, a)  # noqa: E731 - the terminal's own label callback
    top = build_level(legal, paths, label)
    yield from top.trail
    for entry in top.entries:  # the terminal's step menu, and one step into each group
        yield entry.label
        if not entry.leaf and len(entry.actions) <= SAMPLE:
            yield from (e.label for e in step_into(top, entry, paths, label).entries)
    for battle in odds.battle_odds(m.ruleset, m.state, m.to_act):
        yield battle["text"]
    yield from (a["text"] for a in odds.position(m.ruleset, m.state)["attacks"])
    if board:
        console = Console(record=True, width=200)
        console.print(renderer.render_board(m))
        yield console.export_text()
        yield renderer.status_line(m).plain


def _play(game: str, seed: int, heuristic_seats: set[str]) -> tuple[list[str], Match]:
    """A seeded game (3 turns each at most) played by the heuristic for `heuristic_seats`, random choices for
    the others; every text shown on the way, the computer's reasons among them."""
    m = warroom.new_game(game, seed=seed, options={"turn_limit": 3})
    rng = random.Random(seed)
    agents = {side: get_agent("heuristic", game, seed=seed) for side in heuristic_seats}
    shown: list[str] = []
    boards = 0
    for _ in range(3_000):
        if m.over:
            break
        s = m.state
        side = m.to_act
        assert side is not None and side != DICE_SIDE
        board = boards < 12 and (s.attack is not None or bool(s.effects)) and rng.random() < 0.3
        boards += board
        shown.extend(_shown_at(m, game, rng, board))
        if side in agents:
            action, why = agents[side].choose(m)
            shown.append(why)
        else:
            legal = m.legal_actions()
            fights = [a for a in legal if a.startswith(("attack ", "play ", "support ", "fire"))]
            action = rng.choice(fights if fights and rng.random() < 0.6 else legal)
        before = len(m.log)
        m.play(action)
        shown.extend(event["text"] for event in m.log[before:])
    return shown, m


@pytest.mark.parametrize(
    ("game", "seed", "heuristic"),
    [
        ("saintlo", 1, {"Allied"}),
        ("saintlo", 2, {"Axis"}),
        ("saintlo", 5, {"Allied", "Axis"}),
        ("saintlo-teams", 3, {"Allied A", "Axis B"}),
        ("saintlo-teams", 4, {"Allied B", "Axis A"}),
    ],
)
def test_no_text_a_player_is_shown_names_an_id(game: str, seed: int, heuristic: set[str]) -> None:
    shown, m = _play(game, seed, heuristic)
    # the games went far enough to show what matters: attacks, dice, cards, counters destroyed
    kinds = {event["type"] for event in m.log}
    assert {"attack", "dice", "flip", "move"} <= kinds, kinds
    assert any(text.startswith("Attack ") for text in shown)
    assert _ids_in(shown) == []
    # the record still speaks ids: what scripts replay
    assert any(ID.search(action) for action in m.actions)


def test_events_name_counters_where_they_stand_and_dice_as_dice() -> None:
    # Saint-Lo 6.2: an attack and its dice in the log; 6.1 a move; 9 a card on a unit
    m = warroom.new_game("saintlo", seed=7, options={"turn_limit": 3})
    rng = random.Random(7)
    attacked = dice = None
    while not m.over and not (attacked and dice):
        legal = m.legal_actions()
        attacks = [a for a in legal if a.startswith("attack ")]
        action = rng.choice(attacks) if attacks else rng.choice(legal)
        if action.startswith("attack "):
            t, s = m.ruleset.t, m.state  # type: ignore[attr-defined]
            _, uid, where = action.split()
            u = t.unit_index[uid]
            name = unit_name(t, s, u)
            assert name.endswith(f"{t.kind_of(u).name} at {t.labels[s.pos[u]]}")
            label = m.ruleset.describe_action(s, action)
            assert label.startswith("Attack ") and label.endswith(f" with {name}") and not ID.search(label)
        before = len(m.log)
        m.play(action)
        for event in m.log[before:]:
            if event["type"] == "attack" and attacked is None:
                attacked = event["text"]
            if event["type"] == "dice" and dice is None:
                dice = event["text"]
    assert attacked and dice
    assert re.fullmatch(r".+ at \d{4} attacks .+ at \d{4}\.", attacked), attacked
    # "The attacker throws 6 and 2 against the defender's 6, 3 and 1." (no "6-2")
    faces = r"\d(?:(?:, \d)* and \d)?"
    assert re.fullmatch(rf"The attacker throws {faces}( against the defender's {faces}.*|; .*)\.", dice), dice
    assert "-" not in dice


def test_dice_read_as_dice() -> None:
    # Saint-Lo 6.2: a throw is its faces, highest first
    assert dice_words((6,)) == "6"
    assert dice_words((6, 2)) == "6 and 2"
    assert dice_words((6, 3, 1)) == "6, 3 and 1"
    assert f"{dice_words((6, 2))} against {dice_words((6, 3, 1))}" == "6 and 2 against 6, 3 and 1"
    assert dice_words(()) == "no dice"
    m = warroom.new_game("saintlo", seed=1)
    s = m.state
    s.phase = Phase.ATTACK_ROLL
    assert m.ruleset.describe_action(s, "roll 6331") == "Throw 6, 3, 3 and 1"


def test_a_card_reads_by_its_printed_title_in_each_deck() -> None:
    # Saint-Lo 9: `dug_in` is the Allies' "Hedgerow Position" and the Axis's "Dug In" (cards.toml)
    from warroom.games.saintlo.names import card_name

    m = warroom.new_game("saintlo", seed=1)
    t = m.ruleset.t  # type: ignore[attr-defined]
    assert card_name(t, 0, "dug_in") == "Hedgerow Position"
    assert card_name(t, 1, "dug_in") == "Dug In"
    s = m.state
    s.seat = 0
    assert m.ruleset.describe_action(s, "discard dug_in") == 'Discard "Hedgerow Position"'
    s.seat = 1
    assert m.ruleset.describe_action(s, "discard combat_engineers") == 'Discard "Pioniere"'


def test_two_counters_of_one_kind_read_apart_by_their_hexes() -> None:
    # Saint-Lo 4.3, 6.1: one land unit a hex, so a kind's name and its hex name one counter
    m = warroom.new_game("saintlo", seed=1)
    t, s = m.ruleset.t, m.state  # type: ignore[attr-defined]
    from warroom.games.saintlo.setup import put

    a, b, c = t.unit_index["de_tiger_i.1"], t.unit_index["de_tiger_i.2"], t.unit_index["us_infantry.1"]
    put(t, s, a, t.hex_of["1408"])
    put(t, s, b, t.hex_of["1410"])
    put(t, s, c, t.hex_of["1409"])
    assert unit_name(t, s, a) == "Tiger I at 1408"
    assert unit_name(t, s, b) == "Tiger I at 1410"
    assert unit_name(t, s, c) == "Allied Infantry at 1409"  # both armies print "Infantry"
    assert unit_name(t, s, t.unit_index["de_infantry.3"]) == "Axis Infantry"  # off the board


def test_the_protocol_speaks_names_in_its_events_and_odds() -> None:
    # the JSON-lines protocol: a play's events and the odds of the position are the players' words
    session = ProtocolSession()
    answer = session.handle({"cmd": "new", "game": "saintlo", "seed": 9, "options": {"turn_limit": 2}})
    assert answer["ok"]
    rng = random.Random(9)
    texts: list[str] = []
    attacks_seen = 0
    for _ in range(1_500):
        view = answer["view"]
        if view["over"]:
            break
        legal = view["legal"]
        fights = [a for a in legal if a.startswith(("attack ", "play ", "fire"))]
        if any(a.startswith("attack ") for a in legal):
            odds = session.handle({"cmd": "odds"})
            assert odds["ok"], odds
            texts.extend(a["text"] for a in odds["attacks"])
            attacks_seen += 1
        action = rng.choice(fights if fights and rng.random() < 0.7 else legal)
        answer = session.handle({"cmd": "play", "action": action})
        assert answer["ok"], answer
        texts.extend(event["text"] for event in answer["events"])
        if attacks_seen >= 20:
            break
    assert attacks_seen and any(" attacks " in text for text in texts)
    assert _ids_in(texts) == []
