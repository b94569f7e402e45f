"""Random Tunisia games from the default setup to a result, with the rulebook's guarantees checked after
every step (warroom/games/tunisia/invariants.py): stacking (6.0), never both sides in a hex (8.7A), no
move overspending its MPs (8.5-8.7), supply applied (7.8C), no eliminated unit back (7.7E)."""

from __future__ import annotations

import random

from warroom.engine.chance import sample
from warroom.engine.ruleset import CHANCE
from warroom.games.tunisia.invariants import problems
from warroom.games.tunisia.rules import TunisiaRules
from warroom.games.tunisia.state import Phase, TunisiaState

R = TunisiaRules()
GAMES = 50
MAX_GAMES = 200


def play(
    seed: int,
    options: dict[str, str] | None = None,
    phases: set[Phase] | None = None,
) -> tuple[TunisiaState, int, set[str]]:
    """One game of uniformly random legal choices and seeded dice; checks every step (`phases` collects
    the steps of the sequence it went through)."""
    rng = random.Random(seed)
    s = R.initial_state(None, options)
    assert problems(R, s) == []
    steps, kinds = 0, set()
    while (who := R.to_act(s)) is not None:
        if phases is not None:
            phases.add(s.phase)
        previous = s.clone()
        if who == CHANCE:
            R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()), False)
        else:
            legal = R.legal_actions(s)
            assert legal, f"{who} has no legal action in {R.turn_and_phase(s)}"
            action = rng.choice(legal)
            kinds.add(action.split(" ")[0])
            R.apply(s, action, False)
        found = problems(R, s, previous)
        assert not found, f"seed {seed}, step {steps}, {R.turn_and_phase(s)}: {found}"
        steps += 1
    return s, steps, kinds


def test_fifty_random_games_reach_a_result_with_every_invariant_kept() -> None:
    # Tunisia 4.0-17.0 together: at least GAMES games, and on until every step of the sequence has come up
    # (breakthroughs are rare in random play: about one game in twenty), at most MAX_GAMES
    winners, kinds = set(), set()
    phases: set[Phase] = set()
    wanted = set(Phase) - {Phase.SETUP, Phase.OVER}
    for seed in range(MAX_GAMES):
        if seed >= GAMES and wanted <= phases:
            break
        s, _, used = play(seed, phases=phases)
        result = R.result(s)
        assert result is not None and result.returns and set(result.returns) == {"Axis", "Allied"}
        winners.add(result.winner)
        kinds |= used
    assert {"move", "attack", "retreat", "advance", "base", "end", "air", "loss", "rebuild", "replace"} <= kinds
    # every step of the sequence of play came up: air combat, breakthroughs, Patton, Rommel, the port roll
    assert wanted <= phases


def test_games_from_a_free_setup() -> None:
    # Tunisia 5.1-5.2 then the game: both sides place their pieces, then play on to a result
    for seed in range(3):
        s, _, kinds = play(100 + seed, {"allied_setup": "free", "axis_setup": "free"})
        assert R.result(s) is not None and "place" in kinds


def test_a_game_with_the_event_log_reads_the_same_as_without() -> None:
    # the silent sink and the recording one play the same game
    def run(log: bool) -> dict[str, object]:
        rng = random.Random(11)
        s = R.initial_state()
        while (who := R.to_act(s)) is not None:
            if who == CHANCE:
                events = R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()), log)
            else:
                events = R.apply(s, rng.choice(R.legal_actions(s)), log)
            assert all("rule" in e and "text" in e for e in events)
        return R.state_to_json(s)

    assert run(True) == run(False)


def test_the_ruleset_plays_through_the_engines_match() -> None:
    # the Ruleset protocol, as Match drives it (seeded dice, the event log), to a result
    from random_play import play_randomly

    from warroom import Match
    from warroom.engine.ruleset import Ruleset

    assert isinstance(R, Ruleset)
    match = Match(R, R.initial_state(), scenario="campaign", seed=4)
    play_randomly(match, 4)
    assert match.over and match.result is not None and match.result.rule in ("4.0A", "4.0B")
    assert all(event.get("rule") for event in match.log if event["type"] not in ("roll", "dice"))


def test_an_attack_names_the_attacking_and_the_defending_unit() -> None:
    # issue 38, 3: "Attack from 8720 into 8619" named hexes only; 2.0 one unit a hex, 6.0E the attacker's unit,
    # adjacent to the target, sees it
    import random

    import warroom
    from warroom.games.tunisia.stacking import occupants, unit_at

    m = warroom.new_game("tunisia", seed=4)
    chooser = random.Random(4)
    seen = 0
    for _ in range(3000):
        if m.over or seen >= 20:
            break
        rules, s = m.ruleset, m.state
        for action in [a for a in m.legal_actions() if a.startswith("attack ")][:5]:
            _, origin, target, *_ = action.split(" ")
            here = occupants(s)
            mine = unit_at(rules.cat, [p for p in here[rules.hex(origin)] if rules.cat.side[p] == s.player])
            theirs = unit_at(rules.cat, here.get(rules.hex(target), []))
            label = rules.describe_action(s, action)
            against = rules.cat.name[theirs] if theirs >= 0 else "support assets"
            assert label.startswith(f"Attack from {origin} into {target}: {rules.cat.name[mine]} against {against}")
            seen += 1
        m.play(chooser.choice(m.legal_actions()))
    assert seen >= 20
