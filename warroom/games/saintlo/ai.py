"""Saint-Lo's computer player: a rule-of-thumb policy and a position value for search (the spec's agents).

The policy plays each decision on its own: in Movement and Attack it attacks where the dice favour it
(Command Posts first, 3), calls every artillery it can afford (7.3), then moves fighting units toward the
nearest enemy Command Post; it plays Supplies cards at once (9), agrees to a partner's call for support
(10.3), and in Reorganization buys the infantry its Supplies allow (5.4). The value is the Command Posts
race (3) with the material on the board as a tie-breaker, each team's share in [0, 1].
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any

from warroom.ai.playouts import play_turns, play_while
from warroom.engine.spec import AgentHooks

from . import attack as attacks
from .actions import AGREE, BUY, DEPLOY, DISCARD, DONE, END, FIRE, PASS, PLAY, POST, SUPPORT
from .odds import win_probability
from .placement import deploy_worth, post_key, role_of
from .seats import ARMIES, army_of, kind_for
from .setup import lift
from .state import DESTROYED, OFF, TARGET_POST, Phase
from .tables import AIRCRAFT, INFANTRY, SUPPLIES, SUPPLY, TANK, Tables

if TYPE_CHECKING:
    from .rules import SaintLoRules
    from .state import SaintLoState

ATTACK_AT = 0.45
"""The least chance of destroying the target for which the policy attacks (posts: any chance over 0.3)."""
SEARCH_CONFIDENCE = 1.0
"""MCTS keeps the heuristic's move unless another beats it by this many standard errors of their paired
differences (ai/mcts.py): the dice make most differences between sound moves noise."""
CANDIDATES = 3
"""Attacks, and moves, MCTS weighs at a Movement and Attack decision beside the cards, `done` and `end`: the
likeliest to destroy, and the moves that gain most toward an enemy Command Post (a turn offers some 400
moves and 40 attacks)."""


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
    t = rules.t
    army = army_of(s, s.seat)
    if s.phase in (Phase.ACTIONS, Phase.REORGANIZE):  # the long lists (some 400 ids): not parsed whole
        plays = [a for a in legal if a.startswith(PLAY_PREFIX)]
        supplies = [a for a in plays if t.cards[army][t.card_index[army][a.split()[1]]].kind == SUPPLIES]
        if supplies:
            return supplies[0], "a Supplies card is worth playing at once (9)"
        if s.phase == Phase.ACTIONS:
            return _actions(rules, s, legal, army)
        return _reorganize(rules, s, legal, army)
    kinds = _by_kind(legal)
    if s.phase == Phase.POSTS:
        # 4.2: the strongest posts on the hexes furthest from the start line (placement.py: `ready` places so)
        best = max(kinds[POST], key=lambda a: post_key(t, army, a))
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
    return legal[0], "the only sensible choice"


def _deploy(rules: SaintLoRules, s: SaintLoState, deploys: list[str], army: int) -> str:
    """The heuristic's next single deployment: the first kind offered, on the hex it likes best (placement.py's
    `deploy_worth`, which a deployment in bulk uses too, shifted by its die). The agents deal its plan's hexes
    among the counters of each role with their own random numbers (`unpredictable`)."""
    t = rules.t
    kind = deploys[0].split()[1]  # the counters of the first kind offered
    mine = [a for a in deploys if a.split()[1] == kind]
    unit_type = t.kind_type[t.kind_index[kind]]
    return max(mine, key=lambda a: (deploy_worth(t, army, unit_type, t.hex_of[a.split()[2]]), a))


def _seat_units(rules: SaintLoRules, s: SaintLoState) -> list[int]:
    """The counters the deploying seat places (4.3, 10.1: each player his own)."""
    t = rules.t
    return [u for k in t.army_kinds[s.active] if kind_for(t, s, s.seat, k) for u in t.kind_units[k]]


_PLANS_LIMIT = 64
"""Deployment plans kept (`Tables.deploy_plans`): a handful a game."""


def deployment_plan(rules: SaintLoRules, s: SaintLoState) -> tuple[str, ...]:
    """4.3: the deploying seat's whole deployment as the heuristic makes it, kind by kind from where the seat
    began (its own counters lifted off again): the same plan at every one of its decisions, whatever order
    the counters have gone down in since."""
    start = rules.clone(s)
    for u in _seat_units(rules, s):
        if start.pos[u] != OFF:
            lift(rules.t, start, u)
    return _plan_from(rules, start)


def _plan_from(rules: SaintLoRules, start: SaintLoState) -> tuple[str, ...]:
    """The heuristic's deployment for the rest of the seat's turn to deploy from `start` (changed: a copy)."""
    start.legal = None
    # all the plan depends on: the seats (10.1: who deploys what), the seat, every counter and post on the board
    key = (start.seats, start.seat, *start.pos, -1, *start.post_hex)
    plans = rules.t.deploy_plans
    plan = plans.get(key)
    if plan is None:
        steps: list[str] = []
        seat = start.seat
        while start.phase == Phase.DEPLOY and start.seat == seat:
            deploys = [a for a in rules.legal_actions(start) if a.startswith(DEPLOY)]
            steps.append(_deploy(rules, start, deploys, army_of(start, seat)))
            rules.apply(start, steps[-1], False)
        if len(plans) >= _PLANS_LIMIT:
            plans.clear()
        plan = plans[key] = tuple(steps)
    return plan


def _free_plan_hexes(rules: SaintLoRules, s: SaintLoState, plan: tuple[str, ...]) -> list[tuple[int, int]] | None:
    """(role, hex) of each place of `plan` no counter of the seat holds yet, the role (placement.ROLES) that of
    the kind the plan put there (an aircraft's place apart from a land unit's on the same hex); None where the
    seat's counters already down are not each on a place of the plan of their own role (someone else deployed
    them: a seat handed to the computer half-way)."""
    t = rules.t
    air = role_of(AIRCRAFT)
    planned: dict[tuple[bool, int], int] = {}
    for action in plan:
        _, kind_id, label = action.split()
        role = role_of(t.kind_type[t.kind_index[kind_id]])
        planned[role == air, t.hex_of[label]] = role
    pos, unit_type = s.pos, t.unit_type
    units = _seat_units(rules, s)
    down = [(role_of(unit_type[u]), pos[u]) for u in units if pos[u] != OFF]
    if any(planned.get((role == air, h)) != role for role, h in down):
        return None
    taken = {(role == air, h) for role, h in down}
    free = [(role, h) for (is_air, h), role in planned.items() if (is_air, h) not in taken]
    left = sorted(role_of(unit_type[u]) for u in units if pos[u] == OFF)
    return free if sorted(role for role, _ in free) == left else None


def unpredictable(rules: SaintLoRules, s: SaintLoState, rng: random.Random) -> tuple[str, str] | None:
    """4.3: the computer's next counter face down, drawn with its own random numbers: a counter still to come,
    on a hex of the heuristic's plan for its role, both drawn.

    The heuristic deploys kind by kind on hexes fixed by the position, so an opponent watching the backs
    appear, or reading this code and the backs, could name each one (audits as a cheating opponent, 6 and 7
    December). Here the hexes are the heuristic's own (`deployment_plan`), and so the deployment's shape and the
    game's balance, but which counter of a role (placement.ROLES: fighting units, artillery, aircraft, Supply
    units) stands on which of the role's hexes is drawn, and so is the order: a uniform counter each step on a
    uniform free hex of its role makes every assignment of the roles equally likely (placement.assignments: at
    least 10^6 for a seat's whole deployment), the same deal a deployment in bulk makes with dice. Where the
    seat's counters already down are not on the plan's hexes of their roles (someone else deployed them: a seat
    handed to the computer half-way), the plan is the heuristic's for the rest, from here."""
    if s.phase != Phase.DEPLOY or s.bulk != OFF:
        return None
    t = rules.t
    free = _free_plan_hexes(rules, s, deployment_plan(rules, s))
    if free is None:  # not the plan's so far: plan the rest from here (every hex of it free)
        plan = _plan_from(rules, rules.clone(s))
        free = [(role_of(t.kind_type[t.kind_index[a.split()[1]]]), t.hex_of[a.split()[2]]) for a in plan]
    left = [u for u in _seat_units(rules, s) if s.pos[u] == OFF]
    u = left[int(rng.random() * len(left))]
    role = role_of(t.unit_type[u])
    hexes = [h for r, h in free if r == role]
    h = hexes[int(rng.random() * len(hexes))]
    action = f"{DEPLOY} {t.kinds[t.unit_kind[u]].id} {t.labels[h]}"
    return action, "a counter face down where its role serves (4.3), which on which hex of the computer's own"


def _actions(rules: SaintLoRules, s: SaintLoState, legal: list[str], army: int) -> tuple[str, str]:
    """Attack where the dice favour it, else move the fighting unit that gains most toward an enemy Command
    Post, else finish (5.3). The ids are looked up in the tables' own (`_id_maps`), in the legal order: the
    first best wins a tie."""
    t = rules.t
    moves_at, attacks_at = _id_maps(t)
    posts = _enemy_posts(rules, s, army)
    dist, pos, unit_type = t.distance, s.pos, t.unit_type
    nearest: dict[int, int] = {}

    def to_posts(h: int) -> int:
        d = nearest.get(h)
        if d is None:
            row = dist[h]
            d = nearest[h] = min((row[x] for x in posts), default=0)
        return d

    best, best_p = None, 0.0
    best_move, gain = None, 0
    for a in legal:
        move = moves_at.get(a)
        if move is not None:
            u, there_hex = move
            if unit_type[u] not in _FIGHTING:
                continue
            there = to_posts(there_hex)
            if there == 0:
                continue
            here = to_posts(pos[u])
            if here - there > gain:
                best_move, gain = a, here - there
            continue
        attack = attacks_at.get(a)
        if attack is not None:
            p = _attack_worth(t, s, *attack)
            if p > best_p:
                best, best_p = a, p
    if best is not None and best_p >= ATTACK_AT:
        return best, f"an attack with good odds ({min(best_p, 1):.0%} with the posts' bonus; 6.2)"
    if best_move is not None:
        return best_move, f"{gain} hexes closer to an enemy Command Post (6.1)"
    if DONE in legal:
        return DONE, "this unit has nothing better to do (5.3)"
    return END, "nothing worth a Supply this turn (5.3)"


def _attack_worth(t: Tables, s: SaintLoState, u: int, h: int) -> float:
    """Unit u's attack on hex h as the heuristic weighs it: the chance to destroy (6.2), a Command Post's
    worth 0.2 more (3)."""
    target = attacks.target_in(t, s, u, h)
    p = win_probability(attacks.attack_dice(t, s, target), attacks.defense_dice(t, s, target))
    return p + 0.2 if s.post_at[h] != OFF else p


_FIGHTING = (INFANTRY, TANK)
PLAY_PREFIX, BUY_PREFIX = PLAY + " ", BUY + " "


@cache
def _id_maps(t: Tables) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """Each move id and each attack id of the tables, to its (unit, hex): the ids the legal list is made of."""
    moves = {mid: (u, h) for u, row in enumerate(t.move_ids) for h, mid in enumerate(row)}
    attacks_ = {aid: (u, h) for u, row in enumerate(t.attack_ids) for h, aid in enumerate(row)}
    return moves, attacks_


def _reorganize(rules: SaintLoRules, s: SaintLoState, legal: list[str], army: int) -> tuple[str, str]:
    t = rules.t
    if s.supplies[army] < 6:
        return END, "Supplies kept for the next turn (5.4)"
    buys = [a for a in legal if a.startswith(BUY_PREFIX) and t.kind_type[t.kind_index[a.split()[1]]] == INFANTRY]
    if buys:
        posts = _enemy_posts(rules, s, army)
        return min(
            buys, key=lambda a: (_nearest(rules, t.hex_of[a.split()[2]], posts), a)
        ), "infantry bought toward the enemy's Command Posts (5.4)"
    return END, "Supplies kept for the next turn (5.4)"


def candidate_actions(rules: SaintLoRules, s: SaintLoState) -> list[str]:
    """The actions MCTS weighs, the heuristic's own choice always among them (so the search falls back on it):

    - in Movement and Attack: `done` and `end`, the `CANDIDATES` attacks likeliest to destroy (a Command Post
      counted as the heuristic counts it), the `CANDIDATES` moves of fighting units that gain most toward the
      enemy's Command Posts, and the Battle Reports played on no unit or on the unit in use;
    - in a Battle Report window and while artillery is called: `pass` (or the calls and `fire`) and the cards
      played on no unit or on a unit of the attack under way;
    - in Reorganization: `end` and the heuristic's buy;
    - in setup: the heuristic's choice alone (the evaluation, a race of Command Posts and material, cannot tell
      one deployment from another);
    - elsewhere (artillery support, a partner's answer, a discard): every legal action.

    Few, because the search keeps the heuristic's choice unless another beats it by a standard error of their
    paired differences (`SEARCH_CONFIDENCE`): among seventy card plays one beats it by luck alone."""
    legal = rules.legal_actions(s)
    phase = s.phase
    if phase in (Phase.POSTS, Phase.DEPLOY):
        return [heuristic_policy(rules, s)[0]] if len(legal) > 1 else legal
    if phase == Phase.REORGANIZE:
        hint = heuristic_policy(rules, s)[0]
        return [hint] if hint == END else [hint, END]
    if phase in (Phase.WINDOW, Phase.SUPPORT):
        a = s.attack
        units = (
            {rules.t.unit_ids[a.attacker], rules.t.unit_ids[a.target]}
            if a is not None and a.kind != TARGET_POST
            else set()
        )
        if a is not None and a.kind == TARGET_POST:
            units = {rules.t.unit_ids[a.attacker]}
        units.add("")  # a card played on no unit
        return [x for x in legal if not x.startswith(PLAY_PREFIX) or _card_target(x) in units]
    if phase != Phase.ACTIONS:
        return legal
    t = rules.t
    moves_at, attacks_at = _id_maps(t)
    posts = _enemy_posts(rules, s, army_of(s, s.seat))
    in_use = {"", t.unit_ids[s.current]} if s.current != OFF else {""}  # "": a card played on no unit
    moves: list[tuple[float, str]] = []  # one type with `fights`: the loop below sorts both (mypyc checks it)
    fights: list[tuple[float, str]] = []
    out: list[str] = []
    for x in legal:
        move = moves_at.get(x)
        if move is not None:
            u, there = move
            if t.unit_type[u] in _FIGHTING:
                moves.append((_nearest(rules, s.pos[u], posts) - _nearest(rules, there, posts), x))
            continue
        attack = attacks_at.get(x)
        if attack is not None:
            fights.append((_attack_worth(t, s, *attack), x))
        elif not x.startswith(PLAY_PREFIX) or _card_target(x) in in_use:
            out.append(x)
    for ranked in (fights, moves):
        ranked.sort(key=lambda m: -m[0])  # stable: ties keep the legal order
        out.extend(x for _, x in ranked[:CANDIDATES])
    hint = heuristic_policy(rules, s)[0]
    if hint not in out:
        out.append(hint)
    return out


def _card_target(play: str) -> str:
    """The unit a card play names ('' for a card played on no unit)."""
    words = play.split(" ")
    return words[2] if len(words) > 2 else ""


def leaf_playout(rules: SaintLoRules, s: SaintLoState, rng: random.Random) -> None:
    """Play the heuristic for every seat (and the dice and draws, sampled with `rng`) to the end of the turn
    in progress and through the opponent's reply, `PLAYOUT_TURNS` player-turns in all, before the evaluation
    scores a leaf: a move is judged by the turn it leads to and the counterattack it invites, not by a
    half-made turn (as Patton's search, NOTES.md there). With `PLAYOUT_TURNS` 0 only the unit in use is
    finished (its support, its dice)."""
    if PLAYOUT_TURNS:
        play_turns(rules, s, rng, heuristic_policy, _turn, PLAYOUT_TURNS, PLAYOUT_STEPS)
    else:
        play_while(rules, s, rng, heuristic_policy, _unit_in_use, PLAYOUT_STEPS)


def _turn(s: SaintLoState) -> int:
    return s.turn


def _unit_in_use(s: SaintLoState) -> bool:
    return s.phase in _IN_USE and not (s.phase == Phase.ACTIONS and s.current == OFF)


PLAYOUT_TURNS = 2
"""Player-turns a leaf playout plays (the one in progress counts): 2, the turn and the enemy's reply."""
PLAYOUT_STEPS = 300
"""A bound on a player-turn's steps in a playout (one has some 20 decisions and their dice)."""
_IN_USE = frozenset(
    (Phase.ACTIONS, Phase.SUPPORT, Phase.SUPPORT_REPLY, Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL, Phase.WINDOW)
)


def _material(rules: SaintLoRules, s: SaintLoState, army: int) -> int:
    """What the army has to fight with, in Supply: its units on the board at their cost (5.4), and the Supply
    it holds, which buys units and pays for every use (5.3): an attack is never free."""
    t = rules.t
    on_board = sum(t.cost[u] for u in t.army_units[army] if s.pos[u] != OFF and t.unit_type[u] != SUPPLY)
    return on_board + s.supplies[army]


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
    """A finished game's facts for a study. Each army's turn counts one "side turn" (the option turn_limit counts
    each army's: 12 allows 24 side turns; the turn the limit would start is not played), and each army's Command
    Posts lost are named by whose posts they are (what the other army destroyed: one figure, not two)."""
    played = min(s.turn, 2 * s.turn_limit) if s.turn_limit else s.turn
    return {
        "side turns": played,
        **{
            f"{ARMIES[a]} Command Posts lost": sum(1 for h in s.post_hex[a * 8 : a * 8 + 8] if h == DESTROYED)
            for a in (0, 1)
        },
    }


def agent_hooks() -> AgentHooks[SaintLoState]:
    """What the computer players use of this game (the spec's `agents`: warroom.ai builds its agents from them)."""
    return AgentHooks(
        heuristic_policy=heuristic_policy,
        evaluate=evaluate,
        value_text=value_text,
        summarize=summarize,
        candidate_actions=candidate_actions,
        leaf_playout=leaf_playout,
        search_confidence=SEARCH_CONFIDENCE,
        unpredictable=unpredictable,
    )


__all__ = [
    "agent_hooks",
    "candidate_actions",
    "deployment_plan",
    "evaluate",
    "heuristic_policy",
    "leaf_playout",
    "summarize",
    "unpredictable",
    "value_text",
]
