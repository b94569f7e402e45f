"""Exact odds for Dragoon's single-die attacks (rulebook: Resolving Unit Attacks, FFI)."""

from __future__ import annotations

from fractions import Fraction


def advance_fraction(drm: int, ffi: bool, advance_on: int = 3) -> Fraction:
    """P(modified d6 >= advance_on), with one FFI re-roll (same DRM) after a failure."""
    success = Fraction(sum(1 for face in range(1, 7) if face + drm >= advance_on), 6)
    if ffi:
        success = success + (1 - success) * success
    return success


def advance_probability(drm: int, ffi: bool, advance_on: int = 3) -> float:
    return float(advance_fraction(drm, ffi, advance_on))
