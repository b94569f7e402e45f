"""The shape of a game record (docs/protocol.md, "Records") as one model: `Record.from_json` checks a record against
it, and the web API's description (OpenAPI) shows it as its JSON Schema, so what the description allows and what the
check accepts are one source.

The model holds what a record's fields are on their own (a string, a list of integers, one of two words, 64 hex
digits). What ties fields together is checked by `Record.from_json` after the model, and said in words beside the
schema: a keyed record's seed is 64 hex digits where another's is an integer, and a decision chain (`moves`) holds one
digest more than the record has decisions and belongs to version 2. Whether the decisions replay is the game's to say.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from .dice import HMAC_SHA256, MT19937
from .record import CHAINED_VERSION, RECORD_FORMAT, RECORD_VERSION

Digest = Annotated[StrictStr, Field(pattern="^[0-9a-f]{64}$")]
"""A decision digest as a record holds it: 64 lowercase hex digits (warroom/engine/chain.py)."""
Key = Annotated[StrictStr, Field(pattern="^[0-9a-fA-F]{64}$")]
"""A keyed generator's seed: 64 hex digits, a 256-bit key (warroom/engine/dice.py)."""


class PlayerModel(BaseModel):
    """A side the computer plays: the player's name and, where given, its thinking time per decision."""

    model_config = ConfigDict(extra="forbid", strict=True)
    agent: StrictStr = Field(min_length=1, description='the computer player, e.g. "heuristic"')
    budget_ms: StrictInt | None = Field(None, ge=1, description="its thinking time per decision, in milliseconds")


class HeaderModel(BaseModel):
    """Where the game started and how its dice were made."""

    model_config = ConfigDict(extra="allow", strict=True)
    game: StrictStr = Field(description="the game's id, as `warroom games` lists it")
    scenario: StrictStr | None = Field(None, description="the scenario; null: the game's first")
    options: dict[str, Any] | None = Field(None, description="the rules options the game was started with")
    seed: StrictInt | Key | None = Field(
        None,
        description=f'the dice seed: an integer where `rng` is "{MT19937}" (or left out), 64 hex digits where it is '
        f'"{HMAC_SHA256}"; null where it is kept secret',
    )
    dice: Literal["auto", "manual"] | list[StrictInt] = Field(
        "auto", description='where the dice came from: "auto" (seeded), "manual" (typed in) or the scripted values'
    )
    version: Any = Field(None, description="the warroom version that wrote the record (read as text)")
    rng: Literal["mt19937", "hmac-sha256"] = Field("mt19937", description="the generator behind seeded dice")
    players: dict[str, PlayerModel] | None = Field(None, description="the sides the computer plays; null: none said")
    position: dict[str, Any] | None = Field(None, description="the position the game started from, if not a setup")


class RecordModel(BaseModel):
    """A game record: its header, every decision (an action id) and every die, in order."""

    model_config = ConfigDict(extra="allow", strict=True)
    format: Literal["warroom-record"] = Field(description=f'always "{RECORD_FORMAT}"')
    version: StrictInt = Field(
        ge=RECORD_VERSION,
        le=CHAINED_VERSION,
        json_schema_extra={"enum": [RECORD_VERSION, CHAINED_VERSION]},
        description=f"the record format's version: {RECORD_VERSION}, or {CHAINED_VERSION} for a record with `moves`",
    )
    header: HeaderModel
    actions: list[StrictStr] = Field(description="every decision, an action id, in order")
    dice: list[StrictInt] = Field(description="every die rolled (or card drawn), in order")
    moves: list[Digest] | None = Field(
        None,
        description=f"version {CHAINED_VERSION} only: the decision chain h_0..h_n, one digest more than `actions` "
        "(before the first decision and after each)",
    )


def record_json_schema() -> dict[str, Any]:
    """The record's JSON Schema with its parts written out in place (no `$defs`), to embed in another description
    (the web API's OpenAPI document keeps its own definitions elsewhere)."""
    schema = RecordModel.model_json_schema()
    parts = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return inline(parts[ref.removeprefix("#/$defs/")])
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(item) for item in node]
        return node

    written: dict[str, Any] = inline(schema)
    return written
