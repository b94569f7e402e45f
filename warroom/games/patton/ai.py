"""Patton's computer player: a heuristic policy for either side of every scenario, a position
evaluation (each side's chance to win) for search, and per-game facts for simulations.

The heuristic moves by a potential. Each town gets, for the side to move, a value per Unit
standing there (closer to what that side must take is better), a value for holding it (the
objective towns, more for a stronger garrison) and, for enemy towns, a value for taking it.
Every legal move changes only a few terms, so each is scored exactly and cheaply: Units
moving closer, garrisons growing or thinning, and attacks worth their exact chance of
winning the battle (odds.py) times what the town is worth, less the expected casualties.
The best move is played while it gains more than the Movement Points it costs; then the
player ends his moves. Battle decisions (order, casualties, ties, retreat roads) and the
rest (reserves, defection, stacking) follow short rules stated where they are made.

What each side wants, by scenario (the rulebook's objectives):
- Normandy: the American takes red towns (five at the end of a German turn win); the German
  holds them, and retakes any the American holds, the more urgently the more he holds.
- The Bulge: the American clears the cheapest road from Bastogne to a (*) town (fewest
  German Units on it) and takes Wiltz; the German holds the ring round Bastogne, that road
  and Wiltz.
- Sicily: the Allies land (Units offshore count as far away), take the yellow towns and go
  for Messina; the Axis holds Messina and retakes yellow towns before they defect.
"""

from __future__ import annotations

import heapq
import math
import random
from functools import cache
from typing import Any

from warroom.ai.playouts import play_turns
from warroom.engine.spec import AgentHooks

from .actions import LAND, MOVE
from .board import Board
from .combat import dice_for
from .odds import attack_success, casualty_distribution, round_outcome
from .options import SIMULATION_TURN_LIMIT
from .rules import PattonRules
from .state import (
    BATTLE_ORDER,
    CASUALTY,
    DEFECTION,
    MOVING,
    OVER,
    PLACING,
    RESERVE_ASK,
    RESERVE_PLACE,
    RETREATING,
    STACKING,
    TIE,
    PattonState,
)

ARMOR_WEIGHT = 1.6  # an Armored Unit throws a die by itself; two Infantry Units are needed for one
INF_WEIGHT = 1.0
STEP_VALUE = 0.3  # value of one MP of progress towards its goal, per Unit
MP_PRICE = 0.1  # a move must gain more than this per MP it costs
TYPE_MP = 2.0  # MP of road by which the wrong kind of Unit for a goal seems farther
THREAT_MP = 0.5  # MP of road a goal seems farther for each point of force it needs beyond a token one
HOLD_CAP = 6.0  # the most force a goal held asks for (more is better used elsewhere)
KILL_VALUE = 0.8
LOSS_VALUE = 1.1
REACH = 8  # MP within which Units count as able to strike a town (about half a turn's card pair)
REACH_PER_TURN = 8.0  # the evaluation's projection: a Unit's weight falls by e every 8 MP per turn left
OFFSHORE_DISCOUNT = 0.8  # Units still at sea count less (they must land, and landings can fail)
BALANCE_SLOPE = 5.0
# One weight per entry of `features`, fitted by logistic regression on the positions at the
# start of every movement phase of 180 games a scenario (heuristic against heuristic, against
# random and random against heuristic); Brier score 0.13-0.15 against 0.23-0.24 for a constant.
EVAL_WEIGHTS = {
    "red_towns": [-0.741, 1.094, -0.207, 1.28, 0.061, 0.373],
    "relief_and_hold": [-3.175, -0.219, 0.951, -1.089, 2.354, 4.244, -0.481, -1.241, 0.294],
    "hold": [-2.655, 2.948, 0.079, 1.149, 2.365, 0.432, -0.07, 0.217],
}
DOUBLES = 4 / 9  # P(a double among 3 dice) = 1 - 6*5*4/216
HOLDER_EDGE = 2.0


@cache
def mean_casualties(n: int) -> float:
    return float(sum(k * p for k, p in casualty_distribution(n).items()))


def weight(armor: int, infantry: int) -> float:
    return armor * ARMOR_WEIGHT + infantry * INF_WEIGHT


def garrison_strength(armor: int, infantry: int) -> float:
    """How well a garrison holds, 0..1 (a lone Infantry Unit still occupies the town)."""
    if armor + infantry == 0:
        return 0.0
    return (0.6, 0.7, 0.8, 0.88, 0.95, 1.0)[dice_for(armor, infantry)]


# -- what each side wants ------------------------------------------------------------------------------
class Aims:
    """What one side wants now. Objective towns get a worth for holding (`hold`) or taking
    (`take`) and a need (the force it takes to hold or take them); each of the side's towns is
    then assigned a goal, nearest first, until each goal's need is met (`target`). A Unit's
    position is worth -STEP_VALUE per MP of road between it and its town's goal."""

    __slots__ = ("side", "hold", "take", "need", "plan", "sea_plan", "sea_dist", "dist")

    def __init__(self, s: PattonState, side: int) -> None:
        b = s.board
        n = b.n
        self.side = side
        self.dist = b.distance
        self.hold = [0.0] * n  # worth of holding a town the side occupies (a garrison keeps it)
        self.take = [0.0] * n  # worth of taking a town from the enemy
        needs: dict[int, float] = {}
        self.need = needs
        if b.objective == "red_towns":
            self._normandy(s, side, needs)
        elif b.objective == "relief_and_hold":
            self._bulge(s, side, needs)
        else:
            self._sicily(s, side, needs)
        for t in range(n):
            if s.side[t] == 1 - side and self.take[t] == 0.0:
                self.take[t] = 1.0  # any town: the Units in it can be destroyed
        self.plan: list[list[list[float]]] = [[] for _ in range(n)]  # per town: [goal, weight of Units bound for it]
        self.sea_plan: list[list[float]] = []
        self.sea_dist = [0] * n
        self._assign(s, side, needs)

    def _threat(self, s: PattonState, town: int, side: int, reach: int = REACH) -> float:
        """Weight of `side`'s Units within `reach` MP of `town` (attack stacks on it included)."""
        row = self.dist[town]
        total = 0.0
        for t in range(s.board.n):
            if s.side[t] == side and row[t] <= reach:
                total += weight(s.armor[t], s.inf[t])
        for st in s.stacks:
            if st[4] == side and st[0] == town:
                total += weight(st[2], st[3])
        return total

    def _attack_need(self, s: PattonState, town: int, side: int, extra: float = 2.0) -> float:
        garrison = weight(s.armor[town], s.inf[town]) if s.side[town] == 1 - side else 0.0
        return 1.4 * garrison + 0.4 * self._threat(s, town, 1 - side, 6) + extra

    def _hold_need(self, s: PattonState, town: int, side: int) -> float:
        """A garrison against the strongest enemy force that can strike it (at most 5 dice' worth)."""
        b = s.board
        row = self.dist[town]
        strongest = 0.0
        for t in range(b.n):
            if s.side[t] == 1 - side and row[t] <= REACH:
                strongest = max(strongest, weight(s.armor[t], s.inf[t]))
        if side == 0 and s.board.objective == "red_towns":
            return min(4.0, 0.5 * strongest + 1.0)  # the American needs presence more than a fortress
        return min(HOLD_CAP, 0.7 * strongest + 1.0)

    def _assign(self, s: PattonState, side: int, needs: dict[int, float]) -> None:
        """Bind the side's Units to goals, nearest first, until each goal's need is met; the rest
        have no goal and stay where they are. Armored Units go first to towns to take,
        Infantry first to towns to hold (a garrison needs presence more than dice)."""
        b = s.board
        dist = self.dist
        pool: dict[tuple[int, int], float] = {}
        for t in range(b.n):
            if s.side[t] == side:
                if s.armor[t]:
                    pool[(t, 0)] = s.armor[t] * ARMOR_WEIGHT
                if s.inf[t]:
                    pool[(t, 1)] = s.inf[t] * INF_WEIGHT
        if side == 0 and (s.offboard[0] or s.offboard[1]):
            landing = b.landing_town
            self.sea_dist = [min(dist[lt][g] for lt in landing) + 2 for g in range(b.n)]
            if s.offboard[0]:
                pool[(-1, 0)] = s.offboard[0] * ARMOR_WEIGHT
            if s.offboard[1]:
                pool[(-1, 1)] = s.offboard[1] * INF_WEIGHT
        if not needs:
            return
        left = dict(needs)
        # a goal deep among the enemy counts as farther: its need grows with the enemy near it
        extra = {g: THREAT_MP * max(0.0, needs[g] - 2.0) for g in needs}
        pairs = []
        for (t, kind), _ in pool.items():
            row = dist[t] if t >= 0 else self.sea_dist
            for g in needs:
                held = s.side[g] == side
                prefer = TYPE_MP if (kind == 0) == held else 0.0  # Armored to attack, Infantry to hold
                pairs.append((row[g] + (extra[g] if row[g] else 0.0) + prefer, t, kind, g))
        pairs.sort()
        for _, t, kind, g in pairs:
            take = min(pool[(t, kind)], left[g])
            if take <= 0:
                continue
            pool[(t, kind)] -= take
            left[g] -= take
            (self.plan[t] if t >= 0 else self.sea_plan).append([g, take, kind])

    def progress(self, source: int, town: int, armor: int, infantry: int) -> float:
        """Worth of `armor` and `infantry` Units from `source` (-1: offshore) standing in `town`
        instead: MP of road gained towards their goals, those with the most to gain moving first."""
        subs = self.plan[source] if source >= 0 else self.sea_plan
        if not subs:
            return 0.0
        dist = self.dist
        here = dist[source] if source >= 0 else self.sea_dist
        there = dist[town]
        total = 0.0
        for kind, w in ((0, armor * ARMOR_WEIGHT), (1, infantry * INF_WEIGHT)):
            if w <= 0:
                continue
            gains = sorted(((here[int(g)] - there[int(g)], wg) for g, wg, k in subs if k == kind), reverse=True)
            for step, wg in gains:
                if w <= 0:
                    break
                take = min(w, wg)
                total += take * step
                w -= take
        return STEP_VALUE * total

    def _normandy(self, s: PattonState, side: int, needs: dict[int, float]) -> None:
        b = s.board
        held = sum(1 for t in b.red_towns if s.side[t] == 0)
        for t in b.red_towns:
            mine = s.side[t] == side
            if side == 0:
                if mine:
                    self.hold[t] = 12.0
                else:
                    self.take[t] = 10.0
            else:
                if mine:
                    self.hold[t] = 10.0
                else:
                    self.take[t] = 10.0 + (6.0 * max(0, held - 2) if s.side[t] == 0 else 0.0)
            needs[t] = self._hold_need(s, t, side) if mine else self._attack_need(s, t, side)

    def _bulge(self, s: PattonState, side: int, needs: dict[int, float]) -> None:
        b = s.board
        wiltz = b.hold
        if not s.relieved:
            for t in relief_path(s):
                mine = s.side[t] == side
                if side == 0:
                    self.take[t] = 8.0 if s.side[t] == 1 else 0.0
                    self.hold[t] = 3.0 if mine else 0.0
                    needs[t] = self._hold_need(s, t, side) if mine else self._attack_need(s, t, side)
                elif mine:
                    self.hold[t] = 8.0
                    needs[t] = self._hold_need(s, t, side)
            if side == 1:
                for t in b.neighbours[b.relieve]:
                    if s.side[t] == 1:
                        self.hold[t] = max(self.hold[t], 5.0)
                        needs[t] = max(needs.get(t, 0.0), self._hold_need(s, t, side))
        if not s.held:
            mine = s.side[wiltz] == side
            if mine:
                self.hold[wiltz] = 15.0
            else:
                self.take[wiltz] = 15.0
            needs[wiltz] = self._hold_need(s, wiltz, side) + 2.0 if mine else self._attack_need(s, wiltz, side, 3.0)

    def _sicily(self, s: PattonState, side: int, needs: dict[int, float]) -> None:
        b = s.board
        messina = b.hold
        for t in b.defection_towns:
            if s.defection_used[t]:
                continue
            worth = 2.0 + 2.5 * b.defection[t]
            mine = s.side[t] == side
            if mine:
                self.hold[t] = worth
            else:
                self.take[t] = worth * (1.5 if side == 1 and s.side[t] == 0 else 1.0)
            if side == 0:
                needs[t] = self._hold_need(s, t, side) * 0.5 if mine else self._attack_need(s, t, side, 1.0)
            elif s.side[t] == 0:
                needs[t] = self._attack_need(s, t, side, 1.0)
        if side == 0:
            self.take[messina] = 40.0
            needs[messina] = (
                self._attack_need(s, messina, side, 6.0)
                if s.side[messina] != 0
                else self._hold_need(s, messina, side) + 4
            )
        else:
            self.hold[messina] = 40.0
            needs[messina] = self._hold_need(s, messina, side) + 4.0


def relief_path(s: PattonState) -> list[int]:
    """The road from Bastogne to a (*) town with the fewest German Units on it (ties: shortest)."""
    b = s.board
    start = b.relieve
    cost = [math.inf] * b.n
    prev = [-1] * b.n
    cost[start] = 0.0
    heap = [(0.0, start)]
    end = -1
    while heap:
        c, t = heapq.heappop(heap)
        if c > cost[t]:
            continue
        if b.star[t]:
            end = t
            break
        for _, _, to, mp in b.out[t]:
            step = 0.05 * mp + ((s.armor[to] + s.inf[to]) if s.side[to] == 1 else 0)
            if c + step < cost[to]:
                cost[to] = c + step
                prev[to] = t
                heapq.heappush(heap, (c + step, to))
    path = []
    while end >= 0 and end != start:
        path.append(end)
        end = prev[end]
    return path


# -- the movement potential ---------------------------------------------------------------------------
def _stack_force(
    s: PattonState, target: int, side: int, extra: tuple[int, int, int] | None = None
) -> tuple[int, int, list[tuple[int, int, int]]]:
    armor = infantry = 0
    parts = []
    for st in s.stacks:
        if st[0] == target and st[4] == side:
            armor += st[2]
            infantry += st[3]
            parts.append((st[1], st[2], st[3]))
    if extra is not None:
        armor += extra[1]
        infantry += extra[2]
        parts.append(extra)
    return armor, infantry, parts


def attack_value(
    s: PattonState, aims: Aims, target: int, armor: int, infantry: int, parts: list[tuple[int, int, int]]
) -> float:
    """Expected worth of the stacks attacking `target`: the town, the casualties each way, and
    the ground the Units gain if they win (landers that lose are eliminated)."""
    if armor + infantry == 0:
        return 0.0
    b = s.board
    da, di = s.armor[target] - s.joined_a[target], s.inf[target] - s.joined_i[target]
    p = attack_success(min(armor, 10), min(infantry, 10), min(da, 10), min(di, 10))
    n, m = dice_for(armor, infantry), dice_for(da, di)
    kills = min(mean_casualties(n), da + di) + p * max(0, da + di - 5) * 0.5
    loss = min(mean_casualties(m), armor + infantry)
    value = p * aims.take[target] + KILL_VALUE * kills - LOSS_VALUE * loss
    for source, a, i in parts:
        w = weight(a, i)
        if source >= b.n:
            value += p * aims.progress(-1, target, a, i) - (1 - p) * w * LOSS_VALUE
        else:
            value += p * aims.progress(source, target, a, i)
    return value


def garrison_value(aims: Aims, town: int, armor: int, infantry: int) -> float:
    """Worth of the garrison: most of it for being there at all, the rest growing to the town's need."""
    hold = aims.hold[town]
    if hold == 0.0 or armor + infantry == 0:
        return 0.0
    need = aims.need.get(town, 1.0)
    return hold * (0.6 + 0.4 * min(1.0, weight(armor, infantry) / max(need, 1.0)))


def move_gain(s: PattonState, aims: Aims, kind: int, where: int, a: int, i: int) -> tuple[float, int]:
    """(change of the mover's potential, MP cost) for one legal move or landing."""
    b = s.board
    side = s.mover
    if kind == LAND:
        x = -1
        y = b.landing_town[where]
        cost = a + i
        source = b.n + where
    else:
        r = where >> 1
        x, y = b.road_ends[r]
        if where & 1:
            x, y = y, x
        cost = (a + i) * b.road_cost[r]
        source = x
    gain = 0.0
    if x >= 0:
        ax, ix = s.armor[x], s.inf[x]
        gain += garrison_value(aims, x, ax - a, ix - i) - garrison_value(aims, x, ax, ix)
    if s.side[y] == 1 - side:
        ta, ti, parts = _stack_force(s, y, side)
        before = attack_value(s, aims, y, ta, ti, parts)
        ta2, ti2, parts2 = _stack_force(s, y, side, (source, a, i))
        gain += attack_value(s, aims, y, ta2, ti2, parts2) - before
    else:
        ay, iy = s.armor[y], s.inf[y]
        gain += aims.progress(x, y, a, i)
        gain += garrison_value(aims, y, ay + a, iy + i) - garrison_value(aims, y, ay, iy)
        if ay + iy + a + i > 10:
            gain -= 2.0 * (ay + iy + a + i - 10)
    return gain, cost


def best_move(rs: PattonRules, s: PattonState) -> tuple[str, str]:
    aims = Aims(s, s.mover)
    tab = rs.table(s.board)
    best, best_score, best_gain = "end", 0.0, 0.0
    for action in rs.legal_actions(s):
        act = tab.parse(action)
        if act is None or act.kind not in (MOVE, LAND):
            continue
        gain, cost = move_gain(s, aims, act.kind, act.where, act.armor, act.infantry)
        score = gain / cost  # Movement Points are the scarce thing: the best gain per point first
        if score > MP_PRICE and score > best_score:
            best, best_score, best_gain = action, score, gain
    if best == "end":
        return "end", "Heuristic: no move left that gains more than the Movement Points it costs."
    return (
        best,
        f"Heuristic: the best gain per Movement Point ({best_gain:+.2f} in position value, {best_score:.2f} a point).",
    )


CANDIDATES = 4  # moves the search considers in the movement phase: the heuristic's best few by gain per MP
PLAYOUT_STEPS = 400  # a bound on a playout to the end of a turn (a turn has far fewer decisions)
PLAYOUT_TURNS = 2
"""Turns a leaf playout finishes: the one in progress and the other side's reply, so a move is
judged after the counterattack it invites, not by a static evaluation of the exposure (measured:
75% against the heuristic at 100 simulations a decision with 2, 48% with 1; NOTES.md)."""
SEARCH_CONFIDENCE = 1.0
"""MCTS keeps the heuristic's move unless another beats it by this many standard errors of their
paired differences: a turn's dice make most differences between good moves noise (NOTES.md)."""


def candidate_actions(rs: PattonRules, s: PattonState) -> list[str]:
    """The actions MCTS expands at a decision: in the movement phase the heuristic's `CANDIDATES`
    best moves by gain per MP, and `end` only where the heuristic would end the turn too; every
    legal action elsewhere.

    A turn offers hundreds of moves, most of them pointless, and a second of search cannot try
    them all. `end` is held back because Movement Points left at the end of a turn are lost and
    the evaluation cannot see what a move sets up for later turns: full-game playouts from the
    positions where the search ended a Bulge turn early won 24% of them, the heuristic's move 28%
    (10 decisions; NOTES.md)."""
    legal = rs.legal_actions(s)
    if s.phase != MOVING:
        return list(legal)
    aims = Aims(s, s.mover)
    tab = rs.table(s.board)
    scored: list[tuple[float, str]] = []
    for action in legal:
        act = tab.parse(action)
        if act is None or act.kind not in (MOVE, LAND):
            continue
        gain, cost = move_gain(s, aims, act.kind, act.where, act.armor, act.infantry)
        scored.append((gain / cost, action))
    best = heapq.nlargest(CANDIDATES, scored)
    moves = [action for _, action in best]
    if "end" in legal and (not best or best[0][0] <= MP_PRICE):
        moves.append("end")
    return moves or list(legal)


def leaf_playout(rs: PattonRules, s: PattonState, rng: random.Random) -> None:
    """Play the heuristic for both sides (and chance, sampled with `rng`) to the end of the turn in
    progress and `PLAYOUT_TURNS - 1` turns after it, so that MCTS scores a move by the whole turn
    it leads to and the reply it invites: a lone move's evaluation misses the rest of the turn's
    moves, the battles they set up and the enemy's counterattack."""
    play_turns(rs, s, rng, heuristic_policy, _mover, PLAYOUT_TURNS, PLAYOUT_STEPS)


def _mover(s: PattonState) -> int:
    return s.mover


# -- the other decisions ----------------------------------------------------------------------------------
def _battle_order(rs: PattonRules, s: PattonState) -> tuple[str, str]:
    best, best_p = "", -1.0
    for action in rs.legal_actions(s):
        t = _where(rs, s, action)
        armor, infantry, _ = _stack_force(s, t, s.mover)
        p = attack_success(min(armor, 10), min(infantry, 10), min(s.armor[t], 10), min(s.inf[t], 10))
        if p > best_p:
            best, best_p = action, p
    return best, f"Heuristic: fight the likeliest win first ({best_p:.0%})."


def _casualties(rs: PattonRules, s: PattonState) -> tuple[str, str]:
    b = s.board

    def cost(action: str) -> float:
        act = rs.table(b).parse(action)
        assert act is not None
        total = 0.0
        for part in act.casualties:
            landing = part.source in b.landing_index
            total += (0.5 if landing else 1.0) * (part.armor * ARMOR_WEIGHT + part.infantry * 1.0)
        return total

    legal = rs.legal_actions(s)
    choice = min(legal, key=cost)
    return choice, "Heuristic: take the losses from landing Units first (they die if the landing fails)."


def _where(rs: PattonRules, s: PattonState, action: str) -> int:
    """The town (or road) a legal action names: its board index."""
    act = rs.table(s.board).parse(action)
    assert act is not None
    return act.where


def _tie(rs: PattonRules, s: PattonState) -> tuple[str, str]:
    from .battle import attacker_force, defender_force

    battle = s.battle
    assert battle is not None
    aa, ai = attacker_force(s)
    da, di = defender_force(s)
    o = round_outcome(min(aa, 10), min(ai, 10), min(da, 10), min(di, 10), battle.bonus)
    attacker = s.actor == battle.attacker
    mine = float(o["attacker_wins"] if attacker else o["defender_wins"])
    theirs = float(o["defender_wins"] if attacker else o["attacker_wins"])
    if battle.kind == 1 and attacker:
        return "stand", "Heuristic: a retreating force has nowhere to go; fight on."
    from .battle import no_refight

    if no_refight(s):
        # Patton: Retreating — neither side can throw: if both stand the attacker falls back, so the
        # defender keeps the town by standing and the attacker loses nothing by standing too
        return (
            "stand",
            "Heuristic: neither side can throw a die; standing costs nothing (if both stand, the attacker falls back).",
        )
    source_landing = attacker and any(
        st[1] >= s.board.n for st in s.stacks if st[0] == battle.target and st[4] == battle.attacker
    )
    if source_landing or mine + 0.1 >= theirs:
        return "stand", f"Heuristic: refight ({mine:.0%} to win the next round, {theirs:.0%} to lose it)."
    return "retreat", f"Heuristic: retreat rather than refight at {mine:.0%} against {theirs:.0%}."


def _retreat(rs: PattonRules, s: PattonState) -> tuple[str, str]:
    b = s.board
    r = s.retreat
    assert r is not None
    aims = Aims(s, r.side)
    tab = rs.table(b)
    enemy = 1 - r.side

    def score(action: str) -> float:
        act = tab.parse(action)
        assert act is not None
        d, a, i = act.where, act.armor, act.infantry
        x, y = b.road_ends[d >> 1]
        if d & 1:
            x, y = y, x
        units = a + i
        if s.side[y] == enemy:  # a fighting retreat
            p = attack_success(a, i, s.armor[y], s.inf[y], 2)
            return units * 10 + weight(a, i) * (p * 2 - 1.5) + a * 0.5
        threat = sum(s.armor[t] * 1.5 + s.inf[t] for t in b.neighbours[y] if s.side[t] == enemy)
        friends = s.armor[y] + s.inf[y] if s.side[y] == r.side else 0
        return units * 10 + a * 0.5 + aims.progress(x, y, 0, 1) + aims.hold[y] * 0.2 + 0.3 * friends - 0.2 * threat

    legal = rs.legal_actions(s)
    choice = max(legal, key=score)
    return choice, "Heuristic: keep as many Units (Armored first) as possible, towards friends and away from the enemy."


def _reserve_town(rs: PattonRules, s: PattonState) -> tuple[str, str]:
    b = s.board
    aims = Aims(s, s.mover)
    enemy = 1 - s.mover

    def score(action: str) -> float:
        t = _where(rs, s, action)
        threat = sum(s.armor[u] * 1.5 + s.inf[u] for u in b.neighbours[t] if s.side[u] == enemy)
        return aims.hold[t] * 0.3 + 0.2 * threat - (5.0 if s.armor[t] + s.inf[t] > 8 else 0.0)

    legal = rs.legal_actions(s)
    choice = max(legal, key=score)
    return choice, "Heuristic: reserves enter where they are needed most."


def _defection(rs: PattonRules, s: PattonState) -> tuple[str, str]:
    b = s.board
    aims = Aims(s, 1)
    allied = [t for t in range(b.n) if s.side[t] == 0]

    def keep(action: str) -> float:
        t = _where(rs, s, action)
        near = min((b.distance[t][u] for u in allied), default=99)
        return aims.hold[t] * garrison_strength(s.armor[t], s.inf[t]) + 6.0 / (1 + near)

    choice = min(rs.legal_actions(s), key=keep)
    return choice, "Heuristic: the defectors leave the town that matters least."


def _stacking(rs: PattonRules, s: PattonState) -> tuple[str, str]:
    legal = rs.legal_actions(s)
    tab = rs.table(s.board)

    def armor_first(action: str) -> int:
        act = tab.parse(action)
        assert act is not None
        return (act.armor > 0) * 10 - len(action)

    choice = min(legal, key=armor_first)
    return choice, "Heuristic: remove Infantry before Armored Units."


def heuristic_policy(ruleset: PattonRules, state: PattonState) -> tuple[str, str]:
    """The heuristic's action for the side to act, and why."""
    rs, s = ruleset, state
    phase = s.phase
    legal = rs.legal_actions(s)
    if len(legal) == 1:
        return legal[0], "Heuristic: the only legal action."
    if phase == MOVING:
        return best_move(rs, s)
    if phase == BATTLE_ORDER:
        return _battle_order(rs, s)
    if phase == CASUALTY:
        return _casualties(rs, s)
    if phase == TIE:
        return _tie(rs, s)
    if phase == RETREATING:
        return _retreat(rs, s)
    if phase == RESERVE_ASK:
        return "roll reserves", "Heuristic: reserves now are worth more than reserves later."
    if phase == RESERVE_PLACE:
        return _reserve_town(rs, s)
    if phase == DEFECTION:
        return _defection(rs, s)
    if phase == STACKING:
        return _stacking(rs, s)
    if phase == PLACING and "place default" in legal:
        return "place default", "Heuristic: the default setup."
    return legal[0], "Heuristic: the first legal action."


# -- evaluation ---------------------------------------------------------------------------------------------
@cache
def _reach_table(board: Board, turns: int) -> list[list[float]]:
    """reach[t][u]: how much a Unit in town u weighs on town t with `turns` turns left to get there."""
    scale = REACH_PER_TURN * max(1, turns)
    return [[math.exp(-d / scale) for d in row] for row in board.distance]


def _forces(s: PattonState, towns: list[int], turns: int) -> tuple[list[float], list[float]]:
    """Each side's force projected on each of `towns` (Units weigh less the farther they stand)."""
    b = s.board
    table = _reach_table(b, turns)
    allied = [0.0] * len(towns)
    axis = [0.0] * len(towns)
    units = [(u, weight(s.armor[u], s.inf[u]), s.side[u]) for u in range(b.n) if s.side[u] >= 0]
    units += [(st[0], weight(st[2], st[3]), st[4]) for st in s.stacks]
    units += _expected_reserves(s, turns)
    offshore = weight(*s.offboard)
    for k, t in enumerate(towns):
        row = table[t]
        for u, w, side in units:
            if side == 0:
                allied[k] += w * row[u]
            else:
                axis[k] += w * row[u]
        if offshore and b.landing_town:
            allied[k] += offshore * max(row[lt] for lt in b.landing_town) * OFFSHORE_DISCOUNT
    return allied, axis


def _expected_reserves(s: PattonState, turns: int) -> list[tuple[int, float, int]]:
    """Reserves still to come in the turns left, by expected weight, where they will enter."""
    b = s.board
    out: list[tuple[int, float, int]] = []
    for side in (0, 1):
        res = b.reserves[side]
        if res is None:
            continue
        left = turns if res.entries is None else min(turns, res.entries - s.reserve_entries[side])
        if left <= 0:
            continue
        if res.trigger == "schedule":
            per_turn = weight(res.armor, res.infantry)
        elif res.by_face is not None:
            per_turn = DOUBLES / 6 * sum(weight(a, i) for a, i in res.by_face.values())
        else:
            per_turn = DOUBLES * weight(res.armor, res.infantry)
        if res.place == "town":
            towns = [res.town]
        elif res.place == "star":
            towns = list(b.star_towns)
        else:
            towns = [t for t in range(b.n) if s.side[t] == side] or []
        for t in towns:
            out.append((t, per_turn * left / len(towns), side))
    return out


def _hold_chances(s: PattonState, towns: list[int], turns: int, axis_loss: float = 0.0) -> list[float]:
    """For each town, the chance the Allies hold it when it counts: the balance of the forces
    that can reach it in the time left, and who holds it now (worth more as time runs out)."""
    allied, axis = _forces(s, towns, turns)
    if axis_loss:
        axis = [max(0.0, x - axis_loss * (x / (sum(axis) or 1.0)) * len(axis)) for x in axis]
    out = []
    incumbency = HOLDER_EDGE / max(1, turns) ** 0.5
    for k, t in enumerate(towns):
        a, x = allied[k], axis[k]
        balance = (a - x) / (a + x + 1.0)
        holder = 1.0 if s.side[t] == 0 else -1.0 if s.side[t] == 1 else 0.0
        out.append(_sigmoid(BALANCE_SLOPE * balance + incumbency * holder))
    return out


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _turns_left(s: PattonState) -> int:
    b = s.board
    # Sicily plays to its objective (no limit by default): the evaluation was fitted on games of
    # SIMULATION_TURN_LIMIT turns, so it keeps that horizon, and then the last turn, as time pressure
    last = b.turns or s.turn_limit or max(s.turn, SIMULATION_TURN_LIMIT)
    return max(1, last - s.turn + 1)


def features(s: PattonState) -> list[float]:
    """What the evaluation looks at, per scenario (the first is a constant 1)."""
    b = s.board
    turns = _turns_left(s)
    aa, ai_ = s.units_of(0)
    xa, xi = s.units_of(1)
    reserves = _expected_reserves(s, turns)
    allied_w = weight(aa, ai_) + sum(w for _, w, side in reserves if side == 0)
    axis_w = weight(xa, xi) + sum(w for _, w, side in reserves if side == 1)
    material = (allied_w - axis_w) / (allied_w + axis_w + 1.0)
    moving = 1.0 if s.mover == 0 else 0.0
    if b.objective == "red_towns":
        chances = _hold_chances(s, b.red_towns, turns)
        held = sum(1 for t in b.red_towns if s.side[t] == 0)
        return [1.0, sum(chances) - b.red_needed, held - b.red_needed, (held - b.red_needed) / turns, material, moving]
    if b.objective == "relief_and_hold":
        path = [] if s.relieved else [t for t in relief_path(s) if s.side[t] == 1]
        relief = 1.0 if not path else min(_hold_chances(s, path, turns))
        blockers = sum(weight(s.armor[t], s.inf[t]) for t in path)
        wiltz = _hold_chances(s, [b.hold], turns)[0]
        return [
            1.0,
            float(s.relieved),
            float(s.held),
            1.0 if s.side[b.hold] == 0 else 0.0,
            relief,
            wiltz,
            material,
            blockers / (turns + 1.0),
            moving,
        ]
    messina = b.hold
    chance = _hold_chances(s, [messina], turns, _defections_to_come(s))[0]
    near = sum(
        weight(s.armor[t], s.inf[t]) for t in range(b.n) if s.side[t] == 0 and b.distance[t][messina] <= 2 * REACH
    )
    return [
        1.0,
        chance,
        1.0 if s.side[messina] == 0 else 0.0,
        material,
        turns / 24.0,
        near / 20.0,
        weight(s.armor[messina], s.inf[messina]) / 10.0 if s.side[messina] == 1 else 0.0,
        moving,
    ]


def allied_chance(s: PattonState) -> float:
    """The Allied player's chance of winning: a logistic model of `features`, fitted to games
    between the heuristic players and between the heuristic and the random player (NOTES.md)."""
    if s.phase == OVER:
        return 1.0 if s.winner == 0 else 0.0
    coefficients = EVAL_WEIGHTS[s.board.objective]
    x = features(s)
    z = sum(c * f for c, f in zip(coefficients, x, strict=True))
    return _sigmoid(max(-30.0, min(30.0, z)))


def _defections_to_come(s: PattonState) -> float:
    """Sicily: Axis weight the Italian defections are still expected to cost (unused yellow towns
    the Allies hold now, and half of the rest)."""
    b = s.board
    owed = 0.0
    for t in b.defection_towns:
        if not s.defection_used[t]:
            owed += b.defection[t] * (1.0 if s.side[t] == 0 else 0.5)
    return owed * INF_WEIGHT


def evaluate(ruleset: PattonRules, state: PattonState) -> dict[str, float]:
    """Each side's estimated chance of winning from `state` (they sum to 1)."""
    p = allied_chance(state)
    return {"Allied": p, "Axis": 1.0 - p}


def value_text(ruleset: PattonRules, value: float) -> str:
    return f"about {value:.0%} to win"


def summarize(ruleset: PattonRules, state: PattonState) -> dict[str, Any]:
    """Per-game facts for simulation reports: the objective's state, losses and the last turn."""
    from .objectives import score

    facts: dict[str, Any] = {k: v for k, v in score(state).items() if isinstance(v, int | float)}
    # when the scenario's objective fell (the balance report's cumulative curve): the Allies win only by
    # achieving it, on the turn the game ends (objectives.check_end_of_turn); None where they did not
    b = state.board
    if b.objective == "red_towns":
        objective = f"{b.red_needed} red towns held"
    elif b.objective == "relief_and_hold":
        objective = f"{b.towns[b.relieve].name} relieved and {b.towns[b.hold].name} held"
    else:
        objective = f"{b.towns[b.hold].name} taken and held"
    facts["objective achieved"] = {objective: state.turn if state.winner == 0 else None}
    return facts


def agent_hooks() -> AgentHooks[PattonState]:
    """What the computer players use of this game (the spec's `agents`: warroom.ai builds its agents from them)."""
    return AgentHooks(
        heuristic_policy=heuristic_policy,
        evaluate=evaluate,
        value_text=value_text,
        summarize=summarize,
        candidate_actions=candidate_actions,
        leaf_playout=leaf_playout,
        search_confidence=SEARCH_CONFIDENCE,
    )
