"""Tunisia 6.0E beyond the observation: the log a side reads and the odds it is shown name no piece hidden
beneath a stack it has not examined, and a look beneath a stack cannot be undone (a rules audit as a cheating
opponent found all three open, 6 December)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import warroom
from warroom.engine.errors import UndoLockedError
from warroom.engine.observe import visible_events
from warroom.games.tunisia.air import air_in_range
from warroom.games.tunisia.catalog import SIDE_NAMES
from warroom.games.tunisia.odds import TunisiaOdds, attack_survey
from warroom.games.tunisia.position import _piece_names, hidden_from
from warroom.games.tunisia.state import Phase


def _random_games(seeds: range) -> Iterator[tuple[warroom.Match, list[dict]]]:
    """Each step of random games: the match after it and the events it made."""
    for seed in seeds:
        m = warroom.new_game("tunisia", seed=seed)
        rng = random.Random(seed)
        while not m.over:
            yield m, m.play(rng.choice(m.legal_actions()))


def test_no_side_reads_the_name_of_a_piece_it_may_not_see() -> None:
    # Tunisia 6.0E: the log names a piece beneath an unexamined stack only to its owner
    masked = checked = 0
    names = None
    for m, events in _random_games(range(2)):
        rules = m.ruleset
        names = names or _piece_names(rules)
        for viewer, side in enumerate(SIDE_NAMES):
            hidden = hidden_from(rules, m.state, viewer)  # told by name in the log, by id in none of it
            unseen = {rules.cat.ids[p] for p in hidden} | {rules.cat.name[p] for p in hidden}
            for event in visible_events(rules, events, side):
                checked += 1
                assert not set(names.findall(event["text"])) & unseen, (side, event["text"])
                masked += "a piece beneath the stack" in event["text"]
    assert checked > 1000 and masked > 0  # the screen had work to do


def test_the_attackers_odds_leave_out_air_it_may_not_see() -> None:
    # Tunisia 6.0E, 7.3C: the defender's air choices shown to the attacker are the ones it can see
    odds = TunisiaOdds()
    for m, _ in _random_games(range(40)):
        s, rules = m.state, m.ruleset
        if s.phase != Phase.ATTACK:
            continue
        unseen = set(hidden_from(rules, s, s.player))
        for action in (a for a in m.legal_actions() if a.startswith("attack ")):
            target = rules.hex(action.split(" ")[2])
            hidden_air = set(air_in_range(rules.cat, s, 1 - s.player, target, defending=True)) & unseen
            if not hidden_air:
                continue
            names = {rules.cat.ids[p] for p in hidden_air}
            everyone = {c["defender_air"] for c in attack_survey(rules, s, action)["defence_choices"]}
            attacker = {c["defender_air"] for c in attack_survey(rules, s, action, s.player)["defence_choices"]}
            assert names <= everyone and not names & attacker
            shown = odds.action_odds(rules, s, action)
            assert shown is not None
            assert (
                shown["p"]
                == attack_survey(rules, s, action, s.player)["outcome"]["defender"]
                + attack_survey(rules, s, action, s.player)["outcome"]["both"]
            )
            # the cases and the range shown before the commitment name no asset it may not see either
            assert not any(name in c["if"] for c in shown["cases"] for name in names)
            assert not any(name in shown["text"] or name in shown["assumes"] for name in names)
            assert not any(name in str(odds.position(rules, s)["attacks"]) for name in names)
            return
    raise AssertionError("no attack with a hidden defending air asset in range in 40 random games")


def test_a_look_beneath_a_stack_locks_undo() -> None:
    # Tunisia 6.0E: a move that shows a side a hidden piece cannot be taken back (Match.play's reveal lock):
    # the mover's look beneath an enemy stack, or the enemy's sight of a piece that left the mover's stack
    # (against the computer, the person must not take back the computer's reveal with his own move)
    locked = undone = mine = 0
    for m, _ in _random_games(range(3)):
        s, rules = m.state, m.ruleset
        if s.phase != Phase.MOVEMENT or m.to_act not in SIDE_NAMES:
            continue
        side = m.to_act
        viewer = SIDE_NAMES.index(side)
        before = {v: set(hidden_from(rules, s, v)) for v in range(len(SIDE_NAMES))}
        for action in [a for a in m.legal_actions() if a.startswith("move ")][:40]:
            twin = m.clone()
            twin.play(action)
            if twin.to_act != side:
                continue
            shown = {v: before[v] - set(hidden_from(rules, twin.state, v)) for v in before}
            if any(shown.values()):
                assert not twin.can_undo
                locked += 1
                mine += bool(shown[viewer])
            else:
                assert twin.can_undo
                undone += 1
        if locked and undone and mine:
            return
    raise AssertionError(f"not all seen: {locked} reveals ({mine} to the mover), {undone} plain moves")


def test_the_computers_reveal_cannot_be_taken_back_with_the_persons_move() -> None:
    # Tunisia 6.0E: against the computer, an undo takes back the computer's replies with the person's last
    # decision. When those replies showed the person a piece from beneath a stack (no die rolled between), the
    # undo must stop there: the person would keep the look and re-make the decision (a cheating-opponent
    # audit, 6 December)
    import warroom
    from warroom.ai import get_agent
    from warroom.games.tunisia.position import seen_hidden

    for seed in range(6):
        m = warroom.new_game("tunisia", seed=seed)
        agent = get_agent("heuristic", "tunisia", seed=seed)
        mine: tuple[int, frozenset[int], int] | None = None  # after the person's decision: actions, seen, dice
        while not m.over:
            side = m.to_act
            if side == "Allied" and mine is not None:
                made, seen, rolled = mine
                replies = len(m.actions) - made
                if replies and len(m.dice_rolled) == rolled and not seen_hidden(m.ruleset, m.state, side) <= seen:
                    twin = m.clone()
                    with pytest.raises(UndoLockedError):  # the person's own decision stays out of reach
                        for _ in range(replies + 1):
                            twin.undo()
                    assert m.undoable <= replies
                    return
            action, _ = agent.choose(m)
            m.play(action)
            if side == "Allied":
                mine = (len(m.actions), seen_hidden(m.ruleset, m.state, "Allied"), len(m.dice_rolled))
    raise AssertionError("no computer reply showed the person a hidden piece without a roll in 6 games")
