"""Tunisia 11.1A with 15.0: a support asset attacks once a friendly Combat Phase; a breakthrough's own
assets (those stacked with the breaking unit, 15.0C) attack a second time with it, and no more (15.0E).

A rules review (6 December) found an asset that had supported one attack, left alone when its unit was
eliminated, adding its DRM again to another unit's breakthrough attack from its hex."""

from __future__ import annotations

from tunisia_positions import CAT, R, at, battle

from warroom.games.tunisia.catalog import AXIS
from warroom.games.tunisia.combat import attack_modifier, supporting_assets
from warroom.games.tunisia.state import Phase

PIECES = {
    "Young-Fascists": "8022",
    "Axis-Arty": "8022",
    "78th": "8122",
    "10th-Pz": "7923",
    "Rommel": "7923",
    "1st-Gds": "7924",
}


def _orphaned_then_broken_through():  # type: ignore[no-untyped-def]
    """Axis-Arty supports the Young Fascists' attack from 8022, which dies; 10th Pz, with Rommel, breaks
    through from 7923 into 8022 beside the orphaned Axis-Arty."""
    s = battle(**PIECES)
    R.apply(s, "attack 8022 8122")
    R.apply_chance(s, 12)  # the attack fails (natural 12: 11.5)
    R.apply_chance(s, 1)  # the defence succeeds (natural 1)
    R.apply(s, "loss Young-Fascists")
    assert s.attacked[CAT.index["Axis-Arty"]]  # 11.1A: it has attacked this phase
    R.apply(s, "attack 7923 7924")
    R.apply_chance(s, 1)
    R.apply_chance(s, 12)
    R.apply(s, "no advance")
    assert s.phase == Phase.BREAKTHROUGH
    return s


def test_an_asset_that_attacked_adds_nothing_to_a_breakthrough_it_is_not_part_of() -> None:
    # Tunisia 11.1A ("no unit or support asset may attack more than once per friendly Combat Phase"), 15.0C
    s = _orphaned_then_broken_through()
    R.apply(s, "move 10th-Pz 7923 8022")
    here = [CAT.ids[p] for p in supporting_assets(CAT, s, at("8022"), AXIS)]
    assert here == ["Rommel"]  # Axis-Arty stands there but has attacked
    assert attack_modifier(CAT, s, at("8022"), at("8122"), AXIS, -1) == CAT.drm[CAT.index["Rommel"]] + (
        CAT.board.combat_modifier(at("8022"), at("8122"))
    )
    R.apply(s, "attack 8022 8122")
    text = " ".join(e["text"] for e in R.apply_chance(s, 9))
    assert "9-3 = 6" in text  # Rommel's -3 alone


def test_the_breakthroughs_own_general_attacks_a_second_time_and_then_no_more() -> None:
    # Tunisia 15.0A ("eligible to move again and attack again (but only a second time)"), 15.0C, 15.0E
    s = _orphaned_then_broken_through()
    rommel = CAT.index["Rommel"]
    assert not s.attacked[rommel]  # ready again for the breakthrough it conducts
    assert rommel in supporting_assets(CAT, s, at("7923"), AXIS)
    R.apply(s, "end")  # the breakthrough ends without a move or an attack
    assert s.attacked[rommel]  # 15.0E: no more attacks by its assets this phase
    assert s.phase == Phase.ATTACK
