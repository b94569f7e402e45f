"""Saint-Lo's computer player: a rule-of-thumb policy and a position value for search (the spec's agents).

The policy plays each decision on its own: in Movement and Attack it attacks where the dice favour it
(Command Posts first, 3), calls every artillery it can afford (7.3), then moves fighting units toward the
nearest enemy Command Post; it plays Supplies cards at once (9), agrees to a partner's call for support
(10.3), and in Reorganization buys the infantry its Supplies allow (5.4). The value is the Command Posts
race (3) with the material on the board as a tie-breaker, each team's share in [0, 1].
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import AGREE, ATTACK, BUY, DEPLOY, DISCARD, DONE, END, FIRE, MOVE, PASS, PLAY, POST, SUPPORT, Action
from .seats import ARMIES, army_of
from .state import DESTROYED, OFF, Phase
from .tables import AIRCRAFT, ARTILLERY, INFANTRY, SUPPLIES, SUPPLY, TANK

if TYPE_CHECKING:
    from .rules import SaintLoRules
    from .state import SaintLoState

ATTACK_AT = 0.45
"""The least chance of destroying the target for which the policy attacks (posts: any chance over 0.3)."""


def _by_kind(legal: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for a in legal:
        out.setdefault(a.split(" ", 1)[0], []).append(a)
    return out


def _enemy_posts(rules: SaintLoRules, s: SaintLoState, army: int) -> list[int]:
    enemy = 1 - army
    return [h for h in s.post_hex[enemy * 8 : enemy * 8 + 8] if h >= 0]


def _nearest(rules: SaintLoRules, h: int, targets: list[int]) -> int:
    dist = rules.t.distance[h]
    return min((dist[x] for x in targets), default=0)


def heuristic_policy(rules: SaintLoRules, s: SaintLoState) -> tuple[str, str]:
    legal = rules.legal_actions(s)
    kinds = _by_kind(legal)
    t = rules.t
    army = army_of(s, s.seat)
    if s.phase == Phase.POSTS:
        # 4.2: the strongest posts on the hexes furthest from the start line
        best = max(kinds[POST], key=lambda a: (int(a.split()[2]), _depth(rules, army, t.hex_of[a.split()[1]])))
        return best, "the strongest Command Post where the enemy must come furthest (4.2)"
    if s.phase == Phase.DEPLOY:
        return _deploy(rules, s, kinds[DEPLOY], army), "fighting units toward the front, Supply units behind (4.3)"
    if s.phase == Phase.DISCARD:
        return kinds[DISCARD][0], "a Battle Report discarded down to 7 (5.2)"
    supplies = [a for a in kinds.get(PLAY, []) if t.cards[army][t.card_index[army][a.split()[1]]].kind == SUPPLIES]
    if supplies:
        return supplies[0], "a Supplies card is worth playing at once (9)"
    if s.phase == Phase.WINDOW:
        return PASS, "no Battle Report worth playing now (9)"
    if s.phase == Phase.SUPPORT:
        if SUPPORT in kinds:
            return kinds[SUPPORT][0], "every artillery in range adds its dice (7.3)"
        return FIRE, "the attack goes in with the support it has (6.2)"
    if s.phase == Phase.SUPPORT_REPLY:
        return AGREE, "the partner's attack gets the artillery (10.3)"
    if s.phase == Phase.ACTIONS:
        return _actions(rules, s, legal, kinds, army)
    if s.phase == Phase.REORGANIZE:
        return _reorganize(rules, s, kinds, army)
    return legal[0], "the only sensible choice"


def _depth(rules: SaintLoRules, army: int, h: int) -> int:
    """Rows from the start line into the army's own sector (4.3: the Allies north, the Axis south)."""
    t = rules.t
    row = int(t.labels[h][2:])
    line = rules.t.board.spec.start_line.last_northern_row
    return line - row if army == 0 else row - line


def _deploy(rules: SaintLoRules, s: SaintLoState, deploys: list[str], army: int) -> str:
    t = rules.t
    kind = deploys[0].split()[1]  # the counters of the first kind offered
    mine = [a for a in deploys if a.split()[1] == kind]
    unit_type = t.kind_type[t.kind_index[kind]]

    def score(a: str) -> tuple[int, str]:
        depth = _depth(rules, army, t.hex_of[a.split()[2]])
        if unit_type in (SUPPLY, ARTILLERY, AIRCRAFT):
            return (-abs(depth - (4 if unit_type == SUPPLY else 2)), a)
        return (-depth, a)

    return max(mine, key=score)


def _actions(
    rules: SaintLoRules, s: SaintLoState, legal: list[str], kinds: dict[str, list[str]], army: int
) -> tuple[str, str]:
    t = rules.t
    best, best_p = None, 0.0
    for a in kinds.get(ATTACK, []):
        p = rules.attack_odds(s, a) or 0.0
        post = s.post_at[t.hex_of[a.split()[2]]] != OFF
        if post:
            p += 0.2
        if p > best_p:
            best, best_p = a, p
    if best is not None and best_p >= ATTACK_AT:
        return best, f"an attack with good odds ({min(best_p, 1):.0%} with the posts' bonus; 6.2)"
    posts = _enemy_posts(rules, s, army)
    best_move, gain = None, 0
    for a in kinds.get(MOVE, []):
        act = Action.from_id(a)
        u = t.unit_index[act.subject]
        if t.unit_type[u] not in (INFANTRY, TANK):
            continue
        here, there = _nearest(rules, s.pos[u], posts), _nearest(rules, t.hex_of[act.where], posts)
        if there == 0:
            continue
        if here - there > gain:
            best_move, gain = a, here - there
    if best_move is not None:
        return best_move, f"{gain} hexes closer to an enemy Command Post (6.1)"
    if DONE in legal:
        return DONE, "this unit has nothing better to do (5.3)"
    return END, "nothing worth a Supply this turn (5.3)"


def _reorganize(rules: SaintLoRules, s: SaintLoState, kinds: dict[str, list[str]], army: int) -> tuple[str, str]:
    t = rules.t
    buys = [a for a in kinds.get(BUY, []) if t.kind_type[t.kind_index[a.split()[1]]] == INFANTRY]
    if buys and s.supplies[army] >= 6:
        posts = _enemy_posts(rules, s, army)
        return min(
            buys, key=lambda a: (_nearest(rules, t.hex_of[a.split()[2]], posts), a)
        ), "infantry bought toward the enemy's Command Posts (5.4)"
    return END, "Supplies kept for the next turn (5.4)"


def _material(rules: SaintLoRules, s: SaintLoState, army: int) -> int:
    t = rules.t
    return sum(t.cost[u] for u in t.army_units[army] if s.pos[u] != OFF and t.unit_type[u] != SUPPLY)


def evaluate(rules: SaintLoRules, s: SaintLoState) -> dict[str, float]:
    """Each seat's value in [0, 1]: its team's share of the Command Posts race (3), material as a tie-breaker."""
    if s.phase == Phase.OVER:
        share = 0.5 if s.winner == OFF else (1.0 if s.winner == 0 else 0.0)
    else:
        need = s.objective
        race = (s.lost_posts[1] - s.lost_posts[0]) / need
        a, b = _material(rules, s, 0), _material(rules, s, 1)
        material = (a - b) / max(a + b, 1)
        share = 0.5 + 0.4 * race + 0.1 * material
        share = min(max(share, 0.0), 1.0)
    return {side: (share if army_of(s, k) == 0 else 1 - share) for k, side in enumerate(rules.sides)}


def value_text(rules: SaintLoRules, value: float) -> str:
    return f"about {value:.0%} to win the Command Posts race"


def summarize(rules: SaintLoRules, s: SaintLoState) -> dict[str, Any]:
    return {
        "turns": s.turn,
        **{f"{ARMIES[a]} posts destroyed": s.lost_posts[1 - a] for a in (0, 1)},
        **{f"{ARMIES[a]} posts lost": sum(1 for h in s.post_hex[a * 8 : a * 8 + 8] if h == DESTROYED) for a in (0, 1)},
    }


__all__ = ["evaluate", "heuristic_policy", "summarize", "value_text"]
