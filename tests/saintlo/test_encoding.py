"""Saint-Lo's observation encoding (warroom/games/saintlo/encoding.py), for both ids: a fixed length along whole
games for every seat and the omniscient observer, nothing of what the rules hide in a seat's vector (the other
seats' hands, the decks' contents, the enemy's face-down units), and the declared bounds on legal actions and
chance outcomes, seen in random games and worked out from the data."""

from __future__ import annotations

import random
from typing import Any

import pytest

import warroom
from warroom import CHANCE
from warroom.games import get_ruleset, get_spec
from warroom.games.saintlo import attack as attacks
from warroom.games.saintlo import placement, setup
from warroom.games.saintlo.encoding import MAX_ACTIONS, MAX_CHANCE_OUTCOMES, MOST_DICE, SaintLoEncoding
from warroom.games.saintlo.odds import throw_outcomes
from warroom.games.saintlo.rules import SaintLoRules
from warroom.games.saintlo.seats import army_of, seats_of
from warroom.games.saintlo.state import OFF, Attack, Phase, SaintLoState
from warroom.games.saintlo.tables import (
    AIRCRAFT,
    ARTILLERY,
    ATTACK_STAT,
    GENERAL,
    INFANTRY,
    LAND_ATTACK_STAT,
    MOBILITY_STAT,
    SUPPLY,
    TANK,
    UNIQUE,
    Card,
    Tables,
)

GAMES = ("saintlo", "saintlo-teams")
ENCODING = SaintLoEncoding()
SIZE = ENCODING.size(None)
SHORT = {"turn_limit": 1}


def _viewers(game: str) -> tuple[str | None, ...]:
    return (*get_ruleset(game).info.sides, None)


def _vector(game: str, s: SaintLoState, side: str | None) -> list[float]:
    return ENCODING.encode(get_ruleset(game).observation(s, side), side, "standard")


def _play_until(game: str, seed: int, done: Any) -> warroom.Match:
    """A seeded uniform random game (one turn a side) played until `done(state)` holds."""
    m = warroom.new_game(game, seed=seed, keep_log=False, options=SHORT)
    rng = random.Random(seed)
    while not done(m.state):
        assert not m.over, "the game ended first"
        m.play(rng.choice(m.legal_actions()))
    return m


def test_both_specs_offer_one_layout() -> None:
    for game in GAMES:
        spec = get_spec(game)
        assert spec.encoding is not None and isinstance(spec.encoding(), SaintLoEncoding)
    # seats are slots by army and role (10), so both ids have one length
    assert 5_000 < SIZE < 9_000  # 384 hexes of 18 numbers, and the rest
    assert ENCODING.size("standard") == SIZE and len(ENCODING.encode({}, "Allied B", "standard")) == SIZE


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_keeps_its_length_along_random_games(game: str) -> None:
    m = warroom.new_game(game, seed=3, keep_log=False, options=SHORT)
    rng = random.Random(3)
    steps = 0
    while True:
        for side in _viewers(game):
            x = _vector(game, m.state, side)
            assert len(x) == SIZE, f"step {steps} side {side}"
            assert min(x) >= 0.0 and max(x) <= 2.0  # scaled to about [0, 1]
        if m.over:
            break
        m.play(rng.choice(m.legal_actions()))
        steps += 1
    assert steps > 200  # setup (posts, 130 units deployed) and a turn each


def test_the_values_shown_are_the_rules_values() -> None:
    # Saint-Lo 9: the Battle Reports in play change a unit's values until the turn's end; the vector shows them
    # as the rules count them (effects.stat), read from the observation's list of effects alone
    from warroom.games.saintlo.effects import stat
    from warroom.games.saintlo.encoding import SHOWN_STATS, _effective, _vocabulary

    rules = get_ruleset("saintlo")
    t = rules.t
    m = warroom.new_game("saintlo", seed=2, keep_log=False, options={"turn_limit": 2})
    rng = random.Random(2)
    checked = 0
    while not m.over:
        s = m.state
        if s.effects:
            view = rules.observation(s, None)
            shown = _effective(_vocabulary(), view["units"], view["effects"])
            for uid in view["units"]:
                u = t.unit_index[uid]
                assert shown[uid] == [stat(t, s, u, which) for which in SHOWN_STATS], uid
            checked += 1
        m.play(rng.choice(m.legal_actions()))
    assert checked > 10


def _swap_hidden_card(s: SaintLoState, seat: int) -> SaintLoState:
    """A copy where one card of `seat`'s hand and one of its army's deck change places (sizes kept)."""
    twin = s.clone()
    army = army_of(s, seat)
    held = twin.hands[seat][0]
    other = next(c for c, n in enumerate(twin.deck[army]) if n and c != held)
    twin.hands[seat] = sorted([*twin.hands[seat][1:], other])
    twin.deck[army][other] -= 1
    twin.deck[army][held] += 1
    return twin


@pytest.mark.parametrize("game", GAMES)
def test_the_other_seats_hands_and_the_decks_change_nothing_in_a_seats_vector(game: str) -> None:
    # Saint-Lo 9 (and 10.1 in the team game): a hand is seen by its seat only, the others see its size; the deck's
    # order exists nowhere and what is left in it is seen by nobody: a seat sees only its size
    rules = get_ruleset(game)
    m = _play_until(game, 5, lambda s: s.turn >= 1 and s.phase in (Phase.WINDOW, Phase.ACTIONS))
    s = m.state
    sides = rules.info.sides
    before = {side: _vector(game, s, side) for side in _viewers(game)}
    for seat, owner in enumerate(sides):
        twin = _swap_hidden_card(s, seat)
        assert rules.observation(twin, None)["hands"] != rules.observation(s, None)["hands"]
        assert _vector(game, twin, None) != before[None]  # the omniscient observer sees the swap
        assert _vector(game, twin, owner) != before[owner]  # and so does the hand's seat
        for side in sides:
            if side != owner:
                assert _vector(game, twin, side) == before[side], (owner, side)  # a partner too (10)
    for army in (0, 1):  # the deck's contents alone, its size kept
        twin = s.clone()
        full = [c for c, n in enumerate(twin.deck[army]) if n]
        assert len(full) >= 2
        twin.deck[army][full[0]] -= 1
        twin.deck[army][full[1]] += 1
        assert _vector(game, twin, None) != before[None]
        assert all(_vector(game, twin, side) == before[side] for side in sides)


@pytest.mark.parametrize("game", GAMES)
def test_the_enemys_face_down_units_change_nothing_in_a_seats_vector(game: str) -> None:
    # Saint-Lo 4.3: units are deployed face down until both armies are done; the Axis sees the Allied backs (their
    # hexes, and whether each is an aircraft: NOTES.md), never which counter stands on which back
    rules = get_ruleset(game)
    t = rules.t
    m = _play_until(game, 7, lambda s: s.phase == Phase.DEPLOY and s.active == 1)
    s = m.state
    assert all(s.pos[u] != OFF for u in t.army_units[0])  # the Allies are all deployed
    axis = [side for side in rules.info.sides if rules.seat_index[side] in seats_of(s, 1)]
    allied = [side for side in rules.info.sides if side not in axis]
    before = {side: _vector(game, s, side) for side in _viewers(game)}

    def first(kind_type: int, attack: int) -> int:
        return next(u for u in t.army_units[0] if t.unit_type[u] == kind_type and t.base[u][ATTACK_STAT] == attack)

    for a, b in ((first(INFANTRY, 1), first(TANK, 4)), (first(AIRCRAFT, 2), first(AIRCRAFT, 1))):
        twin = s.clone()
        ha, hb = s.pos[a], s.pos[b]
        for u in (a, b):
            setup.lift(t, twin, u)
        setup.put(t, twin, a, hb)
        setup.put(t, twin, b, ha)  # the backs stay: the same hexes, land or air
        assert rules.observation(twin, axis[0])["backs"] == rules.observation(s, axis[0])["backs"]
        assert all(_vector(game, twin, side) == before[side] for side in axis)
        assert _vector(game, twin, None) != before[None]
        assert all(_vector(game, twin, side) != before[side] for side in allied)  # the owners see their units


@pytest.mark.parametrize("game", GAMES)
def test_a_determinized_position_encodes_as_the_real_one_for_its_seat(game: str) -> None:
    # what `determinize` deals again (hands, decks, face-down units) is what a seat's vector never shows
    spec = get_spec(game)
    assert spec.determinize is not None
    rng = random.Random(11)
    m = warroom.new_game(game, seed=11, keep_log=False, options=SHORT)
    compared = differ = 0
    steps = 0
    while (side := m.to_act) is not None:
        if steps % 8 == 0:  # the seat to decide, as IS-MCTS asks
            dealt = spec.determinize(m.state, side, rng)
            assert _vector(game, dealt, side) == _vector(game, m.state, side), (steps, side)
            differ += _vector(game, dealt, None) != _vector(game, m.state, None)
            compared += 1
        m.play(rng.choice(m.legal_actions()))
        steps += 1
    assert compared >= 20 and differ > 0


@pytest.mark.parametrize("game", GAMES)
def test_random_games_keep_within_the_bounds(game: str) -> None:
    rules = get_ruleset(game)
    most_actions = most_outcomes = 0
    for seed in range(16):
        rng = random.Random(seed)
        s = rules.initial_state(None, {"turn_limit": 2})
        while (side := rules.to_act(s)) is not None:
            if side == CHANCE:
                outcomes = rules.chance_outcomes(s)
                most_outcomes = max(most_outcomes, len(outcomes))
                rules.apply_chance(s, rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0], False)
            else:
                legal = rules.legal_actions(s)
                most_actions = max(most_actions, len(legal))
                rules.apply(s, rng.choice(legal), False)
    # the deployment alone offers over 1,200 (every kind still to place on every free hex of the sector, 4.3)
    assert 1_200 < most_actions < MAX_ACTIONS == ENCODING.max_actions
    assert 6 <= most_outcomes <= MAX_CHANCE_OUTCOMES == ENCODING.max_chance_outcomes


def _raise(cards: tuple[Card, ...], copies: tuple[int, ...], kind: int, unit_type: int, stat: int) -> int:
    """The most the army's own cards of `kind` can add to a stat of a unit of that type in one turn (9: each copy
    played once at most, since cards are drawn only at a turn's start, 5.2); hindrances left out."""
    return sum(
        by * n
        for card, n in zip(cards, copies, strict=True)
        if card.kind == kind and card.own and unit_type in card.types
        for which, by in card.mods
        if which == stat and by > 0
    )


def _most_reach(t: Tables, mobility: int) -> int:
    """The most hexes within `mobility` of a hex of this board, that hex excluded (6.1, 7.4: a move's end)."""
    return max(len(t.region(h, mobility)) for h in range(t.n_hexes)) - 1


def test_the_action_bound_follows_from_the_data() -> None:
    # Saint-Lo 5.3: Movement and Attack offers the most: every unit may move anywhere within its mobility (raised
    # by the army's cards: general ones on every unit of the group, the unique ones stacked on the unit they help
    # most), attack each neighbour (an aircraft also its own hex), and a full hand may be played on every unit
    # each card may select (9); 4.3 and 5.4 offer fewer
    t = SaintLoRules().t
    limit = t.rules.hand_limit
    for army in (0, 1):
        cards, copies = t.cards[army], t.deck_counts[army]
        moves, gains = 0, []
        for u in t.army_units[army]:
            kind = t.unit_type[u]
            mobility = t.base[u][MOBILITY_STAT] + _raise(cards, copies, GENERAL, kind, MOBILITY_STAT)
            moves += _most_reach(t, mobility)
            boosted = mobility + _raise(cards, copies, UNIQUE, kind, MOBILITY_STAT)
            gains.append(_most_reach(t, boosted) - _most_reach(t, mobility))
        attacks_ = sum(7 if t.unit_type[u] == AIRCRAFT else 6 for u in t.army_units[army])

        def selectable(card: Card, army: int = army) -> int:
            side = army if card.own else 1 - army
            return sum(1 for u in t.army_units[side] if t.unit_type[u] in card.types) if card.kind == UNIQUE else 1

        plays = sum(sorted(map(selectable, cards), reverse=True)[:limit])
        actions = moves + max(gains) + attacks_ + plays + 1
        sector = {
            AIRCRAFT: len(t.sector_hexes[army]),
            SUPPLY: sum(1 for h in t.sector_land[army] if t.on_road[h]),
        }
        deploy = sum(sector.get(t.kind_type[k], len(t.sector_land[army])) for k in t.army_kinds[army])
        deploy += 1 + len(placement.AREAS)  # Saint-Lo 4.3 in bulk: `ready`, `sector NAME`
        swaps = sum(1 for u in t.army_units[army] if t.unit_type[u] != SUPPLY)
        reorganize = len(t.army_kinds[army]) * 8 * 6 + swaps + plays + 1
        assert max(actions, deploy, reorganize) < MAX_ACTIONS, (army, actions, deploy, reorganize)
        assert actions > deploy > reorganize  # encoding.py's MAX_ACTIONS: 6,094 / 2,635 / 1,119 for the Axis


def test_the_dice_bound_follows_from_the_data() -> None:
    # Saint-Lo 6.2, 7.3: the attacker throws its attack plus each supporting artillery's; rule 7 puts no cap on
    # the dice (NOTES.md), so the bound is the strongest land attacker with the army's cards and all its artillery
    t = SaintLoRules().t
    most = 0
    for army in (0, 1):
        cards, copies = t.cards[army], t.deck_counts[army]

        def attack(u: int, cards: tuple[Card, ...] = cards, copies: tuple[int, ...] = copies) -> int:
            kind = t.unit_type[u]
            return (
                t.base[u][ATTACK_STAT]
                + _raise(cards, copies, UNIQUE, kind, ATTACK_STAT)
                + _raise(cards, copies, GENERAL, kind, ATTACK_STAT)
            )

        land = max(attack(u) for u in t.army_units[army] if t.unit_type[u] in (INFANTRY, TANK))
        air = max(  # against aircraft or land units (7.4), with no support
            max(attack(u), t.base[u][LAND_ATTACK_STAT] + _raise(cards, copies, UNIQUE, AIRCRAFT, LAND_ATTACK_STAT))
            for u in t.army_units[army]
            if t.unit_type[u] == AIRCRAFT
        )
        support = sum(attack(u) for u in t.army_units[army] if t.unit_type[u] == ARTILLERY)
        most = max(most, land + support, air)
    assert most == MOST_DICE == 23
    assert len(throw_outcomes(MOST_DICE)) == MAX_CHANCE_OUTCOMES == 98_280
    assert max(len(t.cards[0]), len(t.cards[1])) <= MAX_CHANCE_OUTCOMES  # a draw: one outcome per distinct card


def test_the_largest_throw_is_a_real_position() -> None:
    # Saint-Lo 6.2, 7.3, 9: a Tiger with both Ace of Tanks, Preparatory Barrage in play and all seven Axis
    # artillery in range of its target throws 23 dice: one chance node of C(28, 5) outcomes
    rules = SaintLoRules()
    t = rules.t
    s = rules.initial_state(None, SHORT)
    tiger = t.kind_units[t.kind_index["de_tiger_i"]][0]
    target = t.army_units[0][0]
    middle = next(h for h in t.sector_land[0] if sum(t.land_ok[j] for j in t.region(h, 3)) >= 12)
    setup.put(t, s, target, middle)
    near = [h for h in t.region(middle, 3) if t.land_ok[h] and h != middle]
    setup.put(t, s, tiger, next(h for h in near if t.distance[middle][h] == 1))
    artillery = [u for u in t.army_units[1] if t.unit_type[u] == ARTILLERY]
    for u, h in zip(artillery, [h for h in near if s.land_at[h] == OFF], strict=False):
        setup.put(t, s, u, h)
    axis = t.card_index[1]
    s.effects = (
        (1, axis["ace_of_tanks"], tiger),
        (1, axis["ace_of_tanks"], tiger),
        (1, axis["preparatory_barrage"], -1),
    )
    declared = Attack(tiger, target, 0)
    assert attacks.supporters(t, s, declared) == artillery  # all seven within range 3 of the target (7.3)
    s.attack = declared._replace(supporters=tuple(artillery))
    s.phase = Phase.ATTACK_ROLL
    assert attacks.attack_dice(t, s, s.attack) == MOST_DICE
    assert len(rules.chance_outcomes(s)) == MAX_CHANCE_OUTCOMES
