"""Hex skirmish: the smallest hex-and-counter game, for the tests (cited as "Hexes N").

Hexes 1 Map: 7 columns x 6 rows (0101-0706), flat-topped, even columns shifted down. Open and town hexes
cost 1 MP to enter, forest 2. A river runs along the hexsides between columns 04 and 05: crossing it costs
+2 MP, except at the bridge (0403/0503), which carries the road. Along the road a step costs 1/2 MP.
Hexes 2 Units: each side has an infantry unit (3 MP, attack 2) and an armour unit (4 MP, attack 3), each of
two steps; a unit that loses a step is reduced (attack -1), one that loses both is eliminated. One unit a hex.
Hexes 3 Movement: a unit moves through hexes its MP pay for (HexGrid.movement_range), never into an enemy
unit's hex, and stops on entering a hex next to an enemy unit (its zone of control); it ends in an empty hex.
Hexes 4 Attack: instead of moving, a unit attacks an adjacent enemy unit; a die decides: the defender loses
a step if die + attack >= 6, +1 to that need where the defender is in forest or town or behind the unbridged
river; a 1 is always a miss and costs the attacker a step.
Hexes 5 Turn: Red, then Blue; each of the side's units acts at most once (moves or attacks), then the side
ends its turn. The game lasts six turns.
Hexes 6 Victory: a side whose units are all eliminated loses at once. After the sixth turn the side holding
the town (0403) wins; with nobody there, the side with more steps left; otherwise a draw.
Nothing is hidden: both sides see the whole board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warroom.engine.errors import IllegalActionError, PositionError
from warroom.engine.hexgrid import HexGrid, StepCosts
from warroom.engine.ruleset import CHANCE, Event, GameInfo, Result, win_returns

RED, BLUE = "Red", "Blue"
SIDES = (RED, BLUE)
TURNS = 6
D6 = tuple((face, 1 / 6) for face in range(1, 7))

GRID = HexGrid(range(1, 8), range(1, 7), offset="even-q")
FOREST = ("0205", "0304", "0602", "0605")
TOWN = "0403"
ROAD = ("0103", "0203", "0303", "0403", "0503", "0603", "0703")
RIVER = tuple(
    (a, b)
    for a, b in [
        ("0401", "0501"), ("0401", "0502"), ("0402", "0502"), ("0402", "0503"), ("0403", "0503"), ("0403", "0504"),
        ("0404", "0504"), ("0404", "0505"), ("0405", "0505"), ("0405", "0506"), ("0406", "0506"),
    ]
)  # fmt: skip
BRIDGE = ("0403", "0503")


def _side(a: str, b: str) -> int:
    return GRID.side(GRID.at(a), GRID.at(b))


TERRAIN = tuple("town" if label == TOWN else "forest" if label in FOREST else "open" for label in GRID.labels)
RIVER_SIDES = frozenset(_side(a, b) for a, b in RIVER)
BRIDGE_SIDE = _side(*BRIDGE)
ROAD_SIDES = frozenset(_side(a, b) for a, b in zip(ROAD, ROAD[1:], strict=False))
COSTS = StepCosts(
    GRID,
    [2.0 if t == "forest" else 1.0 for t in TERRAIN],
    side_extra={k: 2.0 for k in RIVER_SIDES - {BRIDGE_SIDE}},  # Hexes 1: +2 across the river, not at the bridge
    side_cost={k: 0.5 for k in ROAD_SIDES},  # Hexes 1: 1/2 MP along the road
)


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    mp: int
    attack: int


KINDS = {"infantry": Kind("infantry", 3, 2), "armour": Kind("armour", 4, 3)}
UNITS = {"R1": (RED, "infantry", "0102"), "R2": (RED, "armour", "0104"), "B1": (BLUE, "infantry", "0703"),
         "B2": (BLUE, "armour", "0705")}  # fmt: skip
"""Unit id -> (side, kind, starting hex)."""


@dataclass(slots=True)
class Unit:
    hex: str | None  # None once eliminated
    steps: int = 2
    done: bool = False


@dataclass(slots=True)
class HexesState:
    turn: int = 1
    side: int = 0
    units: dict[str, Unit] = field(default_factory=dict)
    attack: tuple[str, str] | None = None
    """The attack a die is about to decide: (attacker, defender)."""


def side_of(unit: str) -> str:
    return UNITS[unit][0]


def attack_value(s: HexesState, unit: str) -> int:
    """Hexes 2: a reduced unit attacks at one less."""
    return KINDS[UNITS[unit][1]].attack - (1 if s.units[unit].steps < 2 else 0)


def needed(s: HexesState, attacker: str, defender: str) -> int:
    """Hexes 4: the lowest die that hits (never below 2: a 1 always misses)."""
    a, d = s.units[attacker].hex, s.units[defender].hex
    assert a is not None and d is not None
    need = 6 - attack_value(s, attacker)
    if TERRAIN[GRID.at(d)] in ("forest", "town"):
        need += 1
    side = _side(a, d)
    if side in RIVER_SIDES and side != BRIDGE_SIDE:
        need += 1
    return max(2, need)


def hit_chance(s: HexesState, attacker: str, defender: str) -> float:
    return (7 - needed(s, attacker, defender)) / 6


class Hexes:
    """The ruleset (warroom.engine.ruleset.Ruleset)."""

    info = GameInfo(id="hexskirmish", title="Hex skirmish (test game)", scenarios=("standard",), sides=SIDES)

    def initial_state(self, scenario: str | None = None, options: dict[str, Any] | None = None) -> HexesState:
        return HexesState(units={uid: Unit(start) for uid, (_, _, start) in UNITS.items()})

    def to_act(self, s: HexesState) -> str | None:
        if self.result(s) is not None:
            return None
        return CHANCE if s.attack else SIDES[s.side]

    def occupant(self, s: HexesState) -> dict[str, str]:
        return {u.hex: uid for uid, u in s.units.items() if u.hex is not None}

    def reach(self, s: HexesState, unit: str) -> dict[str, float]:
        """Hexes 3: where `unit` may end a move, with the MP it costs."""
        here = s.units[unit].hex
        assert here is not None
        side = side_of(unit)
        enemies = {GRID.at(u.hex) for uid, u in s.units.items() if u.hex is not None and side_of(uid) != side}
        zoc = {j for i in enemies for j in GRID.neighbours(i)}
        taken = {GRID.at(h) for h in self.occupant(s)}
        found = GRID.movement_range(GRID.at(here), KINDS[UNITS[unit][1]].mp, COSTS, blocked=enemies,
                                    stop=zoc.__contains__)  # fmt: skip
        return {GRID.labels[i]: cost for i, cost in found.cost.items() if i not in taken}

    def legal_actions(self, s: HexesState) -> list[str]:
        if self.to_act(s) not in SIDES:
            return []
        side, at = SIDES[s.side], self.occupant(s)
        actions = []
        for uid, u in s.units.items():
            if side_of(uid) != side or u.hex is None or u.done:
                continue
            for to in sorted(self.reach(s, uid)):
                actions.append(f"move {uid} {u.hex}->{to}")
            for j in GRID.neighbours(GRID.at(u.hex)):
                enemy = at.get(GRID.labels[j])
                if enemy is not None and side_of(enemy) != side:
                    actions.append(f"attack {uid} {u.hex}->{GRID.labels[j]}")
        return [*actions, "end"]

    def why_illegal(self, s: HexesState, action: str) -> str:
        """The rule an illegal action breaks, in words."""
        words = action.split(" ")
        if self.to_act(s) is None:
            return "the game is over (Hexes 6)"
        if s.attack:
            return "a die decides the attack first (Hexes 4)"
        if len(words) != 3 or words[0] not in ("move", "attack") or "->" not in words[2] or words[1] not in UNITS:
            return "actions are 'move UNIT FROM->TO', 'attack UNIT FROM->TO' or 'end'"
        unit, (origin, _, to) = words[1], words[2].partition("->")
        if side_of(unit) != SIDES[s.side]:
            return f"{unit} is not {SIDES[s.side]}'s: each side acts in its own turn (Hexes 5)"
        if s.units[unit].hex != origin:
            why = "eliminated" if s.units[unit].hex is None else "it is elsewhere"
            return f"{unit} is not in {origin} (Hexes 2: {why})"
        if s.units[unit].done:
            return f"{unit} has acted this turn (Hexes 5: each unit acts once)"
        if words[0] == "move":
            return f"{to} is not a hex {unit} can move to (Hexes 3: MP, enemy units and zones of control)"
        return f"no enemy unit next to {origin} in {to} (Hexes 4)"

    def apply(self, s: HexesState, action: str, log: bool = True) -> list[Event]:
        if action not in self.legal_actions(s):
            raise IllegalActionError(f"{action!r}: {self.why_illegal(s, action)}")
        side = SIDES[s.side]
        if action == "end":
            for u in s.units.values():
                u.done = False
            s.side = 1 - s.side
            if s.side == 0:
                s.turn += 1
            return [{"type": "end", "text": f"{side} ends its turn.", "rule": "Hexes 5"}] if log else []
        kind, unit, where = action.split(" ")
        origin, _, to = where.partition("->")
        if kind == "move":
            cost = self.reach(s, unit)[to]
            s.units[unit].hex, s.units[unit].done = to, True
            return (
                [{"type": "move", "text": f"{unit} moves {origin} to {to} ({cost:g} MP).", "rule": "Hexes 3"}]
                if log
                else []
            )
        defender = self.occupant(s)[to]
        s.attack = (unit, defender)
        s.units[unit].done = True
        text = f"{unit} attacks {defender} in {to}: a {needed(s, unit, defender)} or more hits."
        return [{"type": "attack", "text": text, "rule": "Hexes 4"}] if log else []

    def chance_outcomes(self, s: HexesState) -> tuple[tuple[int, float], ...]:
        return D6

    def die_sides(self, s: HexesState) -> int:
        return 6

    def apply_chance(self, s: HexesState, outcome: int, log: bool = True) -> list[Event]:
        if s.attack is None or not 1 <= outcome <= 6:
            raise IllegalActionError(f"no attack is waiting for a die of {outcome} (Hexes 4)")
        attacker, defender = s.attack
        need = needed(s, attacker, defender)
        loser = attacker if outcome == 1 else defender if outcome >= need else None
        s.attack = None
        if loser is not None:
            u = s.units[loser]
            u.steps -= 1
            if u.steps == 0:
                u.hex = None
        if not log:
            return []
        said = {attacker: f"a 1: {attacker} loses a step", defender: f"a hit: {defender} loses a step", None: "a miss"}
        gone = " and is eliminated" if loser is not None and s.units[loser].steps == 0 else ""
        return [{"type": "combat", "text": f"{attacker} rolls {outcome}: {said[loser]}{gone}.", "rule": "Hexes 4",
                 "roll": outcome}]  # fmt: skip

    def observation(self, s: HexesState, side: str | None) -> dict[str, Any]:
        """Nothing is hidden: the whole position, and who looks."""
        return {**self.state_to_json(s), "viewer": side}

    def result(self, s: HexesState) -> Result | None:
        steps = {side: sum(u.steps for uid, u in s.units.items() if side_of(uid) == side) for side in SIDES}
        for side in SIDES:
            if steps[side] == 0:
                survivor = SIDES[1 - SIDES.index(side)]
                return Result(
                    survivor, steps, f"{side}'s units are all eliminated", "Hexes 6", win_returns(self.info, survivor)
                )
        if s.turn <= TURNS:
            return None
        holder = self.occupant(s).get(TOWN)
        winner: str | None
        if holder is not None:
            winner, reason = side_of(holder), f"{side_of(holder)} holds the town"
        elif steps[RED] != steps[BLUE]:
            winner = RED if steps[RED] > steps[BLUE] else BLUE
            reason = f"{winner} has more steps left"
        else:
            winner, reason = None, "nobody holds the town and the steps are even"
        return Result(winner, steps, reason, "Hexes 6", win_returns(self.info, winner))

    def clone(self, s: HexesState) -> HexesState:
        return HexesState(s.turn, s.side, {uid: Unit(u.hex, u.steps, u.done) for uid, u in s.units.items()}, s.attack)

    def state_to_json(self, s: HexesState) -> dict[str, Any]:
        return {
            "turn": s.turn,
            "side": SIDES[s.side],
            "units": {uid: {"hex": u.hex, "steps": u.steps, "done": u.done} for uid, u in s.units.items()},
            "attack": list(s.attack) if s.attack else None,
        }

    def state_from_json(self, data: dict[str, Any]) -> HexesState:
        try:
            rows = {uid: data["units"][uid] for uid in UNITS}
            units = {uid: Unit(row["hex"], int(row["steps"]), bool(row["done"])) for uid, row in rows.items()}
            attack = tuple(data["attack"]) if data["attack"] else None
            state = HexesState(int(data["turn"]), SIDES.index(data["side"]), units, attack)
        except (KeyError, TypeError, ValueError):
            raise PositionError(
                "a hexes position is {'turn', 'side', 'units': {id: {hex, steps, done}}, 'attack'}"
            ) from None
        for uid, u in units.items():
            if (
                not 0 <= u.steps <= 2
                or (u.hex is None) != (u.steps == 0)
                or (u.hex is not None and u.hex not in GRID.by_label)
            ):
                raise PositionError(f"unit {uid}: a hex on the map with 1 or 2 steps, or none with 0")
        return state

    def turn_and_phase(self, s: HexesState) -> tuple[int, str]:
        return min(s.turn, TURNS), "over" if self.to_act(s) is None else f"{SIDES[s.side]} turn"

    def describe_action(self, s: HexesState, action: str) -> str:
        if action == "end":
            return f"End {SIDES[s.side]}'s turn"
        kind, unit, where = action.split(" ")
        origin, _, to = where.partition("->")
        if kind == "move":
            cost = self.reach(s, unit).get(to)
            return f"{unit} ({UNITS[unit][1]}) moves {origin} → {to}" + (f" ({cost:g} MP)" if cost is not None else "")
        defender = self.occupant(s).get(to, "?")
        return f"{unit} attacks {defender} in {to}" + (
            f" ({hit_chance(s, unit, defender):.0%} to hit)" if defender in UNITS else ""
        )


def heuristic_policy(rs: Hexes, s: HexesState) -> tuple[str, str]:
    """Attack at the best odds; else move the unit that gets nearest the town; else end the turn."""
    legal = rs.legal_actions(s)
    attacks = [a for a in legal if a.startswith("attack")]
    if attacks:
        best = max(attacks, key=lambda a: hit_chance(s, a.split(" ")[1], rs.occupant(s)[a.split("->")[1]]))
        return best, "the attack most likely to hit"
    town = GRID.at(TOWN)
    moves = [a for a in legal if a.startswith("move")]
    closer = [
        a
        for a in moves
        if GRID.distance(GRID.at(a.split("->")[1]), town) < GRID.distance(GRID.at(a.split(" ")[2][:4]), town)
    ]
    if closer:
        return min(closer, key=lambda a: GRID.distance(GRID.at(a.split("->")[1]), town)), "closer to the town"
    return "end", "nothing better to do"
