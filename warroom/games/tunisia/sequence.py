"""7.0 Turn Sequence, declared: each game turn is an Axis then an Allied player-turn of eight phases.

`SEQUENCE_OF_PLAY` names the rulebook's phases in order with the steps (`Phase`) that carry each out;
the Air Support, Combat and Advance After Combat phases run one battle at a time (7.2B "one attack at a
time", 7.3E, 7.5B "before starting the next"), so their steps interleave inside the Attack Phase.
`ACTOR` says who acts at each step: the phasing side, the other side (the defender's decisions are his,
mid-turn), the dice, or the Allies (16.0). rules.py attaches each step's handlers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import Phase

PHASING, OTHER, DICE, ALLIES, NOBODY = "phasing", "other", "dice", "allies", "nobody"


@dataclass(frozen=True, slots=True)
class RulebookPhase:
    """One of the eight phases of a player-turn (7.1-7.8): its number, name, rule and steps."""

    number: int
    name: str
    rule: str
    steps: tuple[Phase, ...]


SEQUENCE_OF_PLAY: tuple[RulebookPhase, ...] = (
    RulebookPhase(1, "Movement Phase", "7.1", (Phase.MOVEMENT,)),
    RulebookPhase(2, "Attack Phase", "7.2", (Phase.ATTACK, Phase.BREAKTHROUGH)),
    RulebookPhase(
        3, "Air Support Phase", "7.3", (Phase.DEFENSIVE_AIR, Phase.AIR_ROLL_ATTACKER, Phase.AIR_ROLL_DEFENDER)
    ),
    RulebookPhase(
        4,
        "Combat Phase",
        "7.4",
        (Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL, Phase.DEFENDER_LOSS, Phase.ATTACKER_LOSS, Phase.RETREAT),
    ),
    RulebookPhase(5, "Advance After Combat Phase", "7.5", (Phase.ADVANCE,)),
    RulebookPhase(6, "Return to Base Phase", "7.6", (Phase.RETURN_ATTACKER, Phase.RETURN_DEFENDER)),
    RulebookPhase(7, "Replacement Phase", "7.7", (Phase.REPLACEMENT_ROLL, Phase.REPLACEMENT)),
    RulebookPhase(8, "Supply Phase", "7.8", ()),  # carried out at once: no decision, no die (supply.py)
)
"""The player-turn as 7.0 lists it; the end of the turn follows the Allied one (END_OF_TURN)."""

BEFORE_THE_GAME: tuple[tuple[str, str, tuple[Phase, ...]], ...] = (("Setup", "5.0", (Phase.SETUP,)),)
"""5.0: a side that does not take the default setup places its pieces, the Allies first (5.2A)."""

END_OF_TURN: tuple[tuple[str, str, tuple[Phase, ...]], ...] = (
    ("Patton in Command", "16.0", (Phase.PATTON_ROLL, Phase.PLACEMENT)),
    ("Rommel Recalled", "17.0", (Phase.ROMMEL_ROLL,)),
)

ACTOR: dict[Phase, str] = {
    Phase.MOVEMENT: PHASING,
    Phase.ATTACK: PHASING,
    Phase.DEFENSIVE_AIR: OTHER,
    Phase.AIR_ROLL_ATTACKER: DICE,
    Phase.AIR_ROLL_DEFENDER: DICE,
    Phase.ATTACK_ROLL: DICE,
    Phase.DEFENSE_ROLL: DICE,
    Phase.DEFENDER_LOSS: OTHER,
    Phase.ATTACKER_LOSS: PHASING,
    Phase.RETREAT: OTHER,
    Phase.ADVANCE: PHASING,
    Phase.BREAKTHROUGH: PHASING,
    Phase.RETURN_ATTACKER: PHASING,
    Phase.RETURN_DEFENDER: OTHER,
    Phase.REPLACEMENT_ROLL: DICE,
    Phase.REPLACEMENT: PHASING,
    Phase.PATTON_ROLL: DICE,
    Phase.PLACEMENT: ALLIES,
    Phase.ROMMEL_ROLL: DICE,
    Phase.SETUP: PHASING,
    Phase.OVER: NOBODY,
}
"""Who acts at each step."""

PHASE_NAMES: dict[Phase, str] = {
    Phase.MOVEMENT: "Movement Phase",
    Phase.ATTACK: "Attack Phase",
    Phase.DEFENSIVE_AIR: "Air Support Phase",
    Phase.AIR_ROLL_ATTACKER: "Air Support Phase: air combat",
    Phase.AIR_ROLL_DEFENDER: "Air Support Phase: air combat",
    Phase.ATTACK_ROLL: "Combat Phase: attack",
    Phase.DEFENSE_ROLL: "Combat Phase: defence",
    Phase.DEFENDER_LOSS: "Combat Phase: defender's loss",
    Phase.ATTACKER_LOSS: "Combat Phase: attacker's loss",
    Phase.RETREAT: "Combat Phase: retreat",
    Phase.ADVANCE: "Advance After Combat Phase",
    Phase.BREAKTHROUGH: "Attack Phase: breakthrough",
    Phase.RETURN_ATTACKER: "Return to Base Phase",
    Phase.RETURN_DEFENDER: "Return to Base Phase",
    Phase.REPLACEMENT_ROLL: "Replacement Phase: port roll",
    Phase.REPLACEMENT: "Replacement Phase",
    Phase.PATTON_ROLL: "End of turn: Patton's arrival",
    Phase.PLACEMENT: "End of turn: Patton arrives",
    Phase.ROMMEL_ROLL: "End of turn: Rommel's recall",
    Phase.SETUP: "Setup",
    Phase.OVER: "Game over",
}

RULE_OF: dict[Phase, str] = {
    Phase.MOVEMENT: "7.1",
    Phase.ATTACK: "7.2",
    Phase.DEFENSIVE_AIR: "7.3",
    Phase.AIR_ROLL_ATTACKER: "10.2",
    Phase.AIR_ROLL_DEFENDER: "10.2",
    Phase.ATTACK_ROLL: "11.2",
    Phase.DEFENSE_ROLL: "12.1",
    Phase.DEFENDER_LOSS: "13.1C",
    Phase.ATTACKER_LOSS: "13.1C",
    Phase.RETREAT: "14.1",
    Phase.ADVANCE: "7.5",
    Phase.BREAKTHROUGH: "15.0",
    Phase.RETURN_ATTACKER: "7.6",
    Phase.RETURN_DEFENDER: "7.6C",
    Phase.REPLACEMENT_ROLL: "7.7C",
    Phase.REPLACEMENT: "7.7",
    Phase.PATTON_ROLL: "16.0A",
    Phase.PLACEMENT: "16.0",
    Phase.ROMMEL_ROLL: "17.0",
    Phase.SETUP: "5.0",
    Phase.OVER: "4.0",
}

if set(ACTOR) != set(Phase) or set(PHASE_NAMES) != set(Phase) or set(RULE_OF) != set(Phase):
    raise RuntimeError("every Phase needs an actor, a name and a rule")
_declared = [p for phase in SEQUENCE_OF_PLAY for p in phase.steps]
_declared += [p for _, _, steps in (*BEFORE_THE_GAME, *END_OF_TURN) for p in steps]
if sorted(_declared) != [p for p in Phase if p != Phase.OVER]:
    raise RuntimeError("SEQUENCE_OF_PLAY and END_OF_TURN must place every step once")
