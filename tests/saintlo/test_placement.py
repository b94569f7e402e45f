"""Saint-Lo 4.2, 4.3: setup in bulk (placement.py): `ready` places all the rest the computer's way, `sector NAME`
deploys all the rest in one half of the sector; one by one stays as it was.

Each bulk deployment must be what single deployments could have made (the same checks), final (4.3), varied by
the game's seeded dice and replayed from a record, and no more visible to the other army than single ones: the
backs it sees must leave at least 10^6 equally likely assignments of the counters (the dice that deal them)."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import permutations, product
from math import factorial, prod

import pytest

import warroom
from warroom.engine.errors import IllegalActionError, UndoLockedError
from warroom.engine.observe import visible_events
from warroom.engine.ruleset import CHANCE
from warroom.games.saintlo import ai, placement
from warroom.games.saintlo.invariants import problems
from warroom.games.saintlo.render import pending_roll
from warroom.games.saintlo.seats import kind_for
from warroom.games.saintlo.state import OFF, Phase

ALLIED, AXIS = 0, 1


def _posts_ready(m: warroom.Match) -> None:
    """4.2: both armies' Command Posts placed with `ready` (two decisions)."""
    while m.state.phase == Phase.POSTS:
        m.play("ready")


def _army_layout(m: warroom.Match, army: int) -> set[tuple[str, str]]:
    """(kind, hex) of every counter of the army on the board."""
    t = m.ruleset.t
    return {(t.kinds[t.unit_kind[u]].id, t.labels[m.state.pos[u]]) for u in t.army_units[army] if m.state.pos[u] != OFF}


def _as_singles(m: warroom.Match, before, army: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The single `deploy` ids that place the army's counters placed since `before`, kind by kind in unit order
    (the order the bulk placed them: placement.deploy_rest)."""
    t = m.ruleset.t
    return [
        f"deploy {t.kinds[t.unit_kind[u]].id} {t.labels[m.state.pos[u]]}"
        for u in t.army_units[army]
        if m.state.pos[u] != OFF and before.pos[u] == OFF
    ]


def test_a_ready_deployment_is_legal_and_complete() -> None:
    # Saint-Lo 4.3: every counter of the seat deployed at once, each where a single deployment was legal then
    m = warroom.new_game("saintlo", seed=11)
    _posts_ready(m)
    assert m.to_act == "Allied" and m.state.phase == Phase.DEPLOY
    assert {"ready", "sector west", "sector east"} <= set(m.legal_actions())
    before = m.ruleset.clone(m.state)
    m.play("ready")  # its die is rolled at once (seeded dice)
    t = m.ruleset.t
    assert all(m.state.pos[u] != OFF for u in t.army_units[ALLIED])  # all 65 (4.3, open question 1)
    assert m.to_act == "Axis" and m.state.bulk == OFF
    assert problems(m.ruleset, m.state) == []  # one unit a hex, no land unit on a river or a post, Supply on roads
    singles = _as_singles(m, before, ALLIED)
    assert len(singles) == 65
    replay = m.ruleset.clone(before)
    for action in singles:  # the one-by-one checks (setup.deploy_hexes) accept each, in order
        m.ruleset.apply(replay, action, log=False)
    assert replay.pos == m.state.pos and replay.seat == m.state.seat


def test_a_ready_deployment_differs_between_seeds_and_is_the_same_for_the_same_seed() -> None:
    # Saint-Lo 4.3: the die that varies it is the game's (seeded): same seed, same deployment; a record replays it
    layouts = []
    for seed in range(1, 7):
        m = warroom.new_game("saintlo", seed=seed)
        _posts_ready(m)
        m.play("ready")
        layouts.append(frozenset(_army_layout(m, ALLIED)))
        again = warroom.new_game("saintlo", seed=seed)
        _posts_ready(again)
        again.play("ready")
        assert _army_layout(again, ALLIED) == layouts[-1]
        loaded = warroom.load(m.record().to_json())
        assert loaded.state.pos == m.state.pos and loaded.dice_rolled == m.dice_rolled
    assert len(set(layouts)) >= 3  # six seeds: the die varies it
    shared = min(len(a & b) for a in layouts for b in layouts)
    assert shared < 50  # not a counter or two: most of the deployment moves from one face to another


def test_each_face_is_the_computers_placement_shifted() -> None:
    # Saint-Lo 4.3: face 0 (no die shows it) is the computer's own deployment (ai.deployment_plan) exactly; each
    # die face keeps its shape (fighting units at the front, Supply units behind) with other hexes
    m = warroom.new_game("saintlo", seed=1)
    _posts_ready(m)
    rules, t = m.ruleset, m.ruleset.t
    plan = ai.deployment_plan(rules, m.state)
    own = rules.clone(m.state)
    placed = placement.deploy_rest(t, own, placement.WHOLE, 0)
    assert tuple(f"deploy {t.kinds[t.unit_kind[u]].id} {t.labels[own.pos[u]]}" for u in placed) == plan
    for face in range(1, 7):
        s = rules.clone(m.state)
        placement.deploy_rest(t, s, placement.WHOLE, face)
        depth = {
            kind_type: [
                placement.depth(t, ALLIED, s.pos[u]) for u in t.army_units[ALLIED] if t.unit_type[u] == kind_type
            ]
            for kind_type in set(t.unit_type)
        }
        assert max(depth[0]) <= 2 and max(depth[1]) <= 3  # infantry, tanks: the front rows
        assert all(2 <= d <= 6 for d in depth[4])  # Supply units: behind, about four rows back


def test_rest_for_me_keeps_the_counters_placed_by_hand() -> None:
    # Saint-Lo 4.3: a few placed one by one, then "the rest for me": those stay where they are (final), the rest go
    m = warroom.new_game("saintlo", seed=4)
    _posts_ready(m)
    by_hand = ["deploy us_m4a3e2_jumbo 0101", "deploy us_b17b 0203", "deploy us_gmc_6x6 1001"]
    for action in by_hand:
        m.play(action)
    label = m.ruleset.describe_action(m.state, "ready")
    assert label.startswith("Deploy the rest for me (the computer's placement, 62 counters")
    m.play("ready")
    t = m.ruleset.t
    for action in by_hand:
        _, kind, where = action.split()
        assert t.labels[m.state.pos[t.unit_index[f"{kind}.1"]]] == where
    assert all(m.state.pos[u] != OFF for u in t.army_units[ALLIED]) and m.to_act == "Axis"


def test_all_remaining_in_one_sector() -> None:
    # Saint-Lo 4.3: "sector west" deploys every remaining counter in the west half of the own sector (NOTES.md)
    m = warroom.new_game("saintlo", seed=8)
    _posts_ready(m)
    t = m.ruleset.t
    m.play("sector west")
    columns = {int(t.labels[m.state.pos[u]][:2]) for u in t.army_units[ALLIED]}
    assert max(columns) <= 12 and len(columns) > 6
    assert problems(m.ruleset, m.state) == []
    m.play("sector east")  # the Axis: the east of its own sector (south of the start line)
    assert all(int(t.labels[m.state.pos[u]][:2]) >= 13 for u in t.army_units[AXIS])
    assert all(t.sector[m.state.pos[u]] == AXIS for u in t.army_units[AXIS])
    assert m.state.phase not in (Phase.POSTS, Phase.DEPLOY)  # both deployed: revealed, cards dealt


def test_a_sector_is_offered_only_while_all_that_is_left_fits() -> None:
    # Saint-Lo 4.3, 7.5: one unit a hex, Supply units on roads: a half that cannot take them all is refused
    m = warroom.new_game("saintlo", seed=8)
    _posts_ready(m)
    rules, t = m.ruleset, m.ruleset.t
    roads = [h for h in t.sector_land[ALLIED] if t.on_road[h] and int(t.labels[h][:2]) <= 12]
    for h in roads:  # infantry by hand on the west's roads, until its roads cannot take the ten Supply units
        if "sector west" not in m.legal_actions():
            break
        m.play(f"deploy us_infantry {t.labels[h]}")
    assert "sector west" not in m.legal_actions()
    assert "sector east" in m.legal_actions() and "ready" in m.legal_actions()
    before = rules.clone(m.state)
    with pytest.raises(IllegalActionError, match=r"do not all fit in the west of the sector.*4\.3"):
        m.play("sector west")
    assert m.state.pos == before.pos and m.state.bulk == OFF  # refused, nothing changed
    m.play("sector east")
    assert all(m.state.pos[u] != OFF for u in t.army_units[ALLIED])
    assert problems(rules, m.state) == []


def test_the_other_army_sees_no_more_than_single_deployments_show() -> None:
    # Saint-Lo 4.3: face down; the other army sees backs on hexes, exactly as after the same single deployments,
    # and no event of it
    m = warroom.new_game("saintlo", seed=3)
    _posts_ready(m)
    before = m.ruleset.clone(m.state)
    events = m.play("ready")
    assert events and visible_events(m.ruleset, events, "Axis") == []
    assert all("face down" in e["text"] for e in visible_events(m.ruleset, events, "Allied"))
    singles = warroom.new_game("saintlo", seed=3)
    _posts_ready(singles)
    single_events = []
    for action in _as_singles(m, before, ALLIED):
        single_events += singles.play(action)
    assert visible_events(singles.ruleset, single_events, "Axis") == []
    assert m.view("Axis")["state"] == singles.view("Axis")["state"]
    assert "us_infantry.1" not in m.view("Axis")["state"]["units"]  # the backs only (position.py)


def test_a_bulk_deployment_is_final_and_the_posts_ready_are_not() -> None:
    # Saint-Lo 4.3: "Once a counter is placed in the board, it cannot be moved"; the Command Posts (4.2) may be
    # taken back until the first deployment (NOTES.md)
    m = warroom.new_game("saintlo", seed=5)
    m.play("ready")
    assert m.can_undo
    m.undo()
    assert all(h == OFF for h in m.state.post_hex[:8])
    _posts_ready(m)
    m.play("sector east")
    assert not m.can_undo
    with pytest.raises(UndoLockedError):
        m.undo()


def test_the_posts_ready_are_the_computers() -> None:
    # Saint-Lo 4.2: `ready` places the army's Command Posts left as the heuristic would, one a hex on its colour
    m = warroom.new_game("saintlo", seed=5)
    m.play("post 1807 2")
    assert m.ruleset.describe_action(m.state, "ready").endswith("(the computer's placement, 7 posts)")
    twin = m.ruleset.clone(m.state)
    while twin.active == ALLIED:
        m.ruleset.apply(twin, ai.heuristic_policy(m.ruleset, twin)[0], log=False)
    m.play("ready")
    assert m.state.post_hex == twin.post_hex and m.to_act == "Axis"
    t = m.ruleset.t
    assert sorted(m.state.post_hex[:8]) == sorted(t.post_hexes[ALLIED])


def test_table_mode_types_in_the_dice() -> None:
    # Saint-Lo 4.3 (manual dice): the dice of a bulk deployment are typed in like any other, nine for a seat's
    # whole deployment (eight that deal the counters, then the one that varies the hexes); the other army is told
    # only that one was chosen, never a die of it
    m = warroom.new_game("saintlo", dice="manual")
    _posts_ready(m)
    t = m.ruleset.t
    assert placement.shuffle_dice(t, m.state) == placement.SHUFFLE_DICE == 8
    m.play("sector west")
    typed = [3, 1, 6, 2, 5, 5, 4, 1, 2]
    for k, die in enumerate(typed):
        assert m.ruleset.to_act(m.state) == CHANCE and m.legal_actions() == [f"roll {n}" for n in range(1, 7)]
        assert str(pending_roll(m)).startswith(f"Die {k + 1} of 9: ")  # the terminal's prompt says which
        assert m.view("Allied")["state"]["bulk"] == "west" and m.view("Axis")["state"]["bulk"] == "chosen"
        assert m.view("Allied")["state"].get("bulk_dice", []) == typed[:k]
        assert "bulk_dice" not in m.view("Axis")["state"]  # hidden information: the dice that deal are not its
        saved = m.ruleset.state_from_json(json.loads(json.dumps(m.ruleset.state_to_json(m.state))))
        assert saved.bulk == m.state.bulk == 1 and saved.bulk_dice == m.state.bulk_dice  # a save keeps them
        with pytest.raises(IllegalActionError, match="4.3"):
            m.ruleset.apply(m.state, "deploy us_infantry 0101")
        assert all(m.state.pos[u] == OFF for u in t.army_units[ALLIED])
        m.play(f"roll {die}", side="dice")
    assert m.to_act == "Axis" and m.state.bulk == OFF and m.state.bulk_dice == ()
    expected = warroom.new_game("saintlo", seed=1)
    _posts_ready(expected)
    dealt = placement.deal_index(expected.ruleset.t, expected.state, typed[:-1])
    placement.deploy_rest(expected.ruleset.t, expected.state, 1, typed[-1], dealt)
    assert m.state.pos == expected.state.pos
    assert warroom.load(m.record().to_json()).state.pos == m.state.pos  # the record keeps the typed dice


def _bulk_with(dealing: list[int], face: int, game: str = "saintlo") -> warroom.Match:
    """A game whose first deploying seat plays `ready` with scripted dice: `dealing`, then `face`."""
    m = warroom.new_game(game, dice=[*dealing, face])
    _posts_ready(m)
    m.play("ready")
    return m


def _identities(m: warroom.Match, army: int) -> dict[str, str]:
    """Hex -> kind of each of the army's counters on the board: what the backs hide."""
    t = m.ruleset.t
    return {t.labels[m.state.pos[u]]: t.kinds[t.unit_kind[u]].id for u in t.army_units[army] if m.state.pos[u] != OFF}


def test_the_other_army_cannot_tell_the_deal() -> None:
    # Saint-Lo 4.3, hidden information: two games alike but for the dice that deal the counters show the other
    # army the same observation, events and undo refusal, while most counters stand on other hexes; the backs
    # are those of single deployments of the same hexes
    rng = random.Random(5)
    face = 4
    games = [_bulk_with([rng.randint(1, 6) for _ in range(8)], face) for _ in range(4)]
    first = games[0]
    opponent = first.view("Axis")
    for m in games[1:]:
        assert m.view("Axis") == opponent
        assert visible_events(m.ruleset, m.log, "Axis") == visible_events(first.ruleset, first.log, "Axis")
        assert m.undo_locked == first.undo_locked  # names the last die, the face, which the backs show anyway
        assert set(_identities(m, ALLIED)) == set(_identities(first, ALLIED))  # the same hexes
        differ = sum(_identities(m, ALLIED)[h] != k for h, k in _identities(first, ALLIED).items())
        assert differ > 20  # not the same deployment: the identities moved
    assert len({tuple(m.state.pos) for m in games}) == len(games)
    assert all("die" not in json.dumps(e) for e in visible_events(first.ruleset, first.log, "Axis"))
    singles = warroom.new_game("saintlo", seed=3)
    _posts_ready(singles)
    before = first.ruleset.clone(singles.state)
    for action in _as_singles(first, before, ALLIED):
        singles.play(action)
    assert singles.view("Axis")["state"] == opponent["state"]


def _role_counts_from_data(t, seat_kinds) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """Per role (fighting units: infantry and tanks; artillery; aircraft; Supply units), the counters of each kind."""
    roles = (("infantry", "tank"), ("artillery",), ("aircraft",), ("supply",))
    return [[len(t.kind_units[k]) for k in seat_kinds if t.kinds[k].type in types] for types in roles]


def test_a_view_leaves_at_least_a_million_equally_likely_deals() -> None:
    # Saint-Lo 4.3, hidden information: whatever the backs show, the counters of each role may stand on its hexes
    # in any order (counters of a kind alike): the product of the roles' multinomials, worked out here from the
    # order of battle; the eight dice pick one of 6^8 = 1,679,616 of them, each another, so a view is consistent
    # with at least 10^6 equally likely assignments, for each seat of both games
    for game in ("saintlo", "saintlo-teams"):
        m = warroom.new_game(game, seed=2)
        _posts_ready(m)
        t = m.ruleset.t
        while m.state.phase == Phase.DEPLOY:
            seat_kinds = [k for k in t.army_kinds[m.state.active] if kind_for(t, m.state, m.state.seat, k)]
            counts = _role_counts_from_data(t, seat_kinds)
            total = prod(factorial(sum(c)) // prod(factorial(n) for n in c) for c in counts)
            assert placement.assignments(t, m.state) == total >= 6**8 > 10**6, (game, m.to_act)
            assert placement.shuffle_dice(t, m.state) == 8
            m.play("ready")
    m = warroom.new_game("saintlo", seed=2)
    _posts_ready(m)
    t, s = m.ruleset.t, m.state
    steps = placement.footprint(t, s, placement.WHOLE, 2)
    deals = {tuple(placement.deal(t, s, steps, placement.deal_index(t, s, d))) for d in _some_throws(300)}
    assert len(deals) == 300  # distinct throws, distinct deals
    for kinds in deals:  # each keeps the roles: a counter only on a hex its role took
        assert [placement.role_of(t.kind_type[k]) for k in kinds] == [role for role, _ in steps]
    for i in range(len(steps)):  # spread over every hex (each role has two kinds or more): none keeps one kind
        assert len({kinds[i] for kinds in deals}) > 1, t.labels[steps[i][1]]


def _some_throws(n: int) -> set[tuple[int, ...]]:
    rng = random.Random(n)
    throws: set[tuple[int, ...]] = set()
    while len(throws) < n:
        throws.add(tuple(rng.randint(1, 6) for _ in range(8)))
    return throws


def test_every_deal_is_one_order_of_the_roles() -> None:
    # Saint-Lo 4.3: with a few counters left, the deal numbers are exactly the distinct orders of each role's
    # counters over its hexes (counted by brute force), each once: no throw repeats another's assignment
    m = warroom.new_game("saintlo", seed=6)
    _posts_ready(m)
    t = m.ruleset.t
    keep = {"us_infantry": 2, "us_m5": 1, "us_m4a1_76w": 2, "us_m2a1": 1, "us_m7_priest": 1, "us_p51d": 1}
    while True:  # by hand all but `keep` (the first legal hex of each kind's turn)
        left = [a for a in m.legal_actions() if a.startswith("deploy ")]
        to_place = [
            a
            for a in left
            if sum(m.state.pos[u] == OFF for u in t.kind_units[t.kind_index[a.split()[1]]]) > keep.get(a.split()[1], 0)
        ]
        if not to_place:
            break
        m.play(to_place[0])
    s = m.state
    assert placement.assignments(t, s) == factorial(5) // (2 * 2) * 2  # 5 fighting units (2, 1, 2), 2 artillery
    steps = placement.footprint(t, s, placement.WHOLE, 1)
    deals = [tuple(placement.deal(t, s, steps, i)) for i in range(placement.assignments(t, s))]
    front = [k for (role, _), k in zip(steps, deals[0], strict=True) if role == 0]
    assert len(set(deals)) == len(deals) == len(set(permutations(front))) * 2
    # how many dice rests on the counters left alone (8, seen as the backs not yet on the map), never on their
    # kinds: 8! = 40,320 gives five dice whatever is left, and 6^5 throws fall on the 60 deals 129 or 130 times
    assert placement.shuffle_dice(t, s) == 5
    hits = Counter(placement.deal_index(t, s, throw) for throw in product(range(1, 7), repeat=5))
    assert len(hits) == 60 and set(hits.values()) == {129, 130}


def test_a_deal_is_seeded_and_replayed() -> None:
    # Saint-Lo 4.3: the same seed deals the same (the game's seeded dice); a record replays the deal exactly
    for seed in (21, 22):
        games = []
        for _ in range(2):
            m = warroom.new_game("saintlo-teams", seed=seed)
            _posts_ready(m)
            m.play("ready")
            games.append(m)
        assert games[0].state.pos == games[1].state.pos and games[0].dice_rolled == games[1].dice_rolled
        assert len(games[0].dice_rolled) == 9  # eight that deal, one that varies the hexes
        loaded = warroom.load(games[0].record().to_json())
        assert loaded.state.pos == games[0].state.pos
    assert _identities(_bulk_with([1] * 8, 3), ALLIED) != _identities(_bulk_with([6] * 8, 3), ALLIED)


def test_random_setups_mixing_bulk_and_single_placements_keep_every_rule() -> None:
    # Saint-Lo 4.2, 4.3, 7.5, 10.1: single placements and bulk ones in any mix, every position checked
    # (invariants.py: one unit a hex, no land unit on a river or a post, Supply units on roads, ...)
    for game in ("saintlo", "saintlo-teams"):
        for seed in range(6):
            m = warroom.new_game(game, seed=seed, keep_log=False)
            rng = random.Random(seed)
            previous = m.ruleset.clone(m.state)
            while m.state.phase in (Phase.POSTS, Phase.DEPLOY):
                legal = m.legal_actions()
                bulk = [a for a in legal if a == "ready" or a.startswith("sector ")]
                m.play(rng.choice(bulk) if rng.random() < 0.05 else rng.choice(legal))
                assert problems(m.ruleset, m.state, previous) == [], (game, seed)
                previous = m.ruleset.clone(m.state)
            assert all(h != OFF for h in m.state.pos) and m.state.bulk == OFF


def test_each_team_player_deploys_his_own_in_bulk() -> None:
    # Saint-Lo 10.1: in the team game `ready` places only the seat's own counters (A infantry and aircraft)
    m = warroom.new_game("saintlo-teams", seed=2)
    _posts_ready(m)
    assert m.to_act == "Allied A"
    m.play("ready")
    t = m.ruleset.t
    placed = {t.unit_type[u] for u in t.army_units[ALLIED] if m.state.pos[u] != OFF}
    assert placed == {0, 3} and m.to_act == "Allied B"  # infantry, aircraft
    m.play("ready")
    assert all(m.state.pos[u] != OFF for u in t.army_units[ALLIED]) and m.to_act == "Axis A"


def _decisions(game: str, choose) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Each seat's decisions from the first Command Post to the end of deployment, with `choose(match)`: what a
    person takes (the dice a bulk deployment rolls at once, seeded, are none of them)."""
    m = warroom.new_game(game, seed=7)
    counts: dict[str, int] = {}
    while m.state.phase in (Phase.POSTS, Phase.DEPLOY):
        side = m.to_act
        counts[side] = counts.get(side, 0) + 1
        m.play(choose(m))
    return counts


def _typed_dice(game: str) -> dict[str, int]:
    """Each seat's dice typed in at a table (manual dice) for its `ready` deployment: the `roll N` entries asked
    for while its deployment in bulk waits."""
    m = warroom.new_game(game, dice="manual")
    _posts_ready(m)
    counts: dict[str, int] = {}
    while m.state.phase == Phase.DEPLOY:
        side = m.to_act
        m.play("ready")
        while m.state.phase == Phase.DEPLOY and m.state.bulk != OFF:
            assert m.to_act == "dice" and m.legal_actions() == [f"roll {n}" for n in range(1, 7)]
            counts[side] = counts.get(side, 0) + 1
            m.play("roll 6", side="dice")
    return counts


def _one_by_one(m: warroom.Match) -> str:
    return ai.heuristic_policy(m.ruleset, m.state)[0]


def _ready(m: warroom.Match) -> str:
    return "ready"


def _by_sector(m: warroom.Match) -> str:
    """The posts `ready`, then the first half of the sector that takes all the seat has left."""
    return next((a for a in m.legal_actions() if a.startswith("sector ")), "ready")


def test_decisions_a_setup_takes_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    # Saint-Lo 4.2, 4.3 (the count): one by one 8 posts and 65 counters a side (146 in all); ready or by
    # sector two a side; in the team game Player A places the posts and his 34 counters (23 infantry, 11
    # aircraft), Player B his 31 (14 tanks, 7 artillery, 10 Supply units): 146 one by one there too
    table = {
        (game, how): _decisions(game, choose)
        for game in ("saintlo", "saintlo-teams")
        for how, choose in (("one by one", _one_by_one), ("ready", _ready), ("by sector", _by_sector))
    }
    with capsys.disabled():
        for (game, how), counts in table.items():
            print(f"\n{game}, {how}: {counts} ({sum(counts.values())} in all)", end="")
        print()
    assert table["saintlo", "one by one"] == {"Allied": 73, "Axis": 73}
    assert table["saintlo", "ready"] == table["saintlo", "by sector"] == {"Allied": 2, "Axis": 2}
    assert table["saintlo-teams", "one by one"] == {"Allied A": 42, "Allied B": 31, "Axis A": 42, "Axis B": 31}
    assert table["saintlo-teams", "ready"] == {"Allied A": 2, "Allied B": 1, "Axis A": 2, "Axis B": 1}
    assert table["saintlo-teams", "by sector"] == table["saintlo-teams", "ready"]
    # the dice a bulk deployment rolls by itself (8 that deal the counters, 1 that varies the hexes) are no
    # decision of the seat: rolled at once with seeded dice, typed in at a table (manual dice) as `roll N`
    assert _typed_dice("saintlo") == {"Allied": 9, "Axis": 9}
    assert _typed_dice("saintlo-teams") == {"Allied A": 9, "Allied B": 9, "Axis A": 9, "Axis B": 9}
