"""How a game writes its phases: one record per phase, so a game declares its table of phases once (the key its
saved positions use, the name its players read) and derives both spellings from it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


@dataclass(frozen=True, slots=True)
class PhaseInfo:
    """How a phase is written: `key` in saved positions (JSON), `name` for players."""

    phase: IntEnum
    key: str
    name: str


__all__ = ["PhaseInfo"]
