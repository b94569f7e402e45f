"""The Saint-Lo test positions of saintlo_positions.py are sound."""

from __future__ import annotations

from saintlo_positions import bare, rules2, rules4


def test_a_bare_position_is_sound() -> None:
    # Saint-Lo 4.2: the Command Posts are placed, one a hex, each army on its colour
    from warroom.games.saintlo.invariants import problems

    for rules in (rules2(), rules4()):
        s = bare(rules)
        assert problems(rules, s) == []
        assert sorted(h for h in s.post_hex[:8]) == sorted(rules.t.post_hexes[0])
        assert sorted(h for h in s.post_hex[8:]) == sorted(rules.t.post_hexes[1])
