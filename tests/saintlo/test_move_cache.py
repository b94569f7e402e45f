"""Saint-Lo 6.1, 7.5: the move lists the remembered reaches give are the rulebook's, step by step.

movement.py remembers each unit's last move ids, each land reach and the breadth-first steps behind it, and
answers a list from them while the hexes a search looked at keep their occupancy. This test walks random
games and compares every land unit's listed moves with a plain search written from the rules alone; the
lists made from what listing.py, setup.py and reorganization.py remember are compared with lists made afresh."""

from __future__ import annotations

import random

import pytest
from saintlo_positions import rules2, rules4

from warroom import Match
from warroom.games.saintlo.state import OFF, Phase
from warroom.games.saintlo.tables import AIRCRAFT, MOBILITY_STAT, SUPPLY


def _plain_reach(t, s, u: int) -> list[int]:  # type: ignore[no-untyped-def]
    """6.1: up to its mobility, one hex a step (Supply units along roads: 7.5); through own land units and own
    live posts, never through the enemy's; ending where no land unit and no live post stands. Nearest first,
    in hex order within a distance."""
    army = t.unit_army[u]
    steps = t.supply_steps if t.unit_type[u] == SUPPLY else t.land_steps
    enemy_land = {s.pos[v] for v in t.land_units[1 - army] if s.pos[v] != OFF}
    enemy_posts = {h for p, h in enumerate(s.post_hex) if h >= 0 and p // 8 != army}
    any_land = {s.pos[v] for v in t.land_units[0] + t.land_units[1] if s.pos[v] != OFF}
    any_post = {h for h in s.post_hex if h >= 0}
    start = s.pos[u]
    seen, frontier, out = {start}, [start], []
    for _ in range(t.base[u][MOBILITY_STAT]):
        entered = sorted({j for h in frontier for j in steps[h]} - seen - enemy_land - enemy_posts)
        seen.update(entered)
        frontier = entered
        out.extend(j for j in entered if j not in any_land and j not in any_post)
    return out


@pytest.mark.parametrize(("make", "seed"), [(rules2, 1), (rules2, 2), (rules4, 3)])
def test_every_listed_land_move_is_the_rulebooks(make, seed: int) -> None:  # type: ignore[no-untyped-def]
    # Saint-Lo 6.1 and 7.5, through the caches of a whole random game (no Battle Report in play)
    rules = make()
    t = rules.t
    match = Match(rules, rules.initial_state(None, {"turn_limit": 3}), seed=seed, keep_log=False)
    chooser = random.Random(seed)
    checked = 0
    while not match.over:
        s = match.state
        legal = match.legal_actions()
        if s.phase == Phase.ACTIONS and not s.effects:
            listed: dict[str, list[str]] = {}
            for a in legal:
                if a.startswith("move "):
                    listed.setdefault(a.split()[1], []).append(a.split()[2])
            for uid, labels in listed.items():
                u = t.unit_index[uid]
                if t.unit_type[u] != AIRCRAFT:
                    assert labels == [t.labels[h] for h in _plain_reach(t, s, u)], uid
                    checked += 1
        match.play(chooser.choice(legal))
    assert checked > 200


def _forget(t) -> None:  # type: ignore[no-untyped-def]
    """Empty every memory the tables keep of earlier lists."""
    t.last_choices[:] = [None] * t.n_units
    t.last_moves[:] = [None] * t.n_units
    for cache in (t.reach_cache, t.level_cache, t.last_deploy, t.entry_pickers, t.entry_cache, t.affected_cache):
        cache.clear()


@pytest.mark.parametrize(("make", "seed"), [(rules2, 4), (rules2, 5), (rules4, 6)])
def test_a_list_from_remembered_choices_is_the_list_made_afresh(make, seed: int) -> None:  # type: ignore[no-untyped-def]
    # Saint-Lo 4.3, 5.3, 5.4, 6, 7, 9: listing.py keeps each unit's last moves and attacks while its hex and
    # the occupancy they depend on stand (a Battle Report's units aside), setup.py each kind's last deploy
    # ids, reorganization.py the entry hexes by the units beside the posts; every deployment, Movement and
    # Attack and Reorganization list of a random game, Battle Reports in play included, must equal the one
    # a second ruleset makes with nothing remembered
    rules, afresh = make(), type(make())()
    match = Match(rules, rules.initial_state(None, {"turn_limit": 3}), seed=seed, keep_log=False)
    chooser = random.Random(seed)
    checked: dict[Phase, int] = {}
    with_cards = 0
    while not match.over:
        s = match.state
        legal = match.legal_actions()
        if s.phase in (Phase.DEPLOY, Phase.REORGANIZE) or (s.phase == Phase.ACTIONS and s.current == OFF):
            fresh = rules.clone(s)
            fresh.legal = fresh.unit_masks = None
            _forget(afresh.t)
            assert afresh.legal_actions(fresh) == legal
            checked[s.phase] = checked.get(s.phase, 0) + 1
            with_cards += bool(s.effects)
        match.play(chooser.choice(legal))
    assert min(checked.get(phase, 0) for phase in (Phase.DEPLOY, Phase.ACTIONS, Phase.REORGANIZE)) > 20
    assert with_cards > 0
