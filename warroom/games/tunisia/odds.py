"""Exact odds for Tunisia: one d12 test (11.5, 12.2) and every battle's joint outcome with air combat folded in.

A test succeeds on a final roll (die + modifier) at or under the combat factor, always on a natural 1 and
never on a natural 12 (11.5C, 12.2C). A battle is two independent tests (12.3): the attack, with the terrain
modifier and the attacker's supports, and the defence, with only the defender's supports (12.1A); when both
sides fly an air asset, an air combat first decides which of them adds its DRM (10.2C). Everything is
enumerated exactly over the dice (12 x 12 air faces, then 12 faces a test): fractions over 12^k.

The four outcomes of a battle (12.3, 14.1A): "defender" (the defender takes a loss and retreats), "attacker"
(the attacker takes a loss), "both" (both take a loss, nobody retreats), "neither". Lone support assets (12.4)
do not roll: a failed attack still makes them retreat, which is "neither" here (no loss).

`TunisiaOdds` is the spec's odds capability: the calculator (`{"cmd":"odds","game":"tunisia","cf":C,
"modifier":M}`), the survey of every attack legal now (`{"cmd":"odds"}`), each attack's and each defensive air
choice's odds, and the battle being fought.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from warroom.engine.errors import BadRequestError
from warroom.engine.fields import reject_unknown
from warroom.engine.spec import OddsField

from .actions import AIR, ATTACK, NO_AIR, Action
from .air import air_in_range, drm_of
from .catalog import SIDE_NAMES, Catalog
from .combat import combat_factor, succeeds, support_drm
from .position import hidden_from
from .stacking import occupants, unit_at
from .state import Battle, Phase, TunisiaState

if TYPE_CHECKING:
    from .rules import TunisiaRules

FACES = range(1, 13)
OUTCOMES = ("defender", "attacker", "both", "neither")
OUTCOME_WORDS = {
    "defender": "defender loses a step and retreats",
    "attacker": "attacker loses a step",
    "both": "both lose a step",
    "neither": "no loss",
}


@lru_cache(maxsize=1024)
def success(cf: int, modifier: int) -> Fraction:
    """One d12 test: the chance that it succeeds (11.5, 12.2), exactly."""
    return Fraction(sum(1 for roll in FACES if succeeds(roll, modifier, cf)), 12)


def air_combat_odds(attacker_drm: int, defender_drm: int, attacker_roll: int = 0) -> dict[str, Fraction]:
    """10.2: who survives the air combat: "attacker" (only the attacker's asset flies on), "defender", "none"
    (both lose). A known attacker's roll (the first die already thrown) fixes that die."""
    return dict(_air_combat(attacker_drm, defender_drm, attacker_roll))


@lru_cache(maxsize=1024)
def _air_combat(attacker_drm: int, defender_drm: int, attacker_roll: int) -> tuple[tuple[str, Fraction], ...]:
    counts = {"attacker": 0, "defender": 0, "none": 0}
    rolls = (attacker_roll,) if attacker_roll else FACES
    for ra in rolls:
        for rd in FACES:
            a, d = ra + attacker_drm, rd + defender_drm
            if a == d or (a <= 0 and d <= 0):
                counts["none"] += 1
            elif a < d:
                counts["attacker"] += 1
            else:
                counts["defender"] += 1
    total = 12 * len(rolls)
    return tuple((key, Fraction(n, total)) for key, n in counts.items())


def joint(p_attack: Fraction, p_defence: Fraction | None) -> dict[str, Fraction]:
    """12.3: the two tests are independent; `p_defence` None: lone support assets do not defend (12.4A)."""
    pd = p_defence if p_defence is not None else Fraction(0)
    return {
        "defender": p_attack * (1 - pd),
        "attacker": (1 - p_attack) * pd,
        "both": p_attack * pd,
        "neither": (1 - p_attack) * (1 - pd),
    }


def battle_outcome(
    rules: TunisiaRules, s: TunisiaState, attacker: int, origin: int, target: int, attacker_air: int, defender_air: int
) -> dict[str, Any]:
    """The exact joint outcome of one battle in position `s`: the attacking unit in `origin`, the defender's
    hex `target`, the air asset each side flies (-1: none). Where the battle has begun, the dice already
    thrown (`s.battle`) are kept: an air combat fought, an attack roll made."""
    cat = rules.cat
    b = _battle(rules, s, attacker, origin, target, attacker_air, defender_air)
    outcome, p_attack_total, p_defence_total = _ground_combat(b.cases, b.cf_a, b.cf_d, b.thrown)
    out: dict[str, Any] = {
        "attacker_unit": cat.ids[attacker],
        "from": rules.labels[origin],
        "to": rules.labels[target],
        "defender_unit": _id_of(cat, b.defender),
        "attacker_cf": b.cf_a,
        "defender_cf": b.cf_d,
        "terrain": b.terrain,
        "attacker_modifier": b.ground_a + _air_drm(cat, s, attacker_air),
        "defender_modifier": b.ground_d + _air_drm(cat, s, defender_air),
        "attacker_air": _id_of(cat, attacker_air),
        "defender_air": _id_of(cat, defender_air),
        "attack_succeeds": float(p_attack_total),
        "defence_succeeds": float(p_defence_total),
        "outcome": dict(_ground_chances(b.cases, b.cf_a, b.cf_d, b.thrown)),  # a copy: the cached one is shared
        "exact": {key: str(p) for key, p in zip(OUTCOMES, outcome, strict=True)},
    }
    if b.air:
        out["air_combat"] = {key: float(p) for key, p in b.air.items()}
    return out


class _Battle(NamedTuple):
    """One battle's numbers before its dice: the defending unit, the terrain, each side's ground modifier and
    combat factor, the air combat's odds (empty where none is fought) and the cases of 10.2C that reach the ground
    combat, and the attack's die where already thrown."""

    defender: int
    terrain: int
    ground_a: int
    ground_d: int
    cf_a: int
    cf_d: int | None
    air: dict[str, Fraction]
    cases: tuple[tuple[Fraction, int, int], ...]
    thrown: int


def _battle(
    rules: TunisiaRules, s: TunisiaState, attacker: int, origin: int, target: int, attacker_air: int, defender_air: int
) -> _Battle:
    cat = rules.cat
    side = cat.side[attacker]
    fight = _fight_of(s, attacker, target)
    defender = fight.defender if fight is not None else unit_at(cat, occupants(s).get(target, []))
    terrain = cat.board.combat_modifier(origin, target)
    ground_a = terrain + support_drm(cat, s, origin, side, -1)
    ground_d = support_drm(cat, s, target, 1 - side, -1)
    cf_a = combat_factor(cat, s, attacker)
    cf_d = combat_factor(cat, s, defender) if defender >= 0 else None
    air, air_cases = _air_reaching(cat, s, fight, attacker_air, defender_air)
    cases = tuple(
        (weight, ground_a + _air_drm(cat, s, a_air), ground_d + _air_drm(cat, s, d_air))
        for weight, a_air, d_air in air_cases
        if weight != 0
    )
    return _Battle(defender, terrain, ground_a, ground_d, cf_a, cf_d, air, cases, _attack_thrown(s, fight))


def outcome_chances(
    rules: TunisiaRules, s: TunisiaState, attacker: int, origin: int, target: int, attacker_air: int, defender_air: int
) -> dict[str, float]:
    """`battle_outcome`'s "outcome" alone (each outcome's chance, as floats): what a computer player weighs, many
    times a playout, without the labels, the exact fractions and the modifiers in words."""
    b = _battle(rules, s, attacker, origin, target, attacker_air, defender_air)
    return _ground_chances(b.cases, b.cf_a, b.cf_d, b.thrown)


@lru_cache(maxsize=1 << 16)
def _ground_chances(
    cases: tuple[tuple[Fraction, int, int], ...], cf_a: int, cf_d: int | None, thrown: int
) -> dict[str, float]:
    """`_ground_combat`'s outcomes as floats, kept like it (callers only read the dict)."""
    outcome = _ground_combat(cases, cf_a, cf_d, thrown)[0]
    return {key: float(p) for key, p in zip(OUTCOMES, outcome, strict=True)}


def _fight_of(s: TunisiaState, attacker: int, target: int) -> Battle | None:
    """The battle being fought, where it is this one (`attacker` against `target`): its dice so far count."""
    b = s.battle
    return b if b is not None and b.attacker == attacker and b.target == target else None


def _air_reaching(
    cat: Catalog, s: TunisiaState, fight: Battle | None, attacker_air: int, defender_air: int
) -> tuple[dict[str, Fraction], list[tuple[Fraction, int, int]]]:
    """10.2C: which air assets reach the ground combat, with their chances ((chance, attacker's asset,
    defender's asset), -1: none), and the air combat's odds where both sides fly and it is still to be fought
    (its first die kept where already thrown); else no air combat and the one case."""
    fought = fight is not None and s.phase in (Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL)
    if attacker_air < 0 or defender_air < 0 or fought:
        return {}, [(Fraction(1), attacker_air, defender_air)]
    known = fight.attacker_air_roll if fight is not None and s.phase == Phase.AIR_ROLL_DEFENDER else 0
    air = air_combat_odds(drm_of(cat, s, attacker_air), drm_of(cat, s, defender_air), known)
    return air, [(air["attacker"], attacker_air, -1), (air["defender"], -1, defender_air), (air["none"], -1, -1)]


def _attack_thrown(s: TunisiaState, fight: Battle | None) -> int:
    """The attack's die where this battle's is already thrown (the Defense Roll step): 1 hit, 0 missed; -1 not
    yet."""
    if fight is None or s.phase != Phase.DEFENSE_ROLL:
        return -1
    return 1 if fight.attack_hits else 0


def _air_drm(cat: Catalog, s: TunisiaState, asset: int) -> int:
    """An air asset's DRM (10.1), 0 for none (-1)."""
    return drm_of(cat, s, asset) if asset >= 0 else 0


def _id_of(cat: Catalog, piece: int) -> str | None:
    return cat.ids[piece] if piece >= 0 else None


@lru_cache(maxsize=1 << 16)
def _ground_combat(
    cases: tuple[tuple[Fraction, int, int], ...], cf_a: int, cf_d: int | None, thrown: int
) -> tuple[tuple[Fraction, ...], Fraction, Fraction]:
    """The two tests of 12.3 over the air combat's cases ((chance, attacker's modifier, defender's modifier)):
    each outcome's chance in `OUTCOMES` order, and the attack's and the defence's chance of success, exactly.
    `cf_d` None: no unit defends (12.4A); `thrown` 1 or 0: the attack's die is already thrown and hit or
    missed, -1: not yet. A pure function of a few small numbers, so kept: the heuristic and search ask the
    same battles again and again."""
    totals = dict.fromkeys(OUTCOMES, Fraction(0))
    p_attack_total = Fraction(0)
    p_defence_total = Fraction(0)
    for weight, mod_a, mod_d in cases:
        p_a = Fraction(thrown) if thrown >= 0 else success(cf_a, mod_a)
        p_d = success(cf_d, mod_d) if cf_d is not None else None
        p_attack_total += weight * p_a
        p_defence_total += weight * (p_d or 0)
        for key, p in joint(p_a, p_d).items():
            totals[key] += weight * p
    return tuple(totals[key] for key in OUTCOMES), p_attack_total, p_defence_total


def _worst_for_attacker(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The defender's best air choice: the one that leaves the attacker the least (his success less his loss)."""

    def edge(e: dict[str, Any]) -> float:
        o = e["outcome"]
        return float(o["defender"] + o["both"] - o["attacker"] - o["both"])

    return min(entries, key=edge)


def attack_survey(rules: TunisiaRules, s: TunisiaState, action: str, viewer: int | None = None) -> dict[str, Any]:
    """One legal attack: the outcome against each defensive air choice the defender will have (7.3C), and as
    headline the choice worst for the attacker (the defender decides after seeing the attack), with its label
    and each case in words. For a `viewer` (a side), only the air assets it may see (6.0E: not those beneath an
    unexamined stack)."""
    choices = attack_choices(rules, s, action, viewer)
    target = rules.hex(Action.from_id(action).target)
    return {
        "action": action,
        "label": rules.describe_action(s, action),
        **_worst_for_attacker(choices),
        "defence_choices": [{"defender_air": c["defender_air"], "outcome": c["outcome"]} for c in choices],
        **defence_cases(choices, SIDE_NAMES[1 - s.player], rules.labels[target], air_names(rules, choices)),
    }


def attack_outcome(rules: TunisiaRules, s: TunisiaState, action: str) -> dict[str, Any]:
    """The attack's outcome against the defensive air choice worst for the attacker (the whole `battle_outcome`)."""
    return _worst_for_attacker(attack_choices(rules, s, action))


def attack_worst_case(rules: TunisiaRules, s: TunisiaState, action: str) -> tuple[int, dict[str, float]]:
    """(the attacked hex, each outcome's chance against the defensive air choice worst for the attacker): what a
    computer player weighs for each legal attack, many times a playout. The same choice as `attack_outcome` (the
    first of the least edge, in the legal list's order), with nothing built in words."""
    cat = rules.cat
    act = Action.from_id(action)
    origin, target = rules.hex(act.origin), rules.hex(act.target)
    attacker = next(p for p in cat.by_side[s.player] if s.loc[p] == origin and cat.is_unit[p])
    a_air = rules.piece(act.air) if act.air else -1
    worst: dict[str, float] = {}
    least = math.inf
    for plane in [*air_in_range(cat, s, 1 - s.player, target, defending=True), -1]:
        o = outcome_chances(rules, s, attacker, origin, target, a_air, plane)
        edge = float(o["defender"] + o["both"] - o["attacker"] - o["both"])
        if edge < least:
            least, worst = edge, o
    return target, worst


def attack_choices(
    rules: TunisiaRules, s: TunisiaState, action: str, viewer: int | None = None
) -> list[dict[str, Any]]:
    """The battle against each defensive air choice (the no-air one last, the legal list's order)."""
    cat = rules.cat
    act = Action.from_id(action)
    origin, target = rules.hex(act.origin), rules.hex(act.target)
    attacker = next(p for p in cat.by_side[s.player] if s.loc[p] == origin and cat.is_unit[p])
    a_air = rules.piece(act.air) if act.air else -1
    # the attacker's asset leaves its field when the attack is declared (7.4D): it is not there to defend
    planes = _seen(rules, s, air_in_range(cat, s, 1 - s.player, target, defending=True), viewer)
    choices = [battle_outcome(rules, s, attacker, origin, target, a_air, p) for p in planes]
    choices.append(battle_outcome(rules, s, attacker, origin, target, a_air, -1))  # the legal list's order
    return choices


def _attack_succeeds(entry: Mapping[str, Any]) -> Fraction:
    """The attack's test succeeds (11.5): the defender loses a step, alone or with the attacker (12.3)."""
    return Fraction(entry["exact"]["defender"]) + Fraction(entry["exact"]["both"])


def air_names(rules: TunisiaRules, choices: list[dict[str, Any]]) -> dict[str, str]:
    """The name players read of each defending air asset among `choices` ("XII Air Support Command" for
    XII-ASC): the odds say what they assume in the words of the counters' names, as the labels do."""
    cat = rules.cat
    return {c["defender_air"]: cat.name[cat.index[c["defender_air"]]] for c in choices if c["defender_air"]}


def defence_cases(
    choices: list[dict[str, Any]], defender: str, target: str, names: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The attack's chance against each defensive air choice the defender will still have (7.3C-E: he decides
    after the attack is declared), from the battles `battle_outcome` gave for them (the no-air one last; it
    comes first among the cases): "cases" (each with what it assumes, its chance exactly and its attacker's
    loss), "low" and "high" (the range the defender's choice leaves), "assumes" (in words: the choices open, or
    that none is). `names`: each asset's name as players read it (air_names), else its id."""

    def named(air: str) -> str:
        return (names or {}).get(air, air)

    cases = [
        {
            "if": f"if {named(c['defender_air'])} defends" if c["defender_air"] else "with no defending air",
            "defender_air": c["defender_air"],
            "attack_succeeds": float(_attack_succeeds(c)),
            "fraction": str(_attack_succeeds(c)),
            "attacker_loses": c["outcome"]["attacker"] + c["outcome"]["both"],
        }
        for c in [choices[-1], *choices[:-1]]
    ]
    chances = [Fraction(c["fraction"]) for c in cases]
    if len(cases) == 1:
        assumes = f"no {defender} air can fly to the defence of {target} (7.3C)"
    else:
        flyers = ", ".join(named(str(c["defender_air"])) for c in cases[1:])
        assumes = (
            f"the {defender} may still fly {flyers} to the defence (7.3C-E), so each case is shown; the air combat "
            "(10.2) is folded into each"
        )
    return {"cases": cases, "low": float(min(chances)), "high": float(max(chances)), "assumes": assumes}


def range_text(entry: Mapping[str, Any]) -> str:
    """ "attack succeeds 49.2-58.3% (58.3% with no defending air; 49.2% if Fliegerkorps flies to the defence)",
    or the one number and why it is one where the defender's choice cannot change it (7.3C, 12.1B: defending
    air only helps the defence roll); the attacker's loss the same way where the choice changes it."""
    cases = entry["cases"]
    if len(cases) == 1:
        return f"attack succeeds {cases[0]['attack_succeeds']:.1%} ({entry['assumes']})"
    out = [_spread("attack succeeds", [(c["attack_succeeds"], c["if"]) for c in cases], "whatever air flies")]
    losses = [(c["attacker_loses"], c["if"]) for c in cases]
    if max(v for v, _ in losses) - min(v for v, _ in losses) > 1e-12:
        out.append(_spread("the attacker loses a step", losses, ""))
    return "; ".join(out)


def _spread(what: str, values: list[tuple[float, str]], same: str) -> str:
    """One chance over the defender's choices: its range and each case, or one number where they agree."""
    low, high = min(v for v, _ in values), max(v for v, _ in values)
    if high - low <= 1e-12:
        return f"{what} {low:.1%} ({same} to the defence)" if same else f"{what} {low:.1%}"
    each = "; ".join(f"{v:.1%} {words}" for v, words in values)
    return f"{what} {low * 100:.1f}-{high:.1%} ({each})"


def _seen(rules: TunisiaRules, s: TunisiaState, pieces: list[int], viewer: int | None) -> list[int]:
    """`pieces` less those `viewer` may not see (6.0E); all of them for no viewer."""
    if viewer is None:
        return pieces
    unseen = set(hidden_from(rules, s, viewer))
    return [p for p in pieces if p not in unseen]


def current_battle(rules: TunisiaRules, s: TunisiaState, viewer: int | None = None) -> dict[str, Any] | None:
    """The battle being fought, from its dice so far (None outside a battle's air and rolls); for a `viewer`,
    the defender's air choices it may see (6.0E)."""
    b = s.battle
    if b is None or s.phase not in (
        Phase.DEFENSIVE_AIR,
        Phase.AIR_ROLL_ATTACKER,
        Phase.AIR_ROLL_DEFENDER,
        Phase.ATTACK_ROLL,
        Phase.DEFENSE_ROLL,
    ):
        return None
    if s.phase == Phase.DEFENSIVE_AIR:
        choices = [
            battle_outcome(rules, s, b.attacker, b.origin, b.target, b.attacker_air, p)
            for p in _seen(rules, s, air_in_range(rules.cat, s, 1 - s.player, b.target, defending=True), viewer)
        ]
        choices.append(battle_outcome(rules, s, b.attacker, b.origin, b.target, b.attacker_air, -1))
        head = _worst_for_attacker(choices)
        return {
            **head,
            "defence_choices": [{"defender_air": c["defender_air"], "outcome": c["outcome"]} for c in choices],
            **defence_cases(choices, SIDE_NAMES[1 - s.player], rules.labels[b.target], air_names(rules, choices)),
        }
    return battle_outcome(rules, s, b.attacker, b.origin, b.target, b.attacker_air, b.defender_air)


def outcome_text(entry: Mapping[str, Any]) -> str:
    o = entry["outcome"]
    return " · ".join(f"{OUTCOME_WORDS[k]} {o[k]:.1%}" for k in OUTCOMES if o[k] > 0)


def _air_cases(cf: int, modifier: int, air: int | None, enemy: int | None) -> dict[str, Any]:
    """The calculator's attack with air: the attack succeeds with its air asset's DRM added where the asset flies
    unopposed, and over the air combat (10.2) where an enemy asset (DRM `enemy`) flies to the defence and may
    knock it out (7.3C-F); defending air with no attacking air only helps the defence roll (12.1B), so the
    attack's chance is one number then. "cases", "low", "high", "assumes", "range"; "success" and "fraction"
    become the lower end (the defender chooses after the attacker, 7.3E)."""
    alone = success(cf, modifier + (air or 0))
    cases = [("with no defending air", alone)]
    if air is not None and enemy is not None:
        survives = air_combat_odds(air, enemy)["attacker"]
        opposed = survives * success(cf, modifier + air) + (1 - survives) * success(cf, modifier)
        cases.append((f"if an enemy air asset ({enemy:+d}) defends (its air combat folded in, 10.2)", opposed))
    low, high = min(p for _, p in cases), max(p for _, p in cases)
    if enemy is None:
        assumes = "no enemy air asset can fly to the defence (7.3C)"
    elif air is None:
        assumes = "defending air adds its DRM to the defence roll only (12.1B): the attack's chance is the same"
    else:
        assumes = "the defender decides after the attack is declared whether his air asset flies (7.3E)"
    if high == low:
        words = f"attack succeeds {low} ({float(low):.1%}; {assumes})"
    else:
        each = "; ".join(f"{p} ({float(p):.1%}) {w}" for w, p in cases)
        words = f"attack succeeds {float(low) * 100:.1f}-{float(high):.1%}: {each}"
    return {
        "success": float(low),
        "fraction": str(low),
        "cases": [{"if": w, "p": float(p), "fraction": str(p)} for w, p in cases],
        "low": float(low),
        "high": float(high),
        "assumes": assumes,
        "range": words,
        "text": words,
    }


class TunisiaOdds:
    """Tunisia's odds for every front end (engine.spec.OddsCapability)."""

    fields: tuple[OddsField, ...] = (
        OddsField("cf", "integer", "the rolling unit's combat factor (its current side)", required=True),
        OddsField("modifier", "integer", "the total modifier added to the d12 (terrain, support DRMs; negative helps)"),
        OddsField("air", "integer", "the DRM of the air asset the attacker commits (7.3A), e.g. -2; none if left out"),
        OddsField(
            "defending_air",
            "integer",
            "the DRM of an enemy air asset that may fly to the defence (7.3C), e.g. -2: each case is given",
        ),
    )
    answer = '{"ok":true,"success","fraction","needed","text"}'
    position_answer = (
        '{"ok":true,"attacks":[{"action","outcome":{"defender","attacker","both","neither"},'
        '"defence_choices",...}],"battle"}'
    )

    def calculate(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """{"cf": C, "modifier": M} -> the chance one d12 test succeeds (11.5, 12.2)."""
        reject_unknown(request, [f.name for f in self.fields], "tunisia odds")
        cf, modifier = request.get("cf"), request.get("modifier", 0)
        air, enemy = request.get("air"), request.get("defending_air")
        for name, value in (("cf", cf), ("modifier", modifier), ("air", air), ("defending_air", enemy)):
            if (value is not None or name == "cf") and (isinstance(value, bool) or not isinstance(value, int)):
                raise BadRequestError(f'"{name}" must be a whole number, not {value!r}')
        assert isinstance(cf, int) and isinstance(modifier, int)
        p = success(cf, modifier)
        needed = cf - modifier
        out: dict[str, Any] = {
            "cf": cf,
            "modifier": modifier,
            "success": float(p),
            "fraction": str(p),
            "needed": needed,
            "text": f"CF {cf}, modifier {modifier:+d}: success {p} ({float(p):.1%}): a natural 1 always, "
            f"a natural 12 never, else a die of {max(1, min(needed, 11))} or less (11.5)",
        }
        if air is None and enemy is None:
            return out
        return {**out, **_air_cases(cf, modifier, air, enemy)}

    def parse_cli(self, values: Mapping[str, str]) -> dict[str, Any] | list[dict[str, Any]]:
        def number(name: str, text: str) -> int:
            try:
                return int(text)
            except ValueError:
                raise BadRequestError(f"--{name} is a whole number, e.g. 4 or -2, not {text!r}") from None

        if values.get("cf") is None:
            raise BadRequestError("--cf is required: the rolling unit's combat factor, e.g. --cf 5")
        cf = number("cf", values["cf"])
        flying = {
            k: number(k.replace("_", "-"), values[k]) for k in ("air", "defending_air") if values.get(k) is not None
        }
        if values.get("modifier") is None:  # a survey: every modifier from -5 to +5
            return [{"cf": cf, "modifier": m, **flying} for m in range(-5, 6)]
        return {"cf": cf, "modifier": number("modifier", values["modifier"]), **flying}

    def describe(self, answer: Mapping[str, Any]) -> list[str]:
        if "survey" in answer:
            rows = answer["survey"]
            return [f"Tunisia: one d12 test, CF {rows[0]['cf']}, by modifier"] + [
                f"  modifier {r['modifier']:+d}: "
                + (r["range"] if "range" in r else f"{r['fraction']} ({r['success']:.1%})")
                for r in rows
            ]
        if "range" in answer:
            head = ["Tunisia: an attack's d12 with air (7.3, 10.2, 11.5)", str(answer["range"])]
            return head + ([str(answer["assumes"])] if answer["low"] != answer["high"] else [])
        return ["Tunisia: one d12 test (11.5, 12.2)", str(answer["text"])]

    def position(self, ruleset: Any, state: Any) -> dict[str, Any]:
        attacks = []
        if state.phase in (Phase.ATTACK, Phase.BREAKTHROUGH):
            attacks = [  # the attacker asks: only the defending air it may see (6.0E)
                attack_survey(ruleset, state, a, viewer=state.player)
                for a in ruleset.legal_actions(state)
                if a.startswith("attack ")
            ]
        acting = ruleset.to_act(state)  # the battle as the side that asks sees it: no air it may not (6.0E)
        viewer = SIDE_NAMES.index(acting) if acting in SIDE_NAMES else None
        return {"attacks": attacks, "battle": current_battle(ruleset, state, viewer)}

    def action_odds(self, ruleset: Any, state: Any, action: str) -> dict[str, Any] | None:
        if action.startswith(ATTACK + " ") and state.phase in (Phase.ATTACK, Phase.BREAKTHROUGH):
            entry = attack_survey(ruleset, state, action, viewer=state.player)  # the attacker asks
        elif state.phase == Phase.DEFENSIVE_AIR and (action == NO_AIR or action.startswith(AIR + " ")):
            b = state.battle
            asset = -1 if action == NO_AIR else ruleset.piece(Action.from_id(action).piece)
            entry = battle_outcome(ruleset, state, b.attacker, b.origin, b.target, b.attacker_air, asset)
        else:
            return None
        o = entry["outcome"]
        p = _attack_succeeds(entry)
        if "cases" not in entry:  # the defender's own air choice: only dice are left to decide (10.2, 12.3)
            return {
                "p": float(p),
                "fraction": str(p),
                "low": float(p),
                "high": float(p),
                "cases": [],
                "assumes": "the attack and both sides' air are committed: only the dice are left",
                "text": f"attack succeeds {float(p):.1%}; {outcome_text(entry)}",
                "outcome": o,
            }
        worst = "; "
        outcomes = {tuple(c["outcome"].values()) for c in entry["defence_choices"]}
        if len(outcomes) > 1:  # the headline outcome: the defence worst for the attacker (7.3E)
            words = next(c["if"] for c in entry["cases"] if c["defender_air"] == entry["defender_air"])
            worst = f"; at worst for you ({words}): "
        return {
            "p": float(p),
            "fraction": str(p),
            "low": entry["low"],
            "high": entry["high"],
            "cases": [{"if": c["if"], "p": c["attack_succeeds"], "fraction": c["fraction"]} for c in entry["cases"]],
            "assumes": entry["assumes"],
            "text": f"{range_text(entry)}{worst}{outcome_text(entry)}",
            "outcome": o,
        }

    def battle_odds(self, ruleset: Any, state: Any, side: str | None) -> list[dict[str, Any]]:
        entry = current_battle(ruleset, state, SIDE_NAMES.index(side) if side in SIDE_NAMES else None)
        if entry is None:
            return []
        b = state.battle
        text = f"{range_text(entry)}; {outcome_text(entry)}" if len(entry.get("cases", ())) > 1 else outcome_text(entry)
        return [{**entry, "attacker_side": SIDE_NAMES[ruleset.cat.side[b.attacker]], "text": text}]


__all__ = [
    "TunisiaOdds",
    "air_combat_odds",
    "air_names",
    "attack_choices",
    "attack_outcome",
    "attack_survey",
    "battle_outcome",
    "defence_cases",
    "joint",
    "range_text",
    "success",
]
