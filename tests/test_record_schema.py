"""A record's description and its check are one source (warroom.engine.record_schema): the web API describes a record
by the model's JSON Schema, `Record.from_json` checks a record by the same model, and the two agree on every record:
one the schema allows is read unless a tie between fields fails (the seed and its generator, the chain and the
decisions), and one it refuses is refused, with the field named in words."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from warroom.engine.errors import RecordError
from warroom.engine.record import Record
from warroom.engine.record_schema import record_json_schema

KEY = "ab" * 32
DIGEST = "cd" * 32
VALID: dict[str, Any] = {
    "format": "warroom-record",
    "version": 1,
    "header": {"game": "patton", "scenario": "normandy", "options": {}, "seed": 7, "dice": "auto", "version": "1"},
    "actions": ["end"],
    "dice": [3, 4],
}
SCHEMA = record_json_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.sampled_from(["", "auto", "manual", "hmac-sha256", KEY, "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["agent", "budget_ms", "a"]), inner),
    max_leaves=5,
)
PLACES = [
    ("format",),
    ("version",),
    ("header",),
    ("header", "game"),
    ("header", "scenario"),
    ("header", "options"),
    ("header", "seed"),
    ("header", "rng"),
    ("header", "dice"),
    ("header", "position"),
    ("header", "players"),
    ("header", "players", "Allied"),
    ("header", "players", "Allied", "budget_ms"),
    ("actions",),
    ("actions", 0),
    ("dice",),
    ("dice", 0),
    ("moves",),
]


def _ties_hold(record: dict[str, Any]) -> bool:
    """What the schema cannot say and `from_json` checks after it."""
    header = record["header"]
    seed, keyed = header.get("seed"), header.get("rng") == "hmac-sha256"
    if (keyed and isinstance(seed, int)) or (not keyed and isinstance(seed, str)):
        return False
    moves = record.get("moves")
    return moves is None or (record["version"] == 2 and len(moves) == len(record["actions"]) + 1)


def _set(record: Any, place: tuple[Any, ...], value: Any) -> Any:
    """`record` with the value at `place` replaced (made where missing); the record itself where a part on the way is
    not a container."""
    changed = copy.deepcopy(record)
    here = changed
    for key in place[:-1]:
        if isinstance(here, dict):
            here = here.setdefault(key, {"agent": "heuristic"} if key == "Allied" else {})
        elif isinstance(here, list) and isinstance(key, int) and key < len(here):
            here = here[key]
        else:
            return changed
    last = place[-1]
    if isinstance(here, dict) or (isinstance(here, list) and isinstance(last, int) and last < len(here)):
        here[last] = value
    return changed


@given(st.lists(st.tuples(st.sampled_from(PLACES), json_values), max_size=3))
def test_the_schema_and_the_check_agree_on_every_record(changes: list[tuple[tuple[Any, ...], Any]]) -> None:
    record: Any = VALID
    for place, value in changes:
        record = _set(record, place, value)
    allowed = VALIDATOR.is_valid(record)
    try:
        Record.from_json(record)
        read = True
    except RecordError as refused:
        read = False
        assert str(refused).startswith(("record ", "a record ", "not a warroom record")), refused
    assert read == (allowed and _ties_hold(record)), (record, allowed)


def test_a_chained_keyed_record_fits_the_schema_and_is_read() -> None:
    chained = {**VALID, "version": 2, "moves": [DIGEST, DIGEST], "header": {**VALID["header"], "rng": "hmac-sha256"}}
    chained["header"]["seed"] = KEY
    assert VALIDATOR.is_valid(chained)
    assert Record.from_json(chained).moves == [DIGEST, DIGEST]
    assert Record.from_json(chained).to_json()["moves"] == [DIGEST, DIGEST]


@pytest.mark.parametrize(
    ("place", "value", "words"),
    [
        ((), 5, "a record must be a JSON object"),
        (("format",), None, "format is None"),
        (("version",), True, "record format version True is not supported"),
        (("header", "game"), 3, "record header is missing or has no game"),
        (("dice", 0), True, "record 'dice' must be a list of integers"),
        (("header", "seed"), "x", "record header 'seed' must be an integer or null"),
        (("header", "players"), {"Allied": {"agent": "heuristic", "colour": 1}}, "has no field 'colour'"),
        (("moves",), [DIGEST], "belongs to record format version 2, not 1"),
    ],
)
def test_a_refusal_names_the_field_in_words(place: tuple[Any, ...], value: Any, words: str) -> None:
    record = value if not place else _set(VALID, place, value)
    with pytest.raises(RecordError, match=None) as refused:
        Record.from_json(record)
    assert words in str(refused.value)


def test_the_api_describes_records_by_the_model() -> None:
    from warroom.web.server import create_app

    with tempfile.TemporaryDirectory() as folder:
        described = create_app(f"sqlite:///{Path(folder) / 'w.db'}").openapi()["components"]["schemas"]
    for body in ("Upload", "Verify"):
        shown = {**described[body]["properties"]["record"], "description": SCHEMA["description"]}  # the route's words
        assert _without_null_defaults(shown) == _without_null_defaults(SCHEMA), body


def _without_null_defaults(node: Any) -> Any:
    """The schema less its `"default": null`s (the API's description leaves them out: null says nothing)."""
    if isinstance(node, dict):
        return {k: _without_null_defaults(v) for k, v in node.items() if not (k == "default" and v is None)}
    if isinstance(node, list):
        return [_without_null_defaults(v) for v in node]
    return node
