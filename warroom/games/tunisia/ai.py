"""Tunisia's computer players: a heuristic for each side, with a one-line reason, and the leaf value for search.

The heuristic reads the victory conditions (4.0): the Allies win by occupying all five ports at once or
destroying every Axis counter, the Axis by standing in the airbase 8821, by three Allied airfields with no
Allied port, or by lasting the last turn. So:

- Allied units march on the ports no Allied unit holds (land distance, precomputed once), stay in a port
  once there, and one always guards 8821 (an enemy piece there is never entered, 8.7A).
- Axis units make for the ports no Axis unit holds and stay in ports and villages, with a light pull towards
  8821; a unit that can reach 8821 goes there at once (the sudden win). Pressing on 8821 harder (0.5 a hex, no
  pull to the ports) lost 8 of 8 games to the Allied heuristic; these weights won 4 of 8 (seeds 0-7).
- Support assets join a friendly unit at the front (their DRM counts only stacked, 11.4, 12.1B).
- An attack is made when its exact odds (odds.py: both tests, the air combat folded in) give more chance of
  hurting the enemy than of being hurt, by a margin that depends on what the hex is worth.
- The defender flies air when it lowers the attacker's edge; a loss falls on the piece that loses least;
  retreats go towards the side's objectives; advances into ports, villages and towards them.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from warroom.ai.playouts import play_turns
from warroom.engine.spec import AgentHooks

from .actions import Action
from .catalog import ALLIED, AXIS, SIDE_NAMES
from .odds import attack_outcome, attack_worst_case, outcome_chances
from .overstack import full_hexes, overstacked, side_stacks
from .state import Phase, TunisiaState

if TYPE_CHECKING:
    from .rules import TunisiaRules

SEARCH_CONFIDENCE = 1.0
"""MCTS keeps the heuristic's move unless another beats it by this many standard errors."""
CANDIDATES = 4
"""Moves MCTS expands at a movement step: the heuristic's best by gain (some 2,000 are legal). Few, since
each is scored by playouts of two player-turns and the paired test (`SEARCH_CONFIDENCE`) must tell them
apart from the heuristic's move."""
GUARD, PORT, VILLAGE, STEP = 60.0, 30.0, 6.0, 2.0
"""What a hex is worth to a unit: the airbase guarded, a port, a village; each hex nearer the goal."""
AXIS_PRESS, AXIS_HOLD = 0.1, 1.0
"""An Axis unit's pull towards 8821 and towards the ports it does not hold, a hex."""


@cache
def land_distances(rules: TunisiaRules, target: int) -> tuple[int, ...]:
    """Hexes over land from every hex to `target` (breadth first; 999 where the sea cuts it off)."""
    board = rules.board
    far = 999
    dist = [far] * len(board.grid.hexes)
    dist[target] = 0
    queue = deque([target])
    neighbours, land = board.grid.neighbour_table, board.land
    while queue:
        h = queue.popleft()
        for j in neighbours[h]:
            if j >= 0 and j in land and dist[j] == far:
                dist[j] = dist[h] + 1
                queue.append(j)
    return tuple(dist)


def _field(rules: TunisiaRules, targets: list[int]) -> list[int]:
    """Each hex's land distance to the nearest of `targets`."""
    tables = [land_distances(rules, t) for t in targets]
    if not tables:
        return [0] * len(rules.board.grid.hexes)
    return [min(col) for col in zip(*tables, strict=True)]


class Plan:
    """What one side's pieces aim at in a position, computed once per decision."""

    def __init__(self, rules: TunisiaRules, s: TunisiaState, side: int) -> None:
        cat, board = rules.cat, rules.board
        self.rules, self.side = rules, side
        loc = s.loc
        self.units_at: dict[int, int] = {}
        self.enemy_at: set[int] = set()
        for p, where in enumerate(loc):
            if where < 0:
                continue
            if cat.side[p] == side:
                if cat.is_unit[p]:
                    self.units_at[where] = p
            else:
                self.enemy_at.add(where)
        ports = list(board.ports)
        self.held = {h for h in ports if h in self.units_at}
        open_ports = [h for h in ports if h not in self.held] or ports
        self.port_field = _field(rules, open_ports)
        self.airbase_field = land_distances(rules, board.airbase)
        neighbours = board.grid.neighbour_table
        self.front = {h for h in self.units_at if any(j in self.enemy_at for j in neighbours[h] if j >= 0)}
        self.villages, self.ports, self.airbase = board.villages, set(ports), board.airbase

    def value(self, piece: int, h: int, here: int) -> float:
        """What hex `h` is worth to `piece` (now in `here`), for the side's goals."""
        cat = self.rules.cat
        if not cat.is_unit[piece]:  # a support asset: with a unit at the front
            return 10.0 if h in self.front and h != here else (5.0 if h in self.units_at and h != here else 0.0)
        if self.side == ALLIED:
            worth = 0.0
            if h == self.airbase and (h == here or h not in self.units_at):
                worth += GUARD
            if h in self.ports and (h == here or h not in self.units_at):
                worth += PORT
            return worth - STEP * self.port_field[h]
        worth = 0.0
        if h == self.airbase:
            return 1000.0  # 4.0B: the sudden win
        if h in self.ports and (h == here or h not in self.units_at):
            worth += PORT
        elif h in self.villages and (h == here or h not in self.units_at):
            worth += VILLAGE
        return worth - AXIS_PRESS * self.airbase_field[h] - AXIS_HOLD * self.port_field[h]


def _move_gain(rules: TunisiaRules, s: TunisiaState, plan: Plan, action: str) -> float:
    _, piece_id, origin, target = action.split(" ")
    piece = rules.cat.index[piece_id]
    here, there = rules.hex(origin), rules.hex(target)
    return plan.value(piece, there, here) - plan.value(piece, here, here)


def plain_moves(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> list[str]:
    """The legal moves that end where the piece fits now: the heuristic makes no 6.0D exchange (a move into a
    full hex whose piece leaves later), which its one-move gain cannot value. The exchanges are found from
    the phase's reaches (`s.reach`, made with the legal list), the few full hexes of each, not by reading ids."""
    cat = rules.cat
    is_unit, moved = cat.is_unit, s.moved
    full_for_unit, full_for_asset = full_hexes(cat, side_stacks(cat, s, s.player))
    exchanges: set[str] = set()
    for q, moves in s.reach.items():
        if not moved[q]:
            full = (full_for_unit if is_unit[q] else full_for_asset) & moves.hexes
            exchanges.update(moves.by_hex[d] for d in full)
    return [a for a in legal if a.startswith("move ") and a not in exchanges]


def mending_moves(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> list[str]:
    """With a hex overstacked (6.0D), the legal moves of the pieces in it: the exchange is finished first, so
    no piece elsewhere makes a move it would not make for want of `end` (a review saw 118 such moves)."""
    cat = rules.cat
    over = overstacked(cat, side_stacks(cat, s, s.player))
    here = {rules.labels[h] for h in over}
    mending = [a for a in legal if a.startswith("move ") and a.split()[2] in here]
    return mending or [a for a in legal if a.startswith("move ")]


def ranked_moves(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> list[tuple[float, str]]:
    plan = Plan(rules, s, s.player)
    return sorted(((_move_gain(rules, s, plan, a), a) for a in legal if a.startswith("move ")), reverse=True)


def _attack_score(rules: TunisiaRules, s: TunisiaState, action: str) -> tuple[float, dict[str, float]]:
    target, o = attack_worst_case(rules, s, action)
    hurt, hurt_back = o["defender"] + o["both"], o["attacker"] + o["both"]
    board = rules.board
    stake = 0.15 if target in board.ports else 0.05 if target in board.villages else 0.0
    air_cost = 0.04 if Action.from_id(action).air else 0.0  # an asset flown may be lost in the air combat
    return hurt - hurt_back + stake - air_cost, o


def _loss_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    cat = rules.cat

    def cost(action: str) -> float:
        p = cat.index[Action.from_id(action).piece]
        if cat.is_unit[p]:
            keeps = cat.steps[p] == 2 and not s.reduced[p]  # 13.1A: flipped, not lost
            return (1.0 if keeps else 6.0) + cat.cf[p] * 0.1
        return 3.0 + (4.0 if cat.is_general[p] else 0.0) - 0.2 * (cat.drm[p] or 0)

    best = min(legal, key=cost)
    return best, f"{rules.describe_action(s, best)}: the piece that loses least (13.1C)."


def _closest(rules: TunisiaRules, s: TunisiaState, legal: list[str], side: int, why: str) -> tuple[str, str]:
    """The choice whose hex is worth most to `side` (retreats, bases, placements, replacements)."""
    plan = Plan(rules, s, side)
    cat = rules.cat

    def worth(action: str) -> float:
        act = Action.from_id(action)
        piece = cat.index.get(act.piece, -1)
        h = rules.hex(act.target)
        if piece >= 0 and cat.is_air[piece]:  # an airfield near the front: more battles in range
            return -min((rules.board.grid.distance(h, e) for e in plan.enemy_at), default=0)
        return plan.value(piece, h, -1) if piece >= 0 else 0.0

    best = max(legal, key=worth)
    return best, f"{rules.describe_action(s, best)}: {why}"


def heuristic_policy(rules: TunisiaRules, s: TunisiaState) -> tuple[str, str]:
    """The heuristic's action for the side to act, and why (one line): the only choice, else the phase's own
    way of choosing (`_POLICIES`)."""
    legal = rules.legal_actions(s)
    if len(legal) == 1:
        return legal[0], f"{rules.describe_action(s, legal[0])}: the only legal choice."
    choose = _POLICIES.get(s.phase)
    if choose is None:
        return legal[0], f"{rules.describe_action(s, legal[0])}."
    return choose(rules, s, legal)


def _movement_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    """8.0: the move that gains most, while one gains enough (or one must mend an overstacked hex, 6.0D)."""
    side = s.player
    closing = "end" not in legal  # 6.0D: a hex is overstacked, and a piece must leave it before the end
    moves = mending_moves(rules, s, legal) if closing else plain_moves(rules, s, legal)
    if moves:
        plan = Plan(rules, s, side)
        gain, best = max((_move_gain(rules, s, plan, a), a) for a in moves)
        if gain > 0.5 or closing:
            goal = "towards 8821" if side == AXIS else "towards the ports"
            return best, f"{rules.describe_action(s, best)}: {goal} (worth {gain:.0f})."
    return "end", f"{SIDE_NAMES[side]}: every piece is where it serves best; end the Movement Phase."


def _attack_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    """7.2, 15.0: the attack with the best edge, where it is good enough; in a breakthrough, else the move that
    presses on; else the end of the phase."""
    side = s.player
    attacks = [a for a in legal if a.startswith("attack ")]
    threshold = 0.0 if side == ALLIED else 0.1
    if attacks:
        scored = [(_attack_score(rules, s, a), a) for a in attacks]
        (score, o), best = max(scored, key=lambda x: (x[0][0], x[1]))  # ties: the later id, as before
        if score > threshold:
            cat = rules.cat
            defender = attack_outcome(rules, s, best)["defender_unit"]  # the one chosen, named in its reason
            return best, (
                f"{rules.describe_action(s, best)}: hurts "
                f"{cat.name[cat.index[defender]] if defender else 'the support assets'} "
                f"{o['defender'] + o['both']:.0%}, risks {o['attacker'] + o['both']:.0%} (11.5, 12.2)."
            )
    if s.phase == Phase.BREAKTHROUGH:
        moves = [a for a in legal if a.startswith("move ")]
        if moves:
            plan = Plan(rules, s, side)
            gain, best = max((_move_gain(rules, s, plan, a), a) for a in moves)
            if gain > 0.5:
                return best, f"{rules.describe_action(s, best)}: the breakthrough presses on (15.0)."
    return "end", f"{SIDE_NAMES[side]}: no attack at good odds left; end the phase."


def _defensive_air_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    """7.3C: the defender's air choice that leaves the attacker the smallest edge."""
    fight = s.battle
    assert fight is not None

    def edge(action: str) -> float:
        asset = -1 if action == "no air" else rules.piece(Action.from_id(action).piece)
        o = outcome_chances(rules, s, fight.attacker, fight.origin, fight.target, fight.attacker_air, asset)
        return o["defender"] - o["attacker"] + (0.03 if asset >= 0 else 0.0)

    best = min(legal, key=edge)
    return best, f"{rules.describe_action(s, best)}: the choice that blunts the attack most (7.3C)."


def _retreat_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    return _closest(rules, s, legal, 1 - s.player, "the retreat towards our goals (14.1).")


def _advance_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    """14.3: advance where the battle hex is worth more to the attacker than its own."""
    b = s.battle
    assert b is not None
    plan = Plan(rules, s, s.player)
    go = plan.value(b.attacker, b.target, b.origin) >= plan.value(b.attacker, b.origin, b.origin)
    best = legal[0] if go else "no advance"
    return (
        best,
        f"{rules.describe_action(s, best)}: {'the hex is worth more' if go else 'holding is worth more'} (14.3).",
    )


def _base_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    owner = s.player if s.phase == Phase.RETURN_ATTACKER else 1 - s.player
    return _closest(rules, s, legal, owner, "the airfield nearest the enemy (7.6).")


def _replacement_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    """7.7F-G: the strongest piece rebuilt first, then a replacement where it serves best."""
    rebuilds = [a for a in legal if a.startswith("rebuild ")]
    if rebuilds:
        cat = rules.cat
        best = max(rebuilds, key=lambda a: cat.cf[cat.index[a.split(" ")[1]]])
        return best, f"{rules.describe_action(s, best)}: the strongest piece back to full strength (7.7F)."
    replaces = [a for a in legal if a.startswith("replace ")]
    if replaces:
        return _closest(rules, s, replaces, s.player, "back where it serves best (7.7G).")
    return "end", f"{SIDE_NAMES[s.player]}: no replacement to take."


def _placement_choice(rules: TunisiaRules, s: TunisiaState, legal: list[str]) -> tuple[str, str]:
    return _closest(rules, s, legal, s.player, "where it serves best (5.0, 16.0).")


_POLICIES: dict[Phase, Callable[[TunisiaRules, TunisiaState, list[str]], tuple[str, str]]] = {
    Phase.MOVEMENT: _movement_choice,
    Phase.ATTACK: _attack_choice,
    Phase.BREAKTHROUGH: _attack_choice,
    Phase.DEFENSIVE_AIR: _defensive_air_choice,
    Phase.DEFENDER_LOSS: _loss_choice,
    Phase.ATTACKER_LOSS: _loss_choice,
    Phase.RETREAT: _retreat_choice,
    Phase.ADVANCE: _advance_choice,
    Phase.RETURN_ATTACKER: _base_choice,
    Phase.RETURN_DEFENDER: _base_choice,
    Phase.REPLACEMENT: _replacement_choice,
    Phase.PLACEMENT: _placement_choice,
    Phase.SETUP: _placement_choice,
}
"""How the heuristic chooses in each step a side decides (the dice's steps and the end have no choice)."""


def candidate_actions(rules: TunisiaRules, s: TunisiaState) -> list[str]:
    """Search expands the heuristic's best moves and `end` in a Movement Phase, every action elsewhere."""
    legal = rules.legal_actions(s)
    if s.phase != Phase.MOVEMENT or len(legal) <= CANDIDATES + 1:
        return legal
    if "end" not in legal:  # 6.0D: a hex is overstacked; its pieces' moves mend it
        return [a for _, a in ranked_moves(rules, s, mending_moves(rules, s, legal))[:CANDIDATES]]
    return [a for _, a in ranked_moves(rules, s, plain_moves(rules, s, legal))[:CANDIDATES]] + ["end"]


def leaf_playout(rules: TunisiaRules, s: TunisiaState, rng: random.Random) -> None:
    """Play the heuristic for both sides (and the dice, sampled with `rng`) to the end of the player-turn in
    progress and through the enemy's reply, `PLAYOUT_TURNS` player-turns in all, before the evaluation scores
    a leaf: a move is judged by the battles it sets up and the counterattack it invites (as Patton's search,
    whose NOTES.md measured it), not by a half-made turn. The other side's reply is the heuristic's, which
    against the heuristic is its true reply but for the dice."""
    play_turns(rules, s, rng, heuristic_policy, _player, PLAYOUT_TURNS, PLAYOUT_STEPS)


def _player(s: TunisiaState) -> int:
    return s.player


PLAYOUT_TURNS = 2
"""Player-turns a leaf playout plays, the one in progress counted: 2, the turn and the enemy's reply."""
PLAYOUT_STEPS = 400
"""A bound on a player-turn's steps in a playout (one has some 30 decisions and their dice)."""


def allied_chance(rules: TunisiaRules, s: TunisiaState) -> float:
    """A rough chance of an Allied win: ports held, the march on the rest, the Axis strength destroyed, time."""
    result = rules.result(s)
    if result is not None:
        return 1.0 if result.winner == SIDE_NAMES[ALLIED] else 0.0
    cat = rules.cat
    plan = Plan(rules, s, ALLIED)
    held = len(plan.held) / len(rules.board.ports)
    units = [s.loc[p] for p in cat.by_side[ALLIED] if cat.is_unit[p] and s.loc[p] >= 0]
    near = sorted(plan.port_field[h] for h in units)[:5]
    march = 1.0 - min(1.0, (sum(near) / len(near) if near else 20.0) / 20.0)
    axis_alive = sum(1 for p in cat.by_side[AXIS] if cat.is_unit[p] and s.loc[p] >= 0)
    axis_all = sum(1 for p in cat.by_side[AXIS] if cat.is_unit[p] and not cat.is_battlegroup[p])
    destroyed = 1.0 - axis_alive / max(1, axis_all)
    time_left = max(0.0, (rules.last_turn - s.turn + 1) / rules.last_turn)
    raw = 0.45 * held + 0.25 * march + 0.3 * destroyed
    return max(0.02, min(0.98, raw * (0.5 + 0.5 * time_left)))


def evaluate(rules: TunisiaRules, s: TunisiaState) -> dict[str, float]:
    p = allied_chance(rules, s)
    return {SIDE_NAMES[ALLIED]: p, SIDE_NAMES[AXIS]: 1.0 - p}


def value_text(rules: TunisiaRules, value: float) -> str:
    return f"about {value:.0%} to win"


def summarize(rules: TunisiaRules, s: TunisiaState) -> dict[str, Any]:
    """A finished game's facts for simulation reports."""
    cat = rules.cat
    plan = Plan(rules, s, ALLIED)
    return {
        "turn": s.turn,
        "allied_ports": len(plan.held),
        "axis_units": sum(1 for p in cat.by_side[AXIS] if cat.is_unit[p] and s.loc[p] >= 0),
        "allied_units": sum(1 for p in cat.by_side[ALLIED] if cat.is_unit[p] and s.loc[p] >= 0),
    }


def agent_hooks() -> AgentHooks[TunisiaState]:
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


__all__ = [
    "agent_hooks",
    "allied_chance",
    "candidate_actions",
    "evaluate",
    "heuristic_policy",
    "summarize",
    "value_text",
]
