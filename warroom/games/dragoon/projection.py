"""Operation Dragoon's projection: the VP each Allied drive and the escape-column trap still promise.

Each Allied unit's drive along its route is a chain of attacks: how many it still needs to
reach each objective (a port, Cannes, the last stop of the German unit in front of it, where
that unit is eliminated), how likely each is (fortress, desperate defense, Air), and how many
turns are left; a small dynamic programme gives the chance of reaching each objective in time.
The escape column adds the chance that VI Corps (at Crest) or the US 3rd ID (at Orgon) is in
place when each column unit passes Montelimar or Avignon. Holding no port scores nothing
(Dragoon: How to Win, automatic German victory). The heuristic (ai.py) plans with it and the
evaluation reports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from . import attacks
from .board import Board
from .odds import advance_probability
from .rules import DragoonRules
from .state import (
    ACTIONS,
    ARRIVAL_BOX,
    ATTACK_REROLL,
    ATTACK_ROLL,
    ELIMINATED,
    IN_BOX,
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


PLANNING = Tuning(time_rate=0.59, montelimar_kill=0.47, avignon_kill=0.22, count_ffi=False)
"""The heuristic's: rate the trap at Montelimar and Avignon high, so VI Corps and the 3rd ID race for it;
let each drive count on attacking about half the later turns, about what five drives sharing 2.7 RP a turn
get. At 0.85 (press every drive as if each attacked most turns; measured best on the first, easier
charts) every step looked "done anyway" and the 1st ABTF waited on its drop zone while FFI markers were
bought; at 0.5, with the 3rd ID's priority (ai.DRIVE_WEIGHTS), Cannes is held in 91% of games against
84% (keyed dice, seeds 0-1999, paired: +0.07 VP; 0.45: -0.06 and 0.55: -0.02 against 0.5, 0.4 and
below lose the ports' margin). Sharing later turns' RP by the number of drives still working (a budget)
measured no better (-0.05 to -0.17). The values here (0.59, 0.47, 0.22; by hand 0.5, 0.45, 0.25) come from
the joint tuning with ai.DRIVE_WEIGHTS."""
EVALUATION = Tuning(time_rate=1.0, montelimar_kill=0.1, avignon_kill=0.1, count_ffi=True)
"""The evaluation's: fitted (least squares over 10,000 positions of heuristic play) so expected
VP match what the heuristic goes on to score; mean error under 0.1 VP on every turn."""


# -- the static model: built once per ruleset ------------------------------------------------
class Model:
    """What the evaluation needs from the board, precomputed as indices."""

    def __init__(self, rules: DragoonRules) -> None:
        b = rules.board
        self.rules, self.board = rules, b
        self.foe = _foes(b)  # the German route unit in front of each Allied unit
        self.max_vp = sum(b.vp) + sum(1 for g in range(len(b.german)) if not b.never_eliminated[g])
        self.ports = [loc for loc in (b.marseilles, b.toulon) if loc >= 0]
        # milestones: VP won on entering each route position (a VP location, or the foe's last stop)
        self.milestone: list[list[float]] = []
        self.port_milestone: list[list[bool]] = []
        self.chain_end: list[int] = []  # the last milestone while the foe lives
        self.vp_end: list[int] = []  # the last VP location, once the foe is gone
        self.elim_at: list[int] = []  # where the foe is eliminated (-1: it never is)
        for i in range(len(b.allied)):
            self._add_milestones(rules, i)
        self.column = [g for g in range(len(b.german)) if b.route_of[g] < 0 and not b.is_panzer[g]]
        vi, us3 = b.vi_corps, b.us_3rd
        self.crest_step = b.routes[vi].index(b.crest) if b.crest in b.routes[vi] else -1
        self.orgon_step = b.routes[us3].index(b.avignon) - 1 if b.avignon in b.routes[us3] else -1
        self.q = {drm: _success(drm, b.advance_on, b.air_drm) for drm in range(-6, 4)}
        self._mean_rp = _mean_rps(b)
        self.counterattack = _counterattacks(b)
        """Per German unit, the chance a turn's BOT line orders its counterattack and it succeeds."""

    def _add_milestones(self, rules: DragoonRules, i: int) -> None:
        """Allied unit i's milestones along its route, and the positions where its drive's value ends."""
        b = self.board
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

    def end(self, i: int, view: View) -> int:
        """The last route position still worth reaching (the foe's last stop only while it lives)."""
        return self.chain_end[i] if view[1] >= 0 else self.vp_end[i]

    def value_at(self, i: int, view: View, j: int) -> float:
        return self.milestone[i][j] - (1.0 if j == self.elim_at[i] and view[1] < 0 else 0.0)

    def mean_rp(self, turn: int) -> float:
        return self._mean_rp.get(turn, 0.0)


def _foes(b: Board) -> list[int]:
    """Per Allied unit, the German route unit in front of it (-1: none)."""
    foe = [-1] * len(b.allied)
    for g, owner in enumerate(b.route_of):
        if owner >= 0:
            foe[owner] = g
    return foe


def _mean_rps(b: Board) -> dict[int, float]:
    """Per turn, the RP the Allies may expect: the RP chart's designated number, else the roll's mean."""
    roll_mean = sum(b.rp_roll.values()) / len(b.rp_roll)
    return {t: float(b.rp_designated.get(t, roll_mean)) for t in range(b.first_turn, b.last_turn + 1)}


def _counterattacks(b: Board) -> dict[int, float]:
    """Per German unit, the chance a turn's BOT line orders its counterattack and it succeeds."""
    lines = {g: 0 for g in range(len(b.german))}
    for line in b.bot_lines.values():
        for effect in line.effects:
            if effect.kind != "attack":
                continue
            units = (
                b.bot_attackers
                if effect.units == "adjacent"
                else [b.german_index[u] for u in effect.units or [] if u in b.german_index]
            )
            for g in set(units):
                lines[g] += 1
    hit = advance_probability(0, False, b.advance_on)
    return {g: lines[g] / 6 * hit for g in lines}


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
        dest, _ = attacks.retreat_destination(rules, s, g, loc)
        if dest == ELIMINATED:
            return j
    return -1


def _success(drm: int, advance_on: int, air_drm: int) -> float:
    """Chance a future opposed attack at this DRM succeeds, counting on Air some of the time."""
    base = advance_probability(drm, False, advance_on)
    air = advance_probability(drm + air_drm, False, advance_on)
    return base + AIR_SHARE * (air - base)


@cache
def model_of(rules: DragoonRules) -> Model:
    """The ruleset's model, built on first use (it asks the rules where each German unit is eliminated)."""
    return Model(rules)


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


def unit_views(m: Model, s: DragoonState) -> list[View]:
    """Each Allied unit's View of its drive in position s (the French counted as landed once due)."""
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


def step_chances(
    m: Model,
    s: DragoonState,
    i: int,
    view: View,
    end: int,
    count_ffi: bool = False,
    occupied: set[int] | list[int] | None = None,
) -> tuple[float, ...]:
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

    def __init__(self, m: Model, s: DragoonState, views: list[View], rp_now: float, tuning: Tuning) -> None:
        working = [i for i, v in enumerate(views) if m.end(i, v) > v[0]]
        self.turn = s.turn
        self.later = tuning.time_rate
        wanting = sum(1 + int(s.stalled[i]) for i in working if views[i][3] == s.turn)
        self.now = min(1.0, rp_now / wanting) if wanting else 0.0

    def reach(self, qs: tuple[float, ...], first: int, last: int) -> tuple[float, ...]:
        if first == self.turn:
            return _reach(qs, last - first + 1, self.later, round(self.now, 3))
        return _reach(qs, last - first + 1, self.later)


def _reach_by(
    m: Model,
    s: DragoonState,
    i: int,
    view: View,
    step: int,
    by_turn: int,
    rates: _Rates,
    qs: tuple[float, ...] | None = None,
) -> float:
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
    steps = qs[:need] if qs is not None and len(qs) >= need else step_chances(m, s, i, view, step)
    return rates.reach(steps, view[3], by_turn - 1)[need - 1]


def _current_rp(s: DragoonState) -> float:
    return float(s.rp) if s.phase in (ACTIONS, ATTACK_ROLL, ATTACK_REROLL) else 0.0


class ProjectionCache:
    """What one position's projections share: each unit's terms and the column's value, by the unit's view.

    The heuristic weighs every attack by projecting the position twice (the attack failed, succeeded), and
    the two projections differ in one unit's view: the other units' terms, and the column's while VI Corps's
    and the 3rd ID's views stay, are the same (the column's key holds the `removed` set too). Valid for one
    position and one tuning (the caller makes one per decision); the terms are replayed in the same order,
    so a cached projection is the same float as a fresh one."""

    __slots__ = ("units", "column")

    def __init__(self) -> None:
        self.units: dict[tuple[int, View, float], tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = {}
        self.column: dict[tuple[View, View, frozenset[int], float], float] = {}


def _project(
    m: Model,
    s: DragoonState,
    views: list[View],
    tuning: Tuning,
    removed: frozenset[int] = frozenset(),
    rp_now: float | None = None,
    cache: ProjectionCache | None = None,
) -> tuple[float, float, float]:
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
    now = round(rates.now, 3)
    port_vp = other_vp = 0.0
    miss_port = 1.0
    chain_qs: dict[int, tuple[float, ...]] = {}
    for i, view in enumerate(views):
        key = (i, view, now if view[3] == rates.turn else -1.0)  # this turn's share counts only if it acts now
        terms = cache.units.get(key) if cache is not None else None
        if terms is None:
            terms = _unit_terms(m, s, i, view, rates, tuning)
            if cache is not None:
                cache.units[key] = terms
        qs, ports, others = terms
        if qs:
            chain_qs[i] = qs
        # the sums of the uncached loop, term by term in its order (the same float)
        for k in range(0, len(ports), 2):
            port_vp += ports[k]
            miss_port *= 1.0 - ports[k + 1]
        for term in others:
            other_vp += term
    if any(s.control[loc] for loc in m.ports):
        miss_port = 0.0
    vi, us3 = b.vi_corps, b.us_3rd
    column_key = (views[vi], views[us3], removed, now)
    column = cache.column.get(column_key) if cache is not None else None
    if column is None:
        column = _column(m, s, views, removed, rates, tuning, chain_qs)
        if cache is not None:
            cache.column[column_key] = column
    other_vp += column
    return port_vp, other_vp, 1.0 - miss_port


def _unit_terms(
    m: Model, s: DragoonState, i: int, view: View, rates: _Rates, tuning: Tuning
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """One unit's part of the projection: its step chances (empty when it has no work), its port milestones as
    (VP times chance, chance) pairs and its other milestones' VP times chance, in route order."""
    # Model.end and Model.value_at, written out: this runs at every leaf of every search
    pos, foe_pos, _, first = view
    end = m.chain_end[i] if foe_pos >= 0 else m.vp_end[i]
    if end <= pos:
        return (), (), ()
    qs = step_chances(m, s, i, view, end, tuning.count_ffi, s.german_loc)
    reach = rates.reach(qs, first, m.board.last_turn)
    is_port = m.port_milestone[i]
    values = m.milestone[i]
    gone_at = m.elim_at[i] if foe_pos < 0 else -1  # the foe already gone: no VP for eliminating it there
    ports: list[float] = []
    others: list[float] = []
    for k, p in enumerate(reach):
        j = pos + 1 + k
        value = values[j] - (1.0 if j == gone_at else 0.0)
        if value:
            if is_port[j]:
                ports.append(value * p)
                ports.append(p)
            else:
                others.append(value * p)
    return qs, tuple(ports), tuple(others)


def _column(
    m: Model,
    s: DragoonState,
    views: list[View],
    removed: frozenset[int],
    rates: _Rates,
    tuning: Tuning,
    chain_qs: dict[int, tuple[float, ...]],
) -> float:
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
            survive *= 1.0 - tuning.montelimar_kill * _reach_by(
                m, s, vi, views[vi], m.crest_step, at_montelimar, rates, chain_qs.get(vi)
            )
        if now <= at_avignon <= b.last_turn:
            survive *= 1.0 - tuning.avignon_kill * _reach_by(
                m, s, us3, views[us3], m.orgon_step, at_avignon, rates, chain_qs.get(us3)
            )
        expected += 1.0 - survive
    return expected


def projected_vp(
    m: Model,
    s: DragoonState,
    views: list[View],
    secured: tuple[float, float],
    removed: frozenset[int] = frozenset(),
    rp_now: float | None = None,
    tuning: Tuning | None = None,
    cache: ProjectionCache | None = None,
) -> float:
    """Final VP expected if the units stand as `views` say, on top of the `secured` (port, other) VP.

    `removed`: column units already counted as destroyed; `rp_now`: the RP left this turn, when an
    action being weighed would spend some. Other VP count only as far as a port is likely held.
    `cache`: shared by the projections of one position (ProjectionCache).
    """
    port_vp, other_vp, p_port = _project(m, s, views, tuning or PLANNING, removed, rp_now, cache)
    secured_port, secured_other = secured
    if secured_port > 0:
        p_port = 1.0
    return secured_port + port_vp + p_port * (secured_other + other_vp)


def secured_vp(m: Model, s: DragoonState) -> tuple[float, float]:
    """VP already won: (in ports, elsewhere). A unit eliminated at the end of its track in a port counts with the
    port."""
    b = m.board
    port = sum(b.vp[loc] for loc in m.ports if s.control[loc])
    port += sum(1 for g in s.eliminated if b.german_route[g] and b.german_route[g][-1] in m.ports)
    vp, _ = m.rules.victory_points(s)
    return float(port), float(vp - port)


def expected_vp(ruleset: DragoonRules, state: DragoonState, tuning: Tuning | None = None) -> float:
    """The projected final VP (ports count only if a port is held: Dragoon: How to Win)."""
    m = model_of(ruleset)
    if state.phase == OVER:
        vp, _ = ruleset.victory_points(state)
        return float(vp) if any(state.control[loc] for loc in m.ports) else 0.0
    return projected_vp(m, state, unit_views(m, state), secured_vp(m, state), tuning=tuning or EVALUATION)
