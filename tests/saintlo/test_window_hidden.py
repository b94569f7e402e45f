"""Saint-Lo's Battle Report windows tell nobody what a hand holds (4.5, 9; issue item 10): two positions that
differ only in what a hidden hand holds (the same number of cards, a playable card in one, none in the other)
look the same to every other seat through the whole window: whether it opens, for whom (`window.queue` in the
team game), who is to act, the phase, the events, the protocol's view and the browser's payload."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from observation_checks import check_position
from saintlo_positions import bare, give, place, rules2, rules4

from warroom.engine.match import Match
from warroom.engine.observe import visible_events
from warroom.engine.ruleset import Event
from warroom.games import get_spec
from warroom.games.saintlo.rules import SaintLoRules
from warroom.games.saintlo.state import Phase, SaintLoState
from warroom.web.layouts import describe_actions
from warroom.web.odds import battle_odds


def _attack_position(rules: SaintLoRules, hand: tuple[str, ...], partner: tuple[str, ...] = ()) -> SaintLoState:
    """The Allies to declare an attack on the Axis infantry (a Sherman; in the team game Allied A's infantry,
    10: Player A commands the infantry); the Axis (Player A in the team game) holds `hand`, its partner
    `partner`, the Allies an Ace of Tanks."""
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 0, "ace_of_tanks")
    axis = 1 if s.seats == 2 else 2
    for card in hand:
        give(rules, s, axis, card)
    for card in partner:
        give(rules, s, axis + 1, card)
    place(rules, s, "us_m4a1_76w.1" if s.seats == 2 else "us_infantry.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    return s


def _seen(match: Match, events: list[Event], side: str) -> str:
    """Everything `side` is sent after a step: the protocol's view, the events it may see, and the parts of the
    browser's payload made from the position (the actions it may take, the odds of the battle)."""
    view = match.view(side)
    return json.dumps(
        {
            "view": view,
            "events": visible_events(match.ruleset, events, side),
            "actions": describe_actions(match, view["legal"]),
            "battle_odds": battle_odds(match, side),
        },
        sort_keys=True,
    )


def _same_through_the_window(
    rules: SaintLoRules,
    playable: SaintLoState,
    unplayable: SaintLoState,
    watchers: tuple[str, ...],
    steps: list[tuple[str, Callable[[Match], None]]],
) -> list[dict[str, Any]]:
    """Play `steps` in both positions (each a label and what is done) and check after each that every watcher is
    sent the same; the views the first watcher was sent, in order."""
    matches = [Match(rules, s, seed=5) for s in (playable, unplayable)]
    shown: list[dict[str, Any]] = []
    for label, step in [("start", lambda m: None), *steps]:
        logs = []
        for m in matches:
            before = len(m.log)
            step(m)
            logs.append(m.log[before:])
        for side in watchers:
            a, b = (_seen(m, log, side) for m, log in zip(matches, logs, strict=True))
            assert a == b, f"{side} can tell the hands apart after {label}"
        spec = get_spec(rules.info.id)
        for m in matches:
            check_position(spec, rules, m.state, 5, {})  # each seat's observation: no hidden path, determinized
        shown.append(matches[0].view(watchers[0]))
    return shown


def test_the_defenders_window_opens_whatever_its_hand_holds() -> None:
    # Saint-Lo 4.5: Battle Reports are taken "without showing them"; 9: "played at any moment". The Axis holds
    # Dug In (playable on its attacked infantry) or Low Clouds (no Allied aircraft to ground): the Allies see
    # the same window, the same "Axis" to act, the same pass and the same dice
    rules = rules2()
    playable = _attack_position(rules, ("dug_in",))
    unplayable = _attack_position(rules, ("low_clouds",))
    declared: list[list[str]] = []

    def attack(m: Match) -> None:
        m.play("attack us_m4a1_76w.1 0304")
        declared.append(m.legal_actions())

    shown = _same_through_the_window(
        rules, playable, unplayable, ("Allied",), [("the attack", attack), ("the pass", lambda m: m.play("pass"))]
    )
    assert shown[1]["to_act"] == "Axis" and shown[1]["state"]["phase"] == "window"
    assert shown[1]["state"]["window"]["queue"] == ["Axis"] and shown[1]["legal"] == []
    assert declared == [["play dug_in de_infantry.1", "pass"], ["pass"]]  # each seat's own list differs
    assert shown[2]["to_act"] == "Allied" and shown[2]["state"]["phase"] == "actions"  # the dice were thrown


def test_the_team_windows_queue_names_every_seat_that_may_hold_a_card() -> None:
    # Saint-Lo 9, 10.1 (6 Battle Reports dealt to each player), 10.4: Axis A holds Dug In or Low Clouds, Axis B
    # Low Clouds: the queue names both in both positions, and neither the Allies nor Axis A's partner can tell
    rules = rules4()
    playable = _attack_position(rules, ("dug_in",), ("low_clouds",))
    unplayable = _attack_position(rules, ("low_clouds",), ("low_clouds",))
    shown = _same_through_the_window(
        rules,
        playable,
        unplayable,
        ("Allied A", "Allied B", "Axis B"),
        [
            ("the attack", lambda m: m.play("attack us_infantry.1 0304")),
            ("Axis A's pass", lambda m: m.play("pass")),
            ("Axis B's pass", lambda m: m.play("pass")),
        ],
    )
    assert shown[1]["state"]["window"]["queue"] == ["Axis A", "Axis B"] and shown[1]["to_act"] == "Axis A"
    assert shown[2]["state"]["window"]["queue"] == ["Axis B"] and shown[2]["to_act"] == "Axis B"
    assert shown[3]["state"]["phase"] == "actions"


def test_a_seat_that_played_stays_in_the_window_whatever_is_left_in_its_hand() -> None:
    # Saint-Lo 9: after a card played in the window the seat may play again; whether it is asked again depends
    # on the number of cards it holds, not on whether what is left is playable
    rules = rules2()
    playable = _attack_position(rules, ("dug_in", "supply_convoy"))
    unplayable = _attack_position(rules, ("dug_in", "low_clouds"))
    shown = _same_through_the_window(
        rules,
        playable,
        unplayable,
        ("Allied",),
        [
            ("the attack", lambda m: m.play("attack us_m4a1_76w.1 0304")),
            ("the card", lambda m: m.play("play dug_in de_infantry.1")),
            ("the pass", lambda m: m.play("pass")),
        ],
    )
    assert shown[2]["to_act"] == "Axis" and shown[2]["state"]["window"]["played"]
    # the card played opens the attacker's answer round: the Allies hold a card
    assert shown[3]["to_act"] == "Allied" and shown[3]["state"]["phase"] == "window"


def test_the_window_at_the_start_of_the_opponents_phase_opens_whatever_the_hand_holds() -> None:
    # Saint-Lo 5.2, 9: the window opening the Allied Movement and Attack phase, offered to the Axis
    rules = rules2()
    states = []
    for card in ("dug_in", "low_clouds"):
        s = _attack_position(rules, (card,))
        s.phase, s.draw_queue, s.legal = Phase.DRAW, (0,), None
        states.append(s)
    shown = _same_through_the_window(rules, states[0], states[1], ("Allied",), [("the pass", lambda m: m.play("pass"))])
    assert shown[0]["to_act"] == "Axis" and shown[0]["state"]["phase"] == "window"
    assert shown[1]["to_act"] == "Allied" and shown[1]["state"]["phase"] == "actions"
