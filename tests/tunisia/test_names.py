"""Tunisia's log and the computer's reasons tell a piece by its name, as the counter sheet, the action labels and
the odds do ("21st Panzer Division", "XII Air Support Command"), never by the short id its actions and records
use ("21st-Pz", "XII-ASC"); the hexes stay where they help ("moves from 8212 to 8313")."""

from __future__ import annotations

import random
import re

from tunisia_positions import CAT, R, battle, blank

from warroom.engine.chance import sample
from warroom.engine.ruleset import CHANCE
from warroom.games.tunisia import ai
from warroom.games.tunisia.catalog import ALLIED, AXIS
from warroom.games.tunisia.state import Phase

BARE_IDS = re.compile(
    r"(?<![A-Za-z0-9*-])(?:"
    + "|".join(re.escape(pid) for pid in sorted(CAT.ids, key=len, reverse=True) if pid not in CAT.name[CAT.index[pid]])
    + r")(?![A-Za-z0-9*-])"
)
"""Every id its piece's name does not hold ("CCA", "XII-ASC", "BG-X1"; not "334th" nor "Broich"), as a whole word."""


def _play(seed: int, heuristic: tuple[str, ...], options: dict[str, str] | None = None) -> tuple[list[str], list[str]]:
    """One game to its end, with the log on: the heuristic for the sides in `heuristic`, uniform random choices
    for the others, seeded dice. Returns every event text and every reason the heuristic gave."""
    rng = random.Random(seed)
    s = R.initial_state(None, options)
    texts: list[str] = []
    reasons: list[str] = []
    while (who := R.to_act(s)) is not None:
        if who == CHANCE:
            events = R.apply_chance(s, sample(R.chance_outcomes(s), rng.random()))
        elif who in heuristic:
            action, why = ai.heuristic_policy(R, s)
            reasons.append(why)
            events = R.apply(s, action)
        else:
            events = R.apply(s, rng.choice(R.legal_actions(s)))
        texts.extend(str(e["text"]) for e in events)
    return texts, reasons


def test_no_event_or_reason_names_a_piece_by_a_bare_id() -> None:
    # every kind of event comes up over these games (free setups, air combat, losses, retreats, Patton, Rommel)
    assert BARE_IDS.search("Axis-Arty moves") and not BARE_IDS.search("334th Infantry Division moves")
    texts: list[str] = []
    reasons: list[str] = []
    for seed, heuristic, options in (
        (1, (), {"allied_setup": "free", "axis_setup": "free"}),
        (2, (), None),
        (3, ("Axis",), None),
        (4, ("Allied",), None),
        (5, ("Axis", "Allied"), None),
    ):
        t, r = _play(seed, heuristic, options)
        texts += t
        reasons += r
    kinds_named = {"moves from", " attacks ", "Air combat:", "is reduced", "is eliminated", "retreats from", "sets up"}
    assert all(any(k in t for t in texts) for k in kinds_named), [
        k for k in kinds_named if not any(k in t for t in texts)
    ]
    assert len(reasons) > 100
    for text in texts + reasons:
        assert not BARE_IDS.search(text), text


def test_a_move_names_the_unit_and_both_hexes() -> None:
    # Tunisia 8.1: the move event
    s = blank(AXIS, **{"334th": "8212"})
    events = R.apply(s, "move 334th 8212 8313")
    assert (
        events[0]["text"] == f"334th Infantry Division moves from 8212 to 8313 ({s.mp_spent[CAT.index['334th']]:g} MP)."
    )
    assert events[0]["type"] == "move" and events[0]["piece"] == "334th"  # the structured field keeps the id


def test_an_attack_names_both_units_by_their_names() -> None:
    # Tunisia 11.2: the attack declared
    s = battle(ALLIED, **{"7th-Armd": "8720", "21st-Pz": "8619"})
    events = R.apply(s, "attack 8720 8619")
    assert [e["text"] for e in events] == ["7th Armoured Division in 8720 attacks 21st Panzer Division in 8619."]


def test_an_air_combat_names_both_assets_and_the_loser() -> None:
    # Tunisia 7.3A, 7.3C, 10.2: XII Air Support Command flies with the attack, Fliegerkorps Tunis to the defence;
    # the lower modified roll wins and the loser is reduced (13.1A)
    s = battle(ALLIED, **{"78th": "7607", "XII-ASC": "7607", "334th": "7707", "Fliegerkorps": "8407"})
    attack = R.apply(s, "attack 7607 7707 +air XII-ASC")
    assert attack[0]["text"] == (
        "78th Infantry Division in 7607 attacks 334th Infantry Division in 7707 with XII Air Support Command."
    )
    assert s.phase == Phase.DEFENSIVE_AIR
    assert R.apply(s, "air Fliegerkorps")[0]["text"] == "Fliegerkorps Tunis flies to the defence of 7707."
    R.apply_chance(s, 3)
    events = R.apply_chance(s, 9)
    asc, fk = CAT.drm[CAT.index["XII-ASC"]], CAT.drm[CAT.index["Fliegerkorps"]]
    assert events[0]["type"] == "air_combat"
    assert events[0]["text"] == (
        f"Air combat: XII Air Support Command rolls 3{asc:+d} = {3 + asc}, "
        f"Fliegerkorps Tunis rolls 9{fk:+d} = {9 + fk}: Fliegerkorps Tunis loses."
    )
    assert events[1]["text"] == "Fliegerkorps Tunis is reduced (flipped)." and events[1]["piece"] == "Fliegerkorps"
