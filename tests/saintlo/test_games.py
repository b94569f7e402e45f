"""Saint-Lo played whole: seeded random games from setup to a result with the rulebook's guarantees checked
at every step, the state's clone and saved positions, the silent event sink, and the legal list as the
one test of a move."""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest
from random_play import random_steps
from saintlo_positions import rules2, rules4

from warroom import Match
from warroom.engine.errors import IllegalActionError
from warroom.engine.ruleset import CHANCE
from warroom.games.saintlo.invariants import problems
from warroom.games.saintlo.rules import SEQUENCE_OF_PLAY
from warroom.games.saintlo.state import PHASE_KEYS, Attack, Phase, SaintLoState, Window

IMMUTABLE = (bool, int, str, tuple, type(None), Phase, Attack, Window)


def play_checked(rules, seed: int, turn_limit: int) -> tuple[Match, int]:
    """A seeded random game to its end, every position checked; the match and its number of decisions."""
    match = Match(rules, rules.initial_state(None, {"turn_limit": turn_limit}), seed=seed, keep_log=False)
    previous = rules.clone(match.state)
    steps = 0
    for _ in random_steps(match, seed):
        found = problems(rules, match.state, previous)
        assert not found, (seed, steps, found)
        previous = rules.clone(match.state)
        steps += 1
    return match, steps


def test_fifty_random_games_reach_a_result() -> None:
    # Saint-Lo 3, 4, 5: from setup to a result, one unit a hex, Supplies never negative, at most 10 units a
    # turn, hands within 7 (invariants.py) after every decision and its dice
    rules = rules2()
    for seed in range(50):
        match, steps = play_checked(rules, seed, turn_limit=1)
        result = match.result
        assert result is not None and set(result.returns) == {"Allied", "Axis"}, seed
        assert match.state.turn >= 2 or result.winner is not None


def test_random_team_games_reach_a_result() -> None:
    # Saint-Lo 10: the four-player game, played the same way
    rules = rules4()
    for seed in range(10):
        match, _ = play_checked(rules, seed, turn_limit=2)
        result = match.result
        assert result is not None and set(result.returns) == set(rules.info.sides)


def busy_state(rules) -> SaintLoState:
    """A position with every field away from its blank value: an attack under way, a window open."""
    match = Match(rules, rules.initial_state(None, {"turn_limit": 9, "objective": 6}), seed=3, keep_log=False)
    chooser = random.Random(3)
    while True:
        s = match.state
        if s.phase == Phase.ACTIONS and s.turn >= 3 and s.effects and s.current != -1 and any(s.used):
            break
        legal = match.legal_actions()
        attacks = [a for a in legal if a.startswith(("attack", "play"))]
        match.play(chooser.choice(attacks if attacks and chooser.random() < 0.5 else legal))
    s = rules.clone(match.state)
    s.attack = Attack(s.current, 5, 0, False, (7,), (8,), 9, 6541)
    s.window = Window((1,), Phase.ATTACK_ROLL, True, True, 1, 0)
    s.draw_queue, s.swapped, s.ended, s.start_rolls, s.winner = (1,), [3, 2], [True, False], (4,), 0
    s.moved = s.attacked = s.paid = True
    s.lost_posts = [1, 2]
    s.bulk = 1  # placement.py: a deployment in bulk waiting for its die (a field, whatever the phase here)
    s.bulk_dice = (3, 5)  # and the dice of it rolled so far (those that deal its counters)
    s.legal = ("done",)
    return s


def _mutate(value: object) -> None:
    """Change a mutable value in place (nested lists too); an immutable one must be immutable."""
    if isinstance(value, list):
        for inner in value:
            _mutate(inner)
        value.append(value[0] if value else 0)
        if len(value) > 1 and not isinstance(value[0], list):
            value[0] = not value[0] if isinstance(value[0], bool) else -99
    else:
        assert isinstance(value, IMMUTABLE), f"{type(value).__name__}: neither copied nor immutable (see clone)"


def test_clone_copies_every_slot() -> None:
    # STYLE.md (cheap clones): every slot is set by clone to an equal value, and changing the clone in place
    # leaves the original as it was
    rules = rules2()
    fields = [f.name for f in dataclasses.fields(SaintLoState)]
    assert set(fields) == set(SaintLoState.__slots__)  # type: ignore[attr-defined]
    original = busy_state(rules)
    for name in fields:
        before = repr(getattr(original, name))
        twin = original.clone()
        assert repr(getattr(twin, name)) == before, f"clone does not copy {name}"
        _mutate(getattr(twin, name))
        assert repr(getattr(original, name)) == before, f"changing the clone's {name} changed the original"
    assert repr(copy.deepcopy(original)) == repr(original)


def test_a_saved_position_keeps_every_field() -> None:
    # like a chess FEN: every field but the derived ones (legal, unit_masks) survives state -> JSON -> state
    rules = rules2()
    original = busy_state(rules)
    back = rules.state_from_json(json.loads(json.dumps(rules.state_to_json(original))))
    blank = SaintLoState()
    for f in dataclasses.fields(SaintLoState):
        if f.name in ("legal", "unit_masks"):  # derived, made again when asked
            continue
        if f.name not in ("seats", "active", "seat"):
            assert getattr(original, f.name) != getattr(blank, f.name), f"busy_state leaves {f.name} blank"
        assert getattr(back, f.name) == getattr(original, f.name), f"a saved position loses {f.name}"


def test_the_sequence_of_play_lists_every_phase() -> None:
    # Saint-Lo 4, 5: the phases as the rulebook orders them, one step each
    assert [step.phase for step in SEQUENCE_OF_PLAY] == list(Phase)
    assert len(PHASE_KEYS) == len(Phase)
    for step in SEQUENCE_OF_PLAY:
        # a chance phase has a roll; so has deployment, whose bulk decisions wait for a die (Saint-Lo 4.3)
        assert (step.actor == CHANCE or step.phase == Phase.DEPLOY) == (step.roll is not None)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_move_is_legal_exactly_when_listed(seed: int) -> None:
    # Ruleset contract: an id not in legal_actions is refused and changes nothing; a listed one is applied
    rules = rules2()
    match = Match(rules, rules.initial_state(None, {"turn_limit": 2}), seed=seed, keep_log=False)
    chooser = random.Random(seed)
    for _ in range(400):
        if match.over:
            break
        legal = match.legal_actions()
        s = match.state
        if s.phase == Phase.ACTIONS:
            before = json.dumps(rules.state_to_json(s), sort_keys=True)
            for probe in ("end", "done", "fire", "pass", "move us_m5.1 0101", "attack de_tiger_i.1 1414"):
                if probe not in legal:
                    with pytest.raises(IllegalActionError):
                        rules.apply(s, probe)
                    assert json.dumps(rules.state_to_json(s), sort_keys=True) == before
        match.play(chooser.choice(legal))


def test_silent_and_logged_play_agree() -> None:
    # events.py: the silent sink changes nothing but the events returned
    rules = rules2()
    loud = Match(rules, rules.initial_state(None, {"turn_limit": 1}), seed=5, keep_log=True)
    quiet = Match(rules, rules.initial_state(None, {"turn_limit": 1}), seed=5, keep_log=False)
    chooser_a, chooser_b = random.Random(5), random.Random(5)
    while not loud.over:
        a = chooser_a.choice(loud.legal_actions())
        b = chooser_b.choice(quiet.legal_actions())
        assert a == b
        events = loud.play(a)
        assert all({"type", "text", "rule"} <= set(e) for e in events)
        quiet.play(b)
    assert rules.state_to_json(loud.state) == rules.state_to_json(quiet.state)


def test_every_legal_action_has_a_label_and_views_stay_secret() -> None:
    # Saint-Lo 4.3, 4.5, 9: what each seat sees along a random game; every menu entry has words
    rules = rules2()
    match = Match(rules, rules.initial_state(None, {"turn_limit": 1}), seed=11, keep_log=False)
    chooser = random.Random(11)
    while not match.over:
        s = match.state
        legal = match.legal_actions()
        for action in legal[:40]:
            assert rules.describe_action(s, action)
        for side in rules.info.sides:
            view = rules.observation(s, side)
            json.dumps(view)
            other = "Axis" if side == "Allied" else "Allied"
            assert isinstance(view["hands"][other], int) and isinstance(view["deck"]["allied"], int)
        match.play(chooser.choice(legal))


def push_to_the_posts(rules, s, legal: list[str], chooser: random.Random) -> str:
    """A test policy that plays to win: attack Command Posts, then units; else move a land unit nearest an
    enemy Command Post; no cards, no purchases."""
    t = rules.t
    if s.phase in (Phase.ACTIONS, Phase.SUPPORT):
        enemy_posts = [h for p, h in enumerate(s.post_hex) if h >= 0 and p // 8 != s.active]
        on_posts = [a for a in legal if a.startswith("attack") and t.hex_of[a.rsplit(" ", 1)[1]] in enemy_posts]
        if on_posts or "fire" in legal:
            supports = [a for a in legal if a.startswith("support")]
            return (supports or on_posts or ["fire"])[0]
        attacks = [a for a in legal if a.startswith("attack")]
        if attacks and chooser.random() < 0.5:
            return chooser.choice(attacks)

        def gain(action: str) -> int:
            _, unit, where = action.split(" ")
            start, end = s.pos[t.unit_index[unit]], t.hex_of[where]
            return min(t.distance[start][p] for p in enemy_posts) - min(t.distance[end][p] for p in enemy_posts)

        moves = [a for a in legal if a.startswith("move") and t.unit_type[t.unit_index[a.split(" ")[1]]] != 3]
        if moves:
            return max(moves, key=lambda a: (gain(a), chooser.random()))
    for quiet in ("pass", "done", "end"):
        if quiet in legal:
            return quiet
    return chooser.choice(legal)


def test_games_played_to_win_end_in_victory() -> None:
    # Saint-Lo 3: destroying four enemy Command Posts wins, checked at every step of purposeful games
    rules = rules2()
    winners = []
    for seed in range(3):
        match = Match(rules, rules.initial_state(None, {"turn_limit": 40}), seed=seed, keep_log=False)
        chooser = random.Random(seed)
        previous = rules.clone(match.state)
        while not match.over:
            match.play(push_to_the_posts(rules, match.state, match.legal_actions(), chooser))
            assert not problems(rules, match.state, previous)
            previous = rules.clone(match.state)
        result = match.result
        assert result is not None
        winners.append(result.winner)
        if result.winner is not None:
            loser = 1 - ("Allied", "Axis").index(result.winner)
            assert match.state.lost_posts[loser] == 4 and result.returns[result.winner] == 1.0
    assert any(winner is not None for winner in winners)


def test_determinize_keeps_what_the_seat_sees_and_reads_nothing_else() -> None:
    # Saint-Lo 4.3, 4.5, 9: hands, decks and (in setup) the enemy's face-down units are drawn again; the
    # seat's own view is unchanged, and two positions it cannot tell apart give the same draw
    from warroom.games.saintlo.determinize import determinize

    rules = rules2()
    match = Match(rules, rules.initial_state(None, {"turn_limit": 3}), seed=4, keep_log=False)
    chooser = random.Random(4)
    checked = 0
    while not match.over:
        s = match.state
        if match.to_act not in (None, CHANCE) and (s.phase == Phase.DEPLOY or s.turn >= 2) and chooser.random() < 0.2:
            side = match.to_act
            twin = determinize(rules, s, side, random.Random(checked))
            assert problems(rules, twin) == []
            assert rules.observation(twin, side) == rules.observation(s, side)
            assert rules.legal_actions(twin) == rules.legal_actions(s)
            other = 1 - rules.seat_index[side]
            if s.hands[other] and any(s.deck[other]):  # swap a hidden card with one of the deck: the same view
                alt = rules.clone(s)
                c = alt.hands[other].pop(0)
                d = next(k for k, n in enumerate(alt.deck[other]) if n)
                alt.deck[other][d] -= 1
                alt.deck[other][c] += 1
                alt.hands[other] = sorted([*alt.hands[other], d])
                alt.legal = None
                assert rules.observation(alt, side) == rules.observation(s, side)
                again = determinize(rules, alt, side, random.Random(checked))
                assert rules.state_to_json(again) == rules.state_to_json(twin)
            checked += 1
        match.play(chooser.choice(match.legal_actions()))
    assert checked > 10


def test_a_studys_facts_say_whose_posts_and_count_each_armys_turn() -> None:
    # issue 38, 20: "Allied posts destroyed" equalled "Axis posts lost", and "turns" reached 20 under turn_limit=12
    import warroom
    from warroom.games.saintlo.ai import summarize
    from warroom.games.saintlo.state import DESTROYED

    for limit in (2, 3):
        m = warroom.new_game("saintlo", seed=limit, options={"turn_limit": limit}, keep_log=False)
        chooser = random.Random(limit)
        while not m.over:
            m.play(chooser.choice(m.legal_actions()))
        facts = summarize(m.ruleset, m.state)
        assert set(facts) == {"side turns", "Allied Command Posts lost", "Axis Command Posts lost"}
        assert facts["side turns"] <= 2 * limit  # Saint-Lo 3: the limit counts each army's turns
        for a, army in enumerate(("Allied", "Axis")):
            mine = sum(1 for h in m.state.post_hex[a * 8 : a * 8 + 8] if h == DESTROYED)
            assert facts[f"{army} Command Posts lost"] == mine == m.state.lost_posts[a]
