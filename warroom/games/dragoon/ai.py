"""Operation Dragoon's computer player: the Allied heuristic, a position evaluation, per-game facts.

The evaluation projects each Allied unit's drive along its route: how many attacks it still
needs to reach each objective (a port, Cannes, the last stop of the German unit in front of
it, where that unit is eliminated), how likely each attack is (fortress, desperate defense,
Air), and how many turns are left; a small dynamic programme gives the chance of reaching
each objective in time. The escape column adds the chance that VI Corps (at Crest) or the US
3rd ID (at Orgon) is in place when each column unit passes Montelimar or Avignon. The sum,
in VP, is normalised by the most VP the game allows; holding no port scores nothing
(Dragoon: How to Win, automatic German victory).

The heuristic plays the turn the way a good player does: invade at once, spend every RP
where it buys the most expected VP (attacks, Air on the attack it helps most, FFI on units
facing fortresses or desperate defenders, activating stalled units that have work), re-roll
with FFI when it matters, and end only when nothing useful is left. Its values come from the
same projection, so the "why" it gives is the gain it expects.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .rules import DragoonRules
from .state import (
    ACTIONS,
    ARRIVAL_BOX,
    ATTACK_REROLL,
    ATTACK_ROLL,
    BOT_REROLL,
    ELIMINATED,
    IN_BOX,
    OPPOSED,
    OVER,
    RP_ROLL,
    DragoonState,
)

AIR_SHARE = 0.5
"""The share of future attacks expected to have the Air marker (one attack a turn, not in bad weather)."""


@dataclass(frozen=True)
class Tuning:
    """The projection's assumptions. The heuristic plans with one set, the evaluation predicts with another."""

    time_rate: float
    """The share of later turns a unit with work to do gets to attack (one attack a turn at most).
    This turn's share comes from the RP in hand. Sharing later turns' RP out among the units
    (a budget) was tried: it made the heuristic leave drives idle and predicted worse."""
    montelimar_kill: float
    """Chance VI Corps at Crest destroys a column unit while it stands in Montelimar."""
    avignon_kill: float
    """Chance the US 3rd ID at Orgon destroys a column unit while it stands in Avignon."""
    count_ffi: bool = True
    """Whether an FFI marker a unit holds raises the chance of its next attack."""


PLANNING = Tuning(time_rate=0.85, montelimar_kill=0.45, avignon_kill=0.25, count_ffi=False)
"""The heuristic's: press every drive as if each could attack most turns, so none idles; rate the
trap at Montelimar and Avignon high, so VI Corps and the 3rd ID race for it (measured best:
about 8.2 VP a game against 7.9-8.1 for the variations tried)."""
EVALUATION = Tuning(time_rate=1.0, montelimar_kill=0.1, avignon_kill=0.1, count_ffi=True)
"""The evaluation's: fitted (least squares over 10,000 positions of heuristic play) so expected
VP match what the heuristic goes on to score; mean error under 0.1 VP on every turn."""
STALL_COST = 0.04
"""The VP-equivalent of being stalled: an RP to flip back and a turn exposed to being pushed back."""
NEXT_TURN_FACTOR = 0.7
"""Discount on next turn's chances: the BOT may stall the attacker or dig the defender in first."""
COLUMN_HORIZON = 3
"""Turns ahead the heuristic follows the escape column's march when judging a blow at it."""
MIN_GAIN = 1e-3


# -- the rules' own steps, wherever the rules keep them -------------------------------------------
# The projection replays pieces of the rules (a retreat, a defeat, the German movement) on copies
# of the state, so its predictions follow the rules exactly. They are methods of DragoonRules or
# functions of its attacks/movement modules (taking the rules first); both layouts are served.
def _rules_step(rules: DragoonRules, method: str, module: str, function: str) -> Any:
    bound = getattr(rules, method, None)
    if bound is not None:
        return bound
    from importlib import import_module

    step = getattr(import_module(f"{__package__}.{module}"), function)
    return lambda *args: step(rules, *args)


def _retreat_destination(rules: DragoonRules, s: DragoonState, g: int, here: int) -> tuple[int, str]:
    return _rules_step(rules, "_retreat_destination", "attacks", "retreat_destination")(s, g, here)  # type: ignore[no-any-return]


def _defeat(rules: DragoonRules, s: DragoonState, i: int, target: int, defender: int) -> None:
    _rules_step(rules, "_defeat", "attacks", "defeat")(s, i, target, defender, [], False)


def _enter(rules: DragoonRules, s: DragoonState, loc: int, i: int) -> None:
    _rules_step(rules, "_enter", "attacks", "enter")(s, loc, i)


def _german_movement(rules: DragoonRules, s: DragoonState) -> None:
    _rules_step(rules, "_german_movement", "movement", "german_movement")(s, [], False)


def _top_unit(rules: DragoonRules, s: DragoonState, loc: int) -> int:
    """The German unit an attack on `loc` would meet: only the top of a stack (11th PzD Special Rules)."""
    top = getattr(rules, "top_unit", None) or rules._top_unit  # type: ignore[attr-defined]
    return top(s, loc)  # type: ignore[no-any-return]


def _allied_at(rules: DragoonRules, s: DragoonState, loc: int) -> bool:
    routes = rules.board.routes
    return any(p >= 0 and routes[i][p] == loc for i, p in enumerate(s.allied_pos))


# -- the static model: built once per ruleset ------------------------------------------------
class _Model:
    """What the evaluation needs from the board, precomputed as indices."""

    def __init__(self, rules: DragoonRules) -> None:
        b = rules.board
        self.rules, self.board = rules, b
        n = len(b.allied)
        self.foe = [-1] * n  # the German route unit in front of each Allied unit
        for g, owner in enumerate(b.route_of):
            if owner >= 0:
                self.foe[owner] = g
        self.max_vp = sum(b.vp) + sum(1 for g in range(len(b.german)) if not b.never_eliminated[g])
        self.ports = [loc for loc in (b.marseilles, b.toulon) if loc >= 0]
        # milestones: VP won on entering each route position (a VP location, or the foe's last stop)
        self.milestone: list[list[float]] = []
        self.port_milestone: list[list[bool]] = []
        self.chain_end: list[int] = []  # the last milestone while the foe lives
        self.vp_end: list[int] = []  # the last VP location, once the foe is gone
        self.elim_at: list[int] = []  # where the foe is eliminated (-1: it never is)
        for i in range(n):
            route = b.routes[i]
            values = [float(b.vp[loc]) for loc in route]
            ends = [j for j, v in enumerate(values) if v > 0]
            self.vp_end.append(ends[-1] if ends else -1)
            elim = _last_stop(rules, self.foe[i], route)
            if elim >= 0:
                values[elim] += 1.0  # defeated there, the foe has nowhere to go: eliminated (+1 VP)
            self.elim_at.append(elim)
            self.milestone.append(values)
            self.port_milestone.append([loc in self.ports for loc in route])
            ends = [j for j, v in enumerate(values) if v > 0]
            self.chain_end.append(ends[-1] if ends else -1)
        self.column = [g for g in range(len(b.german)) if b.route_of[g] < 0 and not b.is_panzer[g]]
        vi, us3 = b.vi_corps, b.us_3rd
        self.crest_step = b.routes[vi].index(b.crest) if b.crest in b.routes[vi] else -1
        self.orgon_step = b.routes[us3].index(b.avignon) - 1 if b.avignon in b.routes[us3] else -1
        self.q = {drm: _success(drm, b.advance_on, b.air_drm) for drm in range(-6, 4)}
        roll_mean = sum(b.rp_roll.values()) / len(b.rp_roll)
        self._mean_rp = {t: float(b.rp_designated.get(t, roll_mean)) for t in range(b.first_turn, b.last_turn + 1)}
        # chance a German unit's BOT line comes up and its counterattack succeeds, per turn
        lines = {g: 0 for g in range(len(b.german))}
        for line in b.bot_lines.values():
            for effect in line.effects:
                if effect.kind != "attack":
                    continue
                units = b.bot_attackers if effect.units == "adjacent" else [b.german_index[u] for u in effect.units or [] if u in b.german_index]
                for g in set(units):
                    lines[g] += 1
        hit = sum(1 for face in range(1, 7) if face >= b.advance_on) / 6
        self.counterattack = {g: lines[g] / 6 * hit for g in lines}


    def end(self, i: int, view: View) -> int:
        """The last route position still worth reaching (the foe's last stop only while it lives)."""
        return self.chain_end[i] if view[1] >= 0 else self.vp_end[i]

    def value_at(self, i: int, view: View, j: int) -> float:
        return self.milestone[i][j] - (1.0 if j == self.elim_at[i] and view[1] < 0 else 0.0)

    def mean_rp(self, turn: int) -> float:
        return self._mean_rp.get(turn, 0.0)


def _last_stop(rules: DragoonRules, g: int, route: tuple[int, ...]) -> int:
    """Route position where German unit g, defeated alone on the map, is eliminated (-1: never).

    Asked of the rules themselves (a retreat from each stop in turn), so the evaluation follows
    whatever track the rules give each unit (Dragoon: Resolving Unit Attacks, "last location")."""
    if g < 0:
        return -1
    s = rules.initial_state("campaign", {})
    s.german_loc = [ARRIVAL_BOX] * len(s.german_loc)
    s.allied_pos = [IN_BOX] * len(s.allied_pos)
    for j, loc in enumerate(route):
        s.german_loc[g] = loc
        dest, _ = _retreat_destination(rules, s, g, loc)
        if dest == ELIMINATED:
            return j
    return -1


def _success(drm: int, advance_on: int, air_drm: int) -> float:
    """Chance a future opposed attack at this DRM succeeds, counting on Air some of the time."""
    base = sum(1 for face in range(1, 7) if face + drm >= advance_on) / 6
    air = sum(1 for face in range(1, 7) if face + drm + air_drm >= advance_on) / 6
    return base + AIR_SHARE * (air - base)


def advance_chance(drm: int, ffi: bool, advance_on: int) -> float:
    """Exact chance a single attack advances (with one FFI re-roll after a failure)."""
    p = sum(1 for face in range(1, 7) if face + drm >= advance_on) / 6
    return p + (1 - p) * p if ffi else p


@cache
def _model(rules: DragoonRules) -> _Model:
    return _Model(rules)


@lru_cache(maxsize=1 << 16)
def _reach(qs: tuple[float, ...], turns: int, rate: float, first_rate: float = -1.0) -> tuple[float, ...]:
    """P(at least k of the steps `qs` done within `turns` turns), k = 1..len(qs).

    A unit attacks at most once a turn, on a share `rate` of the turns (`first_rate` on the first,
    when it differs: this turn's RP are already known)."""
    n = len(qs)
    dist = [1.0] + [0.0] * n
    for turn in range(max(turns, 0)):
        r = first_rate if turn == 0 and first_rate >= 0 else rate
        for k in range(n - 1, -1, -1):
            moved = dist[k] * r * qs[k]
            dist[k] -= moved
            dist[k + 1] += moved
    out, acc = [], 0.0
    for k in range(n, 0, -1):
        acc += dist[k]
        out.append(acc)
    out.reverse()
    return tuple(out)


# -- the projection ----------------------------------------------------------------------------
# A unit's view: (route position, foe's route position or -1, foe desperate, first turn it can attack)
View = tuple[int, int, bool, int]


def _views(m: _Model, s: DragoonState) -> list[View]:
    b = m.board
    acting = s.phase in (RP_ROLL, ACTIONS, ATTACK_ROLL, ATTACK_REROLL)
    views = []
    for i, route in enumerate(b.routes):
        pos = s.allied_pos[i]
        first = s.turn if acting and not s.spent[i] else s.turn + 1
        landing = b.landing_turn[i]
        if pos == IN_BOX and landing is not None:
            pos, first = 0, max(first, landing + 1)  # the French land for free; they may attack the turn after
        g = m.foe[i]
        loc = s.german_loc[g] if g >= 0 else -1
        foe_pos = route.index(loc) if loc >= 0 and loc in route else -1
        views.append((pos, foe_pos, bool(g >= 0 and s.desperate[g]), first))
    return views


def _steps(m: _Model, s: DragoonState, i: int, view: View, end: int, count_ffi: bool = False,
           occupied: set[int] | list[int] | None = None) -> tuple[float, ...]:
    """Success chance of each step from the unit's position to route position `end`."""
    b = m.board
    route = b.routes[i]
    held = s.german_loc if occupied is None else occupied
    pos, foe_pos, foe_desperate, _ = view
    g = m.foe[i]
    ffi = count_ffi and s.ffi[i]  # the FFI marker it holds re-rolls its next failed attack
    qs = []
    for j in range(pos + 1, end + 1):
        loc = route[j]
        if (foe_pos >= 0 and j >= foe_pos) or loc in held:
            drm = 0
            if foe_pos >= 0 and j >= foe_pos:
                drm = b.fortress_drm if b.fortress[loc] else 0
                if (j == foe_pos and foe_desperate) or (j > foe_pos and b.desperate_for[loc] == g):
                    drm += b.desperate_drm[g]
            q = m.q[drm]
            if ffi:
                q, ffi = q + (1 - q) * q, False
            qs.append(q)
        else:
            qs.append(1.0)  # unopposed: it always advances (a 1 only stalls it)
    return tuple(qs)


class _Rates:
    """How often each unit gets to attack: this turn from the RP in hand, later from the RP expected."""

    __slots__ = ("now", "later", "turn")

    def __init__(self, m: _Model, s: DragoonState, views: list[View], rp_now: float, tuning: Tuning) -> None:
        working = [i for i, v in enumerate(views) if m.end(i, v) > v[0]]
        self.turn = s.turn
        self.later = tuning.time_rate
        wanting = sum(1 + int(s.stalled[i]) for i in working if views[i][3] == s.turn)
        self.now = min(1.0, rp_now / wanting) if wanting else 0.0

    def reach(self, qs: tuple[float, ...], first: int, last: int) -> tuple[float, ...]:
        if first == self.turn:
            return _reach(qs, last - first + 1, self.later, round(self.now, 3))
        return _reach(qs, last - first + 1, self.later)


def _reach_by(m: _Model, s: DragoonState, i: int, view: View, step: int, by_turn: int, rates: _Rates,
              qs: tuple[float, ...] | None = None) -> float:
    """Chance unit i stands on route position `step` by the Allied actions of turn `by_turn`.

    `qs`: the unit's step chances from its position, when already known (at least to `step`)."""
    pos = view[0]
    if step < 0:
        return 0.0
    if pos >= step:
        return 1.0
    if by_turn - view[3] <= 0:  # it must get there on an earlier turn to act from there on by_turn
        return 0.0
    need = step - pos
    steps = qs[:need] if qs is not None and len(qs) >= need else _steps(m, s, i, view, step)
    return rates.reach(steps, view[3], by_turn - 1)[need - 1]


def _current_rp(s: DragoonState) -> float:
    return float(s.rp) if s.phase in (ACTIONS, ATTACK_ROLL, ATTACK_REROLL) else 0.0


def _project(m: _Model, s: DragoonState, views: list[View], tuning: Tuning, removed: frozenset[int] = frozenset(),
             rp_now: float | None = None) -> tuple[float, float, float]:
    """(expected VP still to come from ports, from everything else, chance of holding a port).

    Each unit's drive is a chain of attacks; a milestone on it is worth its VP times the chance
    the unit gets there in the turns left: one attack a turn at most, this turn as far as the RP
    in hand go round the units with work.
    """
    b = m.board
    rp = _current_rp(s) if rp_now is None else rp_now
    if s.phase == RP_ROLL:
        rp = m.mean_rp(s.turn)
    rates = _Rates(m, s, views, rp, tuning)
    port_vp = other_vp = 0.0
    miss_port = 1.0
    occupied = set(s.german_loc)
    chain_qs: dict[int, tuple[float, ...]] = {}
    for i, view in enumerate(views):
        pos, _, _, first = view
        end = m.end(i, view)
        if end <= pos:
            continue
        qs = chain_qs[i] = _steps(m, s, i, view, end, tuning.count_ffi, occupied)
        reach = rates.reach(qs, first, b.last_turn)
        is_port = m.port_milestone[i]
        for k, p in enumerate(reach):
            j = pos + 1 + k
            value = m.value_at(i, view, j)
            if value:
                if is_port[j]:
                    port_vp += value * p
                    miss_port *= 1.0 - p
                else:
                    other_vp += value * p
    if any(s.control[loc] for loc in m.ports):
        miss_port = 0.0
    other_vp += _column(m, s, views, removed, rates, tuning, chain_qs)
    return port_vp, other_vp, 1.0 - miss_port


def _column(m: _Model, s: DragoonState, views: list[View], removed: frozenset[int], rates: _Rates, tuning: Tuning,
            chain_qs: dict[int, tuple[float, ...]]) -> float:
    """Expected escape-column units still to be destroyed at Montelimar or Avignon."""
    b = m.board
    vi, us3 = b.vi_corps, b.us_3rd
    now = s.turn if s.phase in (RP_ROLL, ACTIONS, ATTACK_ROLL, ATTACK_REROLL) else s.turn + 1
    # an Allied unit on the withdrawal route stops every column unit behind it short of Montelimar
    front = max((b.escape_pos.get(b.routes[i][p], -1) for i, p in enumerate(s.allied_pos) if p >= 0), default=-1)
    expected = 0.0
    for g in m.column:
        loc = s.german_loc[g]
        if g in removed:
            continue
        if loc == ARRIVAL_BOX:
            k = -(max((b.german[g].arrival_turn or now), now - 1) + 1 - now)  # on the track, Arles is 0
        elif loc in b.escape_pos:
            k = b.escape_pos[loc]
        else:
            continue  # escaped or eliminated
        at_montelimar = now + len(b.escape_track) - 1 - k
        at_avignon = now + 1 - k
        survive = 1.0
        if at_montelimar <= b.last_turn and front <= k:
            survive *= 1.0 - tuning.montelimar_kill * _reach_by(m, s, vi, views[vi], m.crest_step, at_montelimar, rates, chain_qs.get(vi))
        if now <= at_avignon <= b.last_turn:
            survive *= 1.0 - tuning.avignon_kill * _reach_by(m, s, us3, views[us3], m.orgon_step, at_avignon, rates, chain_qs.get(us3))
        expected += 1.0 - survive
    return expected


def _expected_vp(m: _Model, s: DragoonState, views: list[View], secured: tuple[float, float],
                 removed: frozenset[int] = frozenset(), rp_now: float | None = None, tuning: Tuning | None = None) -> float:
    port_vp, other_vp, p_port = _project(m, s, views, tuning or PLANNING, removed, rp_now)
    secured_port, secured_other = secured
    if secured_port > 0:
        p_port = 1.0
    return secured_port + port_vp + p_port * (secured_other + other_vp)


def _secured(m: _Model, s: DragoonState) -> tuple[float, float]:
    b = m.board
    port = sum(b.vp[loc] for loc in m.ports if s.control[loc])
    port += sum(1 for g in s.eliminated if b.route_of[g] >= 0 and b.german_route[g] and b.german_route[g][-1] in m.ports)
    vp, _ = m.rules.victory_points(s)
    return float(port), float(vp - port)


def expected_vp(ruleset: DragoonRules, state: DragoonState, tuning: Tuning | None = None) -> float:
    """The projected final VP (ports count only if a port is held: Dragoon: How to Win)."""
    m = _model(ruleset)
    if state.phase == OVER:
        vp, _ = ruleset.victory_points(state)
        return float(vp) if any(state.control[loc] for loc in m.ports) else 0.0
    return _expected_vp(m, state, _views(m, state), _secured(m, state), tuning=tuning or EVALUATION)


def evaluate(ruleset: DragoonRules, state: DragoonState) -> float:
    """Expected VP, normalised to [0, 1] by the most VP the game allows; no port held at the end is 0."""
    m = _model(ruleset)
    return max(0.0, min(1.0, expected_vp(ruleset, state) / m.max_vp))


def value_text(ruleset: DragoonRules, value: float) -> str:
    """An evaluation in the player's terms, for MCTS's explanation."""
    return f"about {value * _model(ruleset).max_vp:.1f} VP expected"


def summarize(ruleset: DragoonRules, state: DragoonState) -> dict[str, Any]:
    """One finished game's facts for the simulation report: VP, outcome, captures, eliminations."""
    b = ruleset.board
    vp, _ = ruleset.victory_points(state)
    result = ruleset.result(state)
    objectives = [loc for loc, value in enumerate(b.vp) if value]
    objectives.sort(key=lambda loc: -b.vp[loc])
    return {
        "VP": vp,
        "German units eliminated": len(state.eliminated),
        "captured": {b.locations[loc].name: state.captured.get(loc) for loc in objectives},
        "held at the end": {b.locations[loc].name: bool(state.control[loc]) for loc in objectives},
        "winner": result.winner if result else None,
    }


# -- the heuristic -------------------------------------------------------------------------------
class _Attack:
    """What one attack by unit i would do, and what it is worth."""

    __slots__ = ("i", "target", "defender", "p", "p_air", "value", "air_ok", "stall_risk", "text")

    def __init__(self) -> None:
        self.i = self.target = self.defender = -1
        self.p = self.p_air = self.value = self.stall_risk = 0.0
        self.air_ok = False
        self.text = ""


def _analyse_attack(m: _Model, s: DragoonState, i: int, views: list[View], secured: tuple[float, float], air_legal: bool) -> _Attack:
    """Value of the attack unit i can make now: success probability and expected VP it adds."""
    rules, b = m.rules, m.board
    a = _Attack()
    a.i = i
    target = rules.target_of(s, i)
    a.target = target
    pos, foe_pos, foe_desp, _ = views[i]
    nxt = s.turn + 1
    fail_views = list(views)
    fail_views[i] = (pos, foe_pos, foe_desp, nxt)
    rp_after = s.rp - 1.0
    fail_value = _expected_vp(m, s, fail_views, secured, rp_now=rp_after)
    succ_views = list(views)
    removed: frozenset[int] = frozenset()
    gained_port = gained_other = 0.0
    name = b.locations[target].name if target >= 0 else ""
    text: list[str] = []
    defender = _top_unit(rules, s, target) if target >= 0 else -1
    a.defender = defender
    if defender < 0:
        a.p = a.p_air = 1.0
        a.stall_risk = (1 / 6) * STALL_COST
        succ_views[i] = (pos + 1, foe_pos, foe_desp, nxt)
        advance = True
        text.append(f"advances into {name}")
    else:
        drm = rules.attack_drm(s, target, defender, False)
        a.p = advance_chance(drm, False, b.advance_on)  # FFI is counted by _attack_gain
        a.p_air = advance_chance(drm + b.air_drm, False, b.advance_on)
        a.air_ok = air_legal
        advance = False
        if defender == b.panzer:
            # 11th PzD Special Rules: defeated, it flips to normal and goes under the infantry
            text.append(f"flips the {b.german[defender].name} off its desperate defense" if s.desperate[defender]
                        else f"achieves nothing against the {b.german[defender].name}, which never retreats")
        else:
            dest, _ = _retreat_destination(rules, s, defender, target)
            if dest == ELIMINATED:
                if m.port_milestone[i][min(pos + 1, len(b.routes[i]) - 1)] and b.route_of[defender] == i:
                    gained_port += 1.0
                else:
                    gained_other += 1.0
                text.append(f"eliminates the {b.german[defender].name} (+1 VP)")
            elif dest >= 0:
                text.append(f"pushes the {b.german[defender].name} back to {b.locations[dest].name}")
            else:
                text.append(f"drives the {b.german[defender].name} off the map")
            if defender == m.foe[i]:
                new_foe = b.routes[i].index(dest) if dest >= 0 and dest in b.routes[i] else -1
                foe_desp_after = new_foe >= 0 and b.desperate_for[dest] == defender
                succ_views[i] = (pos, new_foe, foe_desp_after, nxt)
                if dest < 0 and foe_pos >= 0 and pos >= m.chain_end[i]:
                    # the foe can no longer counterattack to retake what this unit holds
                    held = b.vp[b.routes[i][pos]] if pos >= 0 else 0
                    gained_other += held * m.counterattack.get(defender, 0.0) * 0.5 * max(b.last_turn - s.turn + 1, 0)
            else:
                removed = frozenset({defender}) if dest == ELIMINATED else frozenset()
            others = [g for g in rules.germans_at(s, target) if g != defender]
            advance = not others and target != b.attack_only[i] and not (target == b.avignon and not s.entered_198)
            if advance:
                p0 = succ_views[i]
                succ_views[i] = (pos + 1, p0[1], p0[2], nxt)
    if advance and target >= 0:
        if b.vp[target] and not s.control[target]:
            if target in m.ports:
                gained_port += b.vp[target]
            else:
                gained_other += b.vp[target]
            text.append(f"takes {name} ({b.vp[target]} VP)")
        if i == b.vi_corps and target == b.crest:
            text.append("reaches Crest, which sends the 11th PzD to Montelimar")
    if target in b.escape_pos or target == b.crest:
        # the escape column moves on after the actions: what this attack sets up for next turn
        after = s.clone()
        if defender >= 0:
            _defeat(rules, after, i, target, defender)
        else:
            after.allied_pos[i] += 1
            _enter(rules, after, target, i)
        after.spent[i] = True
        after.rp -= 1
        before = s.clone()
        before.spent[i] = True
        before.rp -= 1
        setup = _column_kills(m, after) - _column_kills(m, before)
        if setup > 0.05:
            text.append("sets up a blow at the escape column next turn")
        gained_other += setup
    sp, so = secured
    succ_value = _expected_vp(m, s, succ_views, (sp + gained_port, so + gained_other), removed, rp_after)
    a.value = succ_value - fail_value
    a.text = ", ".join(text)
    return a


def _column_kills(m: _Model, t: DragoonState) -> float:
    """Expected escape-column units destroyed by the attacks still open this turn and in the next
    few turns, as the column marches on and the Allies close the trap (mutates t).

    A column unit on top of a location an Allied unit attacks, with no place to retreat, dies
    if the attack succeeds; a column unit pushed back south from Montelimar walks back into the
    trap; a desperate 11th PzD on top must be flipped first (Dragoon: German Movement, 11th PzD
    Special Rules, Allied Advance/German Retreat Restrictions).
    """
    rules, b = m.rules, m.board
    best: dict[int, float] = {}
    if t.rp > 0:
        _kill_chances(m, t, True, 1.0, best)
    weight = 1.0
    for _ in range(COLUMN_HORIZON):
        if t.turn >= b.last_turn:
            break
        _german_movement(rules, t)
        t.turn += 1
        weight *= NEXT_TURN_FACTOR
        _kill_chances(m, t, False, weight, best)
        # the Allies walk into the empty stops of the withdrawal route ahead of them
        for u in range(len(b.allied)):
            target = rules.target_of(t, u) if t.allied_pos[u] != IN_BOX else -1
            if target in b.escape_pos and target != b.attack_only[u] and target not in t.german_loc \
                    and not (target == b.avignon and not t.entered_198) and not _allied_at(rules, t, target):
                t.allied_pos[u] += 1
    return sum(best.values())


def _kill_chances(m: _Model, t: DragoonState, this_turn: bool, weight: float, best: dict[int, float]) -> None:
    """Record, per column unit, the best discounted chance an Allied attack destroys it in position t."""
    rules, b = m.rules, m.board
    for u in range(len(b.allied)):
        if t.allied_pos[u] == IN_BOX or (this_turn and (t.spent[u] or t.stalled[u])):
            continue
        target = rules.target_of(t, u)
        if target < 0 or target not in b.escape_pos:
            continue
        top = _top_unit(rules, t, target)
        if top < 0:
            continue
        drm = rules.attack_drm(t, target, top, False)
        q = m.q[max(-6, min(3, drm))]
        if top == b.panzer:
            if t.desperate[top]:
                for g in rules.germans_at(t, target):
                    if g in m.column:
                        best[g] = max(best.get(g, 0.0), weight * 0.25 * q)
            continue
        if top not in m.column:
            continue
        dest, _ = _retreat_destination(rules, t, top, target)
        chance = q if dest == ELIMINATED else 0.3 * q if target == b.montelimar else 0.0
        if chance:
            best[top] = max(best.get(top, 0.0), weight * chance)


def _step_value(m: _Model, s: DragoonState, i: int, views: list[View], secured: tuple[float, float]) -> float:
    """What the unit's next step along its route is worth (for FFI and activation decisions)."""
    pos, foe_pos, foe_desp, _ = views[i]
    nxt = s.turn + 1
    here = list(views)
    here[i] = (pos, foe_pos, foe_desp, nxt)
    ahead = list(views)
    new_foe = foe_pos + 1 if foe_pos >= 0 and foe_pos == pos + 1 else foe_pos
    ahead[i] = (pos + 1, new_foe if new_foe < len(m.board.routes[i]) else -1, False, nxt)
    rp_after = s.rp - 1.0
    return max(0.0, _expected_vp(m, s, ahead, secured, rp_now=rp_after) - _expected_vp(m, s, here, secured, rp_now=rp_after))


def heuristic_policy(ruleset: DragoonRules, state: DragoonState) -> tuple[str, str]:
    """A competent Allied player: the action it picks and, in plain words, why."""
    m = _model(ruleset)
    s = state
    if s.phase == ATTACK_REROLL:
        return _attack_reroll(m, s)
    if s.phase == BOT_REROLL:
        return _bot_reroll(m, s)
    legal = ruleset.legal_actions(s)
    if len(legal) == 1:
        return legal[0], "The only legal action."
    return _plan_actions(m, s, legal)


def _attack_reroll(m: _Model, s: DragoonState) -> tuple[str, str]:
    assert s.attack is not None
    b = m.board
    i, _target, mode = s.attack[0], s.attack[1], s.attack[2]
    unit = b.allied[i].id
    if mode == OPPOSED:
        return "reroll ffi", f"Dragoon: FFI — the attack failed; {unit}'s FFI re-rolls it (that is what the marker is for)."
    # a 1 on an invasion or unopposed advance stalls the unit: keep the FFI for a real fight ahead
    views = _views(m, s)
    end = m.end(i, views[i])
    pos = views[i][0] + 1
    fights_ahead = end > pos and any(q < 1.0 for q in _steps(m, s, i, (pos, *views[i][1:]), end))  # type: ignore[arg-type]
    if fights_ahead:
        return "accept", f"Keep {unit}'s FFI for the opposed attacks ahead; a stall costs only an RP to undo."
    return "reroll ffi", f"{unit} has no hard fight ahead, so its FFI re-rolls the 1 to avoid the stall."


def _bot_reroll(m: _Model, s: DragoonState) -> tuple[str, str]:
    assert s.bot_attack is not None
    b = m.board
    target = s.bot_attack[1]
    unit = b.allied[target].id
    if s.stalled[target]:
        return "reroll ffi", f"{unit} is stalled, so this German success would push it back: its FFI makes the German re-roll."
    return "accept", f"{unit} is only stalled by this result (an RP to undo); its FFI is worth more on its next attack."


def _plan_actions(m: _Model, s: DragoonState, legal: list[str]) -> tuple[str, str]:
    rules, b = m.rules, m.board
    legal_set = set(legal)
    views = _views(m, s)
    secured = _secured(m, s)
    # invasions first: every turn a unit waits in its box is a turn lost on its route
    invasions = [k for k in range(len(b.allied)) if rules.invade_id[k] in legal_set]
    if invasions:
        best = max(invasions, key=lambda k: (m.chain_end[k] - 0, -k))
        return rules.invade_id[best], f"Invade at once: {b.allied[best].name} has {m.chain_end[best] + 1} steps to go on its route."
    air_legal = not s.air_used and not s.air_grounded
    attacks: dict[int, _Attack] = {}
    for i in range(len(b.allied)):
        if s.allied_pos[i] == IN_BOX or s.spent[i]:
            continue
        plain, air = rules.attack_id[i][s.allied_pos[i]]
        can = plain in legal_set or (s.stalled[i] and plain and _attack_possible(m, s, i))
        if not can:
            continue
        a = _analyse_attack(m, s, i, views, secured, air_legal and (air in legal_set or s.stalled[i]))
        if a.value > MIN_GAIN:
            attacks[i] = a
    # greedy plan for the RP this turn: each increment is an attack (with its activation) or an FFI
    rp = s.rp
    chosen: set[int] = set()
    ffi_for: set[int] = set()
    air_unit = -1
    while rp > 0:
        best_rate, best_kind, best_i, best_cost = MIN_GAIN, "", -1, 0
        for i, a in attacks.items():
            has_ffi = s.ffi[i] or i in ffi_for
            with_air = air_unit == i or (air_unit < 0 and a.air_ok)
            if i not in chosen:
                cost = 2 if s.stalled[i] else 1
                rate = _attack_gain(a, has_ffi, with_air) / cost
                if cost <= rp and rate > best_rate:
                    best_rate, best_kind, best_i, best_cost = rate, "attack", i, cost
            elif not has_ffi and a.defender >= 0:
                rate = _attack_gain(a, True, with_air) - _attack_gain(a, False, with_air)
                if rate > best_rate:
                    best_rate, best_kind, best_i, best_cost = rate, "ffi", i, 1
        if not best_kind:
            break
        if best_kind == "attack":
            chosen.add(best_i)
            if air_unit < 0 and attacks[best_i].air_ok:
                air_unit = best_i
        else:
            ffi_for.add(best_i)
        rp -= best_cost
    # re-assign Air to the chosen attack it helps most
    if chosen and air_legal:
        helped = {i: _attack_gain(attacks[i], s.ffi[i] or i in ffi_for, True) - _attack_gain(attacks[i], s.ffi[i] or i in ffi_for, False)
                  for i in chosen if attacks[i].air_ok}
        air_unit = max(helped, key=lambda i: helped[i]) if helped and max(helped.values()) > MIN_GAIN else -1
    if chosen:
        # the most valuable attack first, with its FFI and activation before it
        i = max(chosen, key=lambda k: (attacks[k].value, -k))
        a = attacks[i]
        unit = b.allied[i]
        if i in ffi_for and not s.ffi[i]:
            return rules.ffi_id[i], f"FFI to {unit.id} before its attack: the re-roll lifts its chance to advance from {a.p_air if i == air_unit else a.p:.0%} to {_chance(a, True, i == air_unit):.0%}."
        if s.stalled[i]:
            return rules.activate_id[i], f"Flip {unit.id} to active: it has an attack worth making ({a.text})."
        plain, air = rules.attack_id[i][s.allied_pos[i]]
        use_air = i == air_unit and air in legal_set
        p = _chance(a, s.ffi[i], use_air)
        action = air if use_air else plain
        gain = _attack_gain(a, s.ffi[i], use_air)
        return action, f"{unit.id}{' with Air support' if use_air else ''}: {p:.0%} to succeed; success {a.text} (+{gain:.2f} VP expected)."
    return _spare_rp(m, s, legal_set, views, secured)


def _attack_possible(m: _Model, s: DragoonState, i: int) -> bool:
    """Whether unit i, once active, would have an attack to make (the rules' own test, unstalled)."""
    rules = m.rules
    twin = s.clone()
    twin.stalled[i] = False
    twin.legal = None
    plain, _ = rules.attack_id[i][s.allied_pos[i]]
    return plain in rules.legal_actions(twin)


def _chance(a: _Attack, ffi: bool, air: bool) -> float:
    """Chance the attack succeeds, with or without an FFI re-roll and Air."""
    if a.defender < 0:
        return 1.0
    p = a.p_air if air and a.air_ok else a.p
    return p + (1 - p) * p if ffi else p


def _attack_gain(a: _Attack, ffi: bool, air: bool) -> float:
    """Expected VP an attack adds, with or without an FFI re-roll and Air."""
    if a.defender < 0:
        return a.value - (0.0 if ffi else a.stall_risk)
    return _chance(a, ffi, air) * a.value


def _spare_rp(m: _Model, s: DragoonState, legal_set: set[str], views: list[View], secured: tuple[float, float]) -> tuple[str, str]:
    """No attack is worth an RP: put what is left where it helps later (FFI, activations), else end."""
    rules, b = m.rules, m.board
    options: list[tuple[float, str, str]] = []
    for i in range(len(b.allied)):
        if s.allied_pos[i] == IN_BOX:
            continue
        step = _step_value(m, s, i, views, secured)
        g = m.foe[i]
        threat = m.counterattack.get(g, 0.0) if g >= 0 and rules.bot_target(s, g) == i else 0.0
        # what a successful counterattack costs: a stalled unit is pushed back a step, an active one stalls
        setback = step if s.stalled[i] else STALL_COST
        if rules.ffi_id[i] in legal_set:
            nxt = _next_q(m, s, i, views)
            # the re-roll on its next attack (not before next turn: discounted), or against a counterattack
            value = 0.6 * nxt * (1 - nxt) * step + threat * (2 / 6) * setback
            if value > MIN_GAIN:
                options.append((value, rules.ffi_id[i], f"FFI to {b.allied[i].id} for its next attack ({nxt:.0%} to succeed without a re-roll)."))
        if rules.activate_id[i] in legal_set and step > 0:
            value = threat * step + 0.5 * STALL_COST  # ready to attack next turn without paying then
            options.append((value, rules.activate_id[i], f"Flip {b.allied[i].id} to active: it has work ahead, and a stalled unit is pushed back by a successful counterattack."))
    if options:
        options.sort(key=lambda o: -o[0])
        value, action, why = options[0]
        return action, why
    return "end", f"Nothing useful is left for the {s.rp} RP remaining (RP cannot be saved)."


def _next_q(m: _Model, s: DragoonState, i: int, views: list[View]) -> float:
    """Chance of the unit's next opposed attack along its route (1.0 if none is ahead)."""
    pos = views[i][0]
    end = m.end(i, views[i])
    if end <= pos:
        return 1.0
    for q in _steps(m, s, i, views[i], end):
        if q < 1.0:
            return q
    return 1.0


__all__ = ["EVALUATION", "PLANNING", "Tuning", "advance_chance", "evaluate", "expected_vp", "heuristic_policy", "summarize", "value_text"]
