"""Tunisia 6.0E is read once (position.hidden_stacks): what a seat's view hides and what the search's
determinization deals again for that seat are the same pieces, in random positions and in the battles among
them. Before, the two were written apart and differed: the determinization left the battle's hexes as they
were, while the view hid pieces there, so search kept, unsampled, pieces its seat could not see."""

from __future__ import annotations

import random
from collections.abc import Iterator

import warroom
from warroom.engine.match import Match
from warroom.games.tunisia.catalog import SIDE_NAMES
from warroom.games.tunisia.determinize import determinize
from warroom.games.tunisia.position import hidden_from, observation, state_to_json
from warroom.games.tunisia.rules import TunisiaRules
from warroom.games.tunisia.state import TunisiaState

SEEDS = (4, 12, 23)
"""Random games in which a battle is fought beside a stack its defender has no unit next to (seen by search)."""
STRIDE = 7
"""Every STRIDE-th position is checked, and every position with a battle."""


def _positions() -> Iterator[Match]:
    for seed in SEEDS:
        m = warroom.new_game("tunisia", seed=seed, keep_log=False)
        rng = random.Random(seed)
        step = 0
        while not m.over:
            if step % STRIDE == 0 or m.state.battle is not None:
                yield m
            m.play(rng.choice(m.legal_actions()))
            step += 1


def _unexamined(rules: TunisiaRules, s: TunisiaState, viewer: int) -> tuple[set[int], set[int]]:
    """6.0E from the rulebook, piece by piece: an enemy piece not on top of its stack (the top: its unit, else its
    first support asset) where no unit of `viewer` stands next to the stack ("not just support assets"). Returns
    (hidden, open in battle): the reading adds that the two hexes of a battle being fought are open to both."""
    cat, neighbours = rules.cat, rules.board.grid.neighbour_table
    fighting = {s.battle.origin, s.battle.target} if s.battle is not None else set()
    hidden: set[int] = set()
    in_battle: set[int] = set()
    for p, where in enumerate(s.loc):
        if where < 0 or cat.side[p] == viewer:
            continue
        stack = [q for q, at in enumerate(s.loc) if at == where]
        top = next((q for q in stack if cat.is_unit[q]), stack[0])
        watched = any(
            at >= 0 and cat.side[q] == viewer and cat.is_unit[q] and where in neighbours[at]
            for q, at in enumerate(s.loc)
        )
        if p != top and not watched:
            (in_battle if where in fighting else hidden).add(p)
    return hidden, in_battle


def test_the_sample_deals_again_exactly_what_the_view_hides() -> None:
    # Tunisia 6.0E: "Neither side may look beneath the top unit of an enemy stack unless a friendly unit (not just
    # support assets) is adjacent"; what a seat may not see, its search may not keep either
    checked = marked = dealt = fought = 0
    for m in _positions():
        s, rules = m.state, m.ruleset
        for viewer, side in enumerate(SIDE_NAMES):
            rulebook, in_battle = _unexamined(rules, s, viewer)
            hidden = set(hidden_from(rules, s, viewer))
            assert hidden == rulebook, (side, sorted(hidden ^ rulebook))
            fought += bool(in_battle)
            ids = {rules.cat.ids[p] for p in hidden}
            view = observation(rules, s, side)
            on_map = {pid for pid, entry in state_to_json(rules, s)["pieces"].items() if entry["at"] in rules.labels}
            assert on_map - set(view["pieces"]) == ids  # the view leaves out exactly those ...
            world = determinize(s, side, random.Random(checked))
            assert observation(rules, world, side) == view  # ... the sample changes nothing the view shows ...
            real, sample = state_to_json(rules, s)["pieces"], state_to_json(rules, world)["pieces"]
            changed = {pid for pid in real if real[pid] != sample[pid]}
            assert changed <= ids, (side, sorted(changed - ids))
            for p in hidden:  # ... and draws afresh everything it hides: where it was, its step, what it did
                assert not world.moved[p] and not world.attacked[p], (side, rules.cat.ids[p])
                assert world.mp_spent[p] == 0.0 and world.moved_from[p] == -1, (side, rules.cat.ids[p])
                marked += s.moved[p] or s.attacked[p]
            dealt += bool(changed)
            checked += 1
    # the checks had work to do: hidden pieces that had moved or attacked (their marks hidden and redrawn), samples
    # that changed something, and battles beside a stack the adjacency alone would hide
    assert checked > 300 and marked > 0 and dealt > 0 and fought > 0, (checked, marked, dealt, fought)
