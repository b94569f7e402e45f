"""Patton end to end: random games with invariants at every step, records and replays, positions,
observations (nothing hidden leaks), action ids and labels, manual dice."""

from __future__ import annotations

import io
import json
import random

import pytest
from random_play import play_randomly

import warroom
from warroom.engine.errors import IllegalActionError, PositionError
from warroom.engine.ruleset import CHANCE
from warroom.games.patton.board import load_deck
from warroom.games.patton.invariants import problems
from warroom.games.patton.rules import PattonRules

RULES = PattonRules()
SCENARIOS = ("normandy", "bulge", "sicily")


def pick(outcomes, r):
    """The outcome a uniform number r in [0, 1) selects."""
    acc = 0.0
    for value, p in outcomes:
        acc += p
        if r < acc:
            return value
    return outcomes[-1][0]


def random_game(scenario, seed, options=None, check=True):
    s = RULES.initial_state(scenario, options or {})
    rng = random.Random(seed)
    steps = 0
    while RULES.to_act(s) is not None:
        if check:
            assert problems(s) == [], (scenario, seed, steps)
        if RULES.to_act(s) == CHANCE:
            outcomes = RULES.chance_outcomes(s)
            assert sum(p for _, p in outcomes) == pytest.approx(1)
            RULES.apply_chance(s, pick(outcomes, rng.random()), False)
        else:
            legal = RULES.legal_actions(s)
            assert legal and len(set(legal)) == len(legal)
            RULES.apply(s, legal[int(rng.random() * len(legal))], False)
        steps += 1
        assert steps < 20_000
    assert problems(s) == []
    return s


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("options", [{}, {"advanced_retreat": True}, {"placement": "manual"}])
def test_random_games_finish_with_invariants(scenario, options):
    # stacking, unit counts, MP spent and the road-segment limit checked at every step. Sicily has no
    # turn limit (Patton: Sicily — Duration of Game): its random games end when the Allies run out of
    # dice (about 160 turns); with the other options they get a 20-turn safety cap, for speed
    if scenario == "sicily" and options:
        options = {**options, "turn_limit": 20}
    for seed in range(12):
        s = random_game(scenario, seed, options)
        result = RULES.result(s)
        assert result is not None and result.winner in ("Allied", "Axis") and result.rule


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_record_replays_to_identical_events_and_state(scenario, tmp_path):
    m = play_randomly(warroom.new_game("patton", scenario, seed=11), 4, limit=150)
    path = tmp_path / "game.json"
    warroom.save(m, path)
    again = warroom.load(path)
    assert RULES.state_to_json(again.state) == RULES.state_to_json(m.state)
    assert again.log == m.log
    assert again.legal_actions() == m.legal_actions()


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("placement", ["default", "manual"])
def test_positions_round_trip_and_play_on_identically(scenario, placement):
    s = RULES.initial_state(scenario, {"advanced_retreat": True, "placement": placement})
    rng = random.Random(8)
    seen = 0
    while RULES.to_act(s) is not None and seen < 400:
        data = json.loads(json.dumps(RULES.state_to_json(s)))
        twin = RULES.state_from_json(data)
        assert RULES.state_to_json(twin) == data
        if RULES.to_act(s) == CHANCE:
            assert RULES.chance_outcomes(twin) == RULES.chance_outcomes(s)
            value = rng.choice(RULES.chance_outcomes(s))[0]
            RULES.apply_chance(s, value)
            RULES.apply_chance(twin, value)
        else:
            assert RULES.legal_actions(twin) == RULES.legal_actions(s)
            action = rng.choice(RULES.legal_actions(s))
            assert RULES.apply(twin, action) == RULES.apply(s, action)
        assert RULES.state_to_json(twin) == RULES.state_to_json(s)
        seen += 1


def test_bad_positions_are_position_errors():
    good = RULES.state_to_json(RULES.initial_state("normandy", {}))
    for broken in (
        {**good, "phase": "lunch"},
        {**good, "towns": {"Paris": {"side": "Allied", "armor": 1, "infantry": 0}}},
        {**good, "phase": "retreat"},
        "not a position",
        {**good, "cards": {"Allied": [1], "Axis": []}},
    ):
        with pytest.raises(PositionError):
            RULES.state_from_json(broken)
    with pytest.raises(PositionError, match="the field 'scenario' is missing"):
        RULES.state_from_json({"turn": 1})


def test_observation_holds_no_unturned_card_order():
    # Hidden information: the packs are face down. A card's value is decided when it is turned (a
    # chance node), so no state, observation or event holds the order of cards still face down.
    # Two games whose first card is the same but whose seeds differ look identical to both sides.
    views = []
    for seed in (1, 2):
        m = warroom.new_game("patton", "normandy", seed=seed, dice=[6])
        views.append((m.view("Allied")["state"], m.view("Axis")["state"]))
    (a1, x1), (a2, x2) = views
    assert a1 == a2 and x1 == x2
    assert a1["cards"] == {"Allied": [6], "Axis": []}
    m = warroom.new_game("patton", "sicily", seed=3)
    for _ in range(120):
        m.play(random.Random(len(m.log)).choice(m.legal_actions()))
        for side in ("Allied", "Axis"):
            view = m.view(side)["state"]
            turned = view["cards"]["Allied"] + view["cards"]["Axis"]
            assert len(turned) == len(m.state.cards[0]) + len(m.state.cards[1])
            unseen = sum(view["cards_unseen"].values())
            assert unseen == 23 - len(m.state.cards[0][:12]) - len(m.state.cards[1][:11])


def test_action_ids_parse_label_and_illegal_ones_say_why():
    s = RULES.initial_state("sicily", {"placement": "manual"})
    rng = random.Random(2)
    kinds = set()
    for _ in range(600):
        if RULES.to_act(s) is None:
            break
        if RULES.to_act(s) == CHANCE:
            RULES.apply_chance(s, rng.choice(RULES.chance_outcomes(s))[0])
            continue
        legal = RULES.legal_actions(s)
        for action in legal[:40]:
            assert RULES.table(s.board).parse(action) is not None
            label = RULES.describe_action(s, action)
            assert label and label != action
        kinds.add(legal[0].split()[0])
        RULES.apply(s, rng.choice(legal))
    fresh = RULES.initial_state("sicily", {})
    RULES.apply_chance(fresh, 4)
    with pytest.raises(IllegalActionError, match="not a Patton action"):
        RULES.apply(fresh, "fly 1A Palermo->Rome")
    assert {"place", "move"} <= kinds or {"place", "land"} <= kinds


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_illegal_actions_name_their_rule_and_change_nothing(scenario):
    # Patton (all sections): every rejection names the rule that forbids the action, and the
    # state is exactly as it was. Ids seen earlier in the game are tried out of their phase (a move
    # once the battles have begun, a retreat before any battle, a stale casualty choice, ...).
    options = {"advanced_retreat": True, "placement": "manual"} if scenario == "sicily" else {"advanced_retreat": True}
    rng = random.Random(7)
    tried = 0
    for _game in range(2):
        s = RULES.initial_state(scenario, options)
        seen: set[str] = set()
        steps = 0
        while RULES.to_act(s) is not None:
            steps += 1
            if RULES.to_act(s) == CHANCE:
                RULES.apply_chance(s, pick(RULES.chance_outcomes(s), rng.random()), False)
                continue
            legal = RULES.legal_actions(s)
            seen.update(legal[:20])
            if steps % 5 == 0:
                before = json.dumps(RULES.state_to_json(s), sort_keys=True)
                for action in rng.sample(sorted(seen), min(12, len(seen))) + ["stand", "end"]:
                    if action in legal:
                        continue
                    tried += 1
                    with pytest.raises(IllegalActionError) as error:
                        RULES.apply(s, action)
                    assert "Patton: " in str(error.value), str(error.value)
                assert json.dumps(RULES.state_to_json(s), sort_keys=True) == before
            RULES.apply(s, legal[int(rng.random() * len(legal))], False)
    assert tried > 200


def test_a_move_after_the_battles_have_begun_is_refused():
    # Patton: Battles — "He must, however, complete all of his moves before the first battle is started."
    s = RULES.initial_state("normandy", {})
    RULES.apply_chance(s, 12)
    RULES.apply(s, "move 1A Lessay->Coutances")
    RULES.apply(s, "move 1A St-Lo->Tessy")
    RULES.apply(s, "end")
    # Patton: Battles — "he chooses the order in which the battles are to be resolved": both are offered
    assert RULES.legal_actions(s) == ["battle Coutances", "battle Tessy"]
    before = json.dumps(RULES.state_to_json(s), sort_keys=True)
    with pytest.raises(IllegalActionError, match="all of them before the first battle — Patton: Battles"):
        RULES.apply(s, "move 1A Periers->St-Lo")
    assert json.dumps(RULES.state_to_json(s), sort_keys=True) == before
    RULES.apply(s, "battle Tessy")
    assert s.battle is not None and s.board.towns[s.battle.target].name == "Tessy"


def test_illegal_move_message_names_the_rule():
    s = RULES.initial_state("normandy", {})
    RULES.apply_chance(s, 2)
    with pytest.raises(IllegalActionError, match="Using Movement Points"):
        RULES.apply(s, "move 5A Lessay->Coutances".replace("5A", "4A1I"))
    with pytest.raises(IllegalActionError, match="no Units in Rennes"):
        RULES.apply(s, "move 1A Rennes->Vitre")


def test_manual_dice_type_in_cards_and_dice():
    m = warroom.new_game("patton", "normandy", seed=1, dice="manual")
    assert m.to_act == "dice"
    assert m.legal_actions() == [f"roll {v}" for v in sorted(set(load_deck().cards))]
    m.play("roll 9")
    assert m.state.mp == 9 and m.to_act == "Allied"


def test_first_decision_counts():
    # perft-style: the number of legal actions at the first decision of each scenario (first card 4).
    # Normandy by hand: 14+14 from Lessay, 13+5+13 from Periers, 13+13+13+5+13 from St. Lo, and "end".
    # Sicily by hand: 2 areas of capacity 4 give 14 groups each, 3 of capacity 3 give 9, 3 of 2 give 5,
    # 3 of 1 give 2, and "end".
    counts = {}
    for scenario in SCENARIOS:
        s = RULES.initial_state(scenario, {})
        RULES.apply_chance(s, 4)
        counts[scenario] = len(RULES.legal_actions(s))
    assert counts == {"normandy": 117, "bulge": 120, "sicily": 77}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_terminal_board_draws_every_phase(scenario):
    from rich.console import Console

    from warroom.games.patton.render import board_view, pending_roll

    m = warroom.new_game("patton", scenario, seed=6, dice="manual")
    rng = random.Random(6)
    for _ in range(80):
        if m.over:
            break
        console = Console(record=True, width=140)
        console.print(board_view(m.state))
        text = console.export_text()
        assert m.state.board.title.upper() in text and f"turn {m.state.turn}" in text
        if m.to_act == "dice":
            assert pending_roll(m) is not None
        m.play(rng.choice(m.legal_actions()))


def test_terminal_battle_line_shows_odds_only_while_they_are_still_open():
    # The odds of a round are shown before its dice (and, at a tie, for the refight); once the
    # round's dice are thrown they would be stale, so the battle line drops them.
    from rich.console import Console

    from warroom.games.patton.render import board_view
    from warroom.games.patton.state import CASUALTY, DICE, TIE

    seen = set()
    rng = random.Random(5)
    for seed in range(40):
        s = RULES.initial_state(("normandy", "bulge", "sicily")[seed % 3], {})
        while RULES.to_act(s) is not None and len(seen) < 3:
            if s.battle is not None and s.phase in (DICE, CASUALTY, TIE) and s.phase not in seen:
                console = Console(width=200, record=True, file=io.StringIO())
                console.print(board_view(s))
                text = console.export_text()
                assert ("attacker takes it" in text) == (s.phase != CASUALTY), (s.phase, text[-400:])
                assert ("if refought" in text) == (s.phase == TIE)
                seen.add(s.phase)
            if RULES.to_act(s) == CHANCE:
                RULES.apply_chance(s, pick(RULES.chance_outcomes(s), rng.random()), False)
            else:
                legal = RULES.legal_actions(s)
                RULES.apply(s, legal[int(rng.random() * len(legal))], False)
        if len(seen) == 3:
            break
    assert seen == {DICE, CASUALTY, TIE}
