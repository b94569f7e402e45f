"""What the Saint-Lo rulebook guarantees of every position, checked after every step of random games.

Each check names the rule; `problems` runs the table of checks and lists what is wrong (empty when the
position is sound).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .movement import unit_masks
from .seats import army_of, seats_of
from .state import DESTROYED, OFF, Phase
from .tables import AIRCRAFT, SUPPLY

if TYPE_CHECKING:
    from .rules import SaintLoRules
    from .state import SaintLoState


def problems(rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None = None) -> list[str]:
    """Every check's findings, in the order of `_CHECKS` (empty when the position is sound)."""
    found: list[str] = []
    for check in _CHECKS:
        check(rules, s, previous, found)
    return found


def _remembered_masks(rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None, found: list[str]) -> None:
    """The cached unit masks, where kept, are where the units stand."""
    if s.unit_masks is not None and s.unit_masks != unit_masks(rules.t, s):
        found.append("the remembered hexes of the units (unit_masks) are not where the units stand")


def _units_on_board(rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None, found: list[str]) -> None:
    """One unit a hex (4.3, 6.1, 7.4), no land unit on a river or a Command Post (6.1), Supply units on
    the roads (7.5), and the occupancy tables hold exactly the units on the board."""
    t = rules.t
    land_count = air_count = 0
    land_at, air_at, post_at, unit_type, labels = s.land_at, s.air_at, s.post_at, t.unit_type, t.labels
    land_ok, on_road = t.land_ok, t.on_road
    for u, h in enumerate(s.pos):
        if h == OFF:
            continue
        kind = unit_type[u]
        if kind == AIRCRAFT:
            air_count += 1
            if air_at[h] != u:
                found.append(
                    f"{t.unit_ids[u]} is not the one aircraft in {labels[h]} (7.4: two aircraft never share a hex)"
                )
            continue
        land_count += 1
        if land_at[h] != u:
            found.append(f"{t.unit_ids[u]} is not the one land unit in {labels[h]} (4.3, 6.1: one unit a hex)")
        if not land_ok[h]:
            found.append(f"land unit {t.unit_ids[u]} stands on the river hex {labels[h]} (6.1)")
        if post_at[h] != OFF:
            found.append(f"land unit {t.unit_ids[u]} stands on a Command Post in {labels[h]} (6.1)")
        if kind == SUPPLY and not on_road[h]:
            found.append(f"Supply unit {t.unit_ids[u]} is off the roads in {labels[h]} (7.5)")
    if land_count != len(land_at) - land_at.count(OFF) or air_count != len(air_at) - air_at.count(OFF):
        found.append("the occupancy tables hold units that are not on the board")


def _supplies_and_activations(
    rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None, found: list[str]
) -> None:
    """5.3: Supplies never negative, at most the turn's activations, no more units face down than used."""
    if min(s.supplies) < 0:
        found.append(f"Supplies {s.supplies}: never negative (5.3)")
    if not 0 <= s.activations <= rules.t.rules.activations_per_turn:
        found.append(f"{s.activations} units used this turn: at most 10 (5.3)")
    if sum(s.used) > s.activations:
        found.append(f"{sum(s.used)} units face down but {s.activations} used (5.3)")


def _hand_limits(rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None, found: list[str]) -> None:
    """5.2: at most the hand limit, one over for the seat that is discarding down to it."""
    for seat in range(s.seats):
        limit = rules.t.rules.hand_limit + (1 if s.phase == Phase.DISCARD and seat == s.seat else 0)
        if len(s.hands[seat]) > limit:
            found.append(f"{rules.sides[seat]} holds {len(s.hands[seat])} Battle Reports: at most 7 (5.2)")


def _armies(rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None, found: list[str]) -> None:
    """Each army's Battle Reports are its deck's 24 (2), its destroyed Command Posts are counted, and a
    destroyed one never comes back (2.4)."""
    t = rules.t
    for army in (0, 1):
        held = [0] * len(t.cards[army])
        for seat in seats_of(s, army):
            for c in s.hands[seat]:
                held[c] += 1
        total = [d + p + h for d, p, h in zip(s.deck[army], s.discard[army], held, strict=True)]
        if total != list(t.deck_counts[army]):
            found.append(f"the {army} Battle Reports are not the deck's 24 (2)")
        lost = sum(1 for k in range(8) if s.post_hex[army * 8 + k] == DESTROYED)
        if lost != s.lost_posts[army]:
            found.append(f"army {army}: {lost} Command Posts destroyed but {s.lost_posts[army]} counted")
        if previous is not None and s.lost_posts[army] < previous.lost_posts[army]:
            found.append("a destroyed Command Post came back (2.4)")


def _posts_on_board(rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None, found: list[str]) -> None:
    """Each live Command Post stands where the post table says, and the table holds no other."""
    live = 0
    for p, h in enumerate(s.post_hex):
        if h >= 0:
            live += 1
            if s.post_at[h] != p:
                found.append(f"Command Post {p} is misplaced")
    if live != len(s.post_at) - s.post_at.count(OFF):
        found.append("the Command Post table holds posts that are not on the board")


def _who_decides(rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None, found: list[str]) -> None:
    """A winner has destroyed the objective's Command Posts (3); in play, a seat of an army decides."""
    if s.phase == Phase.OVER and s.winner != OFF and s.lost_posts[1 - s.winner] < s.objective:
        found.append("a winner who has not destroyed the objective's Command Posts (3)")
    if s.phase not in (Phase.POSTS, Phase.DEPLOY, Phase.OVER) and army_of(s, s.seat) not in (0, 1):
        found.append("no seat decides")


def _bulk_deployment(rules: SaintLoRules, s: SaintLoState, previous: SaintLoState | None, found: list[str]) -> None:
    """4.3 (placement.py): a deployment in bulk's die waits only in the deployment, its dice only with
    one chosen, and each step rolls and keeps one die."""
    if s.bulk != OFF and s.phase != Phase.DEPLOY:
        found.append("a die for a deployment in bulk is pending outside the deployment (4.3, placement.py)")
    if s.bulk_dice and s.bulk == OFF:
        found.append("dice of a deployment in bulk are kept with none chosen (4.3, placement.py)")
    if (
        previous is not None
        and previous.phase == Phase.DEPLOY
        and previous.bulk != OFF
        and s.bulk != OFF
        and len(s.bulk_dice) != len(previous.bulk_dice) + 1
    ):
        found.append("a die of a deployment in bulk was rolled and not kept, or the last left it waiting (4.3)")


# The checks, in the order their findings are listed.
_CHECKS: tuple[Callable[[SaintLoRules, SaintLoState, SaintLoState | None, list[str]], None], ...] = (
    _remembered_masks,
    _units_on_board,
    _supplies_and_activations,
    _hand_limits,
    _armies,
    _posts_on_board,
    _who_decides,
    _bulk_deployment,
)
