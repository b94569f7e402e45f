"""Panzer Saint-Lo's Battle Reports (2.5, 9): the two decks read from `data/cards.toml`, each card's
effect written in a small language the rules engine interprets (no Python function per card).

A card is `unique` (one selected unit: `target`), `general` (every unit of a `group`) or `supplies`
(no target); its `effects` are stat changes (`modify`), granted attributes (`grant`), forbidden actions
(`forbid`) and Supplies received (`supplies`), lasting to the end of the turn (9). The load checks that
each kind has the target it needs and the effects it may have, that both decks hold 24 cards, and that
they hold the same types and numbers (9: "Both decks comprise of the same type and number").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from warroom.engine.data import load_toml
from warroom.engine.errors import DataFileError

from .board import DATA_DIR, SIDES, UnitType

CARDS_FILE = DATA_DIR / "cards.toml"
CARDS_A_SIDE = 24  # 2: 24 Allied and 24 Axis Battle Reports
KINDS = ("unique", "general", "supplies")  # 9
STATS = ("attack", "land_attack", "defense", "mobility", "range")
ATTRIBUTES = ("cross_rivers",)
ACTIONS = ("move", "attack", "support")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Modify(_Strict):
    """Add `by` (negative: hinder) to a stat; the rules floor the result at 0."""

    modify: Literal["attack", "land_attack", "defense", "mobility", "range"]
    by: int

    def describe(self) -> str:
        return f"{self.modify} {self.by:+d}"


class Grant(_Strict):
    """A special attribute (9: "grant it some special attribute")."""

    grant: Literal["cross_rivers"]

    def describe(self) -> str:
        return f"may {self.grant.replace('_', ' ')}"


class Forbid(_Strict):
    """An action the units may not take (9: "remove attributes")."""

    forbid: Literal["move", "attack", "support"]

    def describe(self) -> str:
        return f"may not {self.forbid}"


class Supplies(_Strict):
    """Supplies the player receives (9: "they grant extra supplies for the player")."""

    supplies: int = Field(ge=1)

    def describe(self) -> str:
        return f"+{self.supplies} Supplies"


Effect = Modify | Grant | Forbid | Supplies


class Selector(_Strict):
    """Whose units, of which types: the player's own ("own") or the opponent's ("enemy")."""

    side: Literal["own", "enemy"]
    types: tuple[UnitType, ...] = Field(min_length=1)


class CardSpec(_Strict):
    id: str
    name: str
    kind: Literal["unique", "general", "supplies"]
    copies: int = Field(ge=1)
    target: Selector | None = None
    group: Selector | None = None
    effects: list[Effect] = Field(min_length=1)
    text: str
    reconstructed: list[Literal["all", "copies"]]
    source: str

    def signature(self) -> tuple[object, ...]:
        """What the card does, without its side's title: equal on both decks for the same card (9)."""
        return (self.id, self.kind, self.copies, self.target, self.group, tuple(self.effects))


class CardsFile(_Strict):
    schema_version: int
    allied: list[CardSpec]
    axis: list[CardSpec]


@dataclass(frozen=True, slots=True)
class Decks:
    """`cards[side]`: the distinct cards of a side's deck, in the file's order; `deck(side)` the 24."""

    cards: tuple[tuple[CardSpec, ...], tuple[CardSpec, ...]]

    def deck(self, side: int) -> tuple[CardSpec, ...]:
        """Every card of a side's deck, each repeated `copies` times (24: 2), unshuffled."""
        return tuple(card for card in self.cards[side] for _ in range(card.copies))

    def by_id(self, side: int, card_id: str) -> CardSpec:
        for card in self.cards[side]:
            if card.id == card_id:
                return card
        raise KeyError(f"no Battle Report {card_id!r} in the {SIDES[side]} deck")


def _check_card(file: str, key: str, card: CardSpec) -> None:
    if card.kind == "unique" and (card.target is None or card.group is not None):
        raise DataFileError(file, f"{key}.target", "a unique Battle Report selects one unit: a target and no group (9)")
    if card.kind == "general" and (card.group is None or card.target is not None):
        raise DataFileError(file, f"{key}.group", "a general Battle Report acts on a group: a group and no target (9)")
    if card.kind == "supplies":
        if card.target is not None or card.group is not None:
            raise DataFileError(file, f"{key}.target", "a supplies Battle Report has no target (9)")
        if not all(isinstance(e, Supplies) for e in card.effects):
            raise DataFileError(file, f"{key}.effects", "a supplies Battle Report only grants Supplies (9)")
    elif any(isinstance(e, Supplies) for e in card.effects):
        raise DataFileError(file, f"{key}.effects", f"a {card.kind} Battle Report acts on units, not Supplies (9)")


def compile_cards(spec: CardsFile, file: str = CARDS_FILE.name) -> Decks:
    decks = (spec.allied, spec.axis)
    for side, cards in zip(SIDES, decks, strict=True):
        seen: set[str] = set()
        for n, card in enumerate(cards):
            if card.id in seen:
                raise DataFileError(file, f"{side}.{n}.id", f"{card.id!r} is used twice")
            seen.add(card.id)
            _check_card(file, f"{side}.{n}", card)
        total = sum(card.copies for card in cards)
        if total != CARDS_A_SIDE:
            raise DataFileError(file, side, f"{total} Battle Reports; 2 says {CARDS_A_SIDE}")
    allied, axis = (Counter(card.signature() for card in cards) for cards in decks)
    if allied != axis:
        differs = sorted({str(sig[0]) for sig in (allied - axis) + (axis - allied)})
        raise DataFileError(
            file, "axis", f"differs from the Allied deck in {', '.join(differs)} (9: the same type and number)"
        )
    return Decks(cards=(tuple(spec.allied), tuple(spec.axis)))


@cache
def load_cards(path: Path = CARDS_FILE) -> Decks:
    return compile_cards(load_toml(path, CardsFile), path.name)
