"""The legal actions' descriptors as a view sends them: once, beside `view.legal`, packed.

A position can have thousands of legal actions (a hex game's Movement Phase: every unit to every hex it
reaches), each an ActionDescriptor with its id, a label in words and its parts. Sent as a list of objects they
were most of a view, and the ids came again in `view.legal` and the labels again in a map beside them. So a view
sends the ids once (`view.legal`) and the descriptors as a table whose rows follow `legal`'s order:

    "actions": {"fields": ["label", "kind", "unit", "to", ...], "text": ["label", "kind", ...], "rows": [[...], ...]}

Row i describes `view.legal[i]` (the descriptor's `id`); its cells follow `fields`, a null cell is a field the
descriptor does not have. A field in `text` holds strings only, written against the same field of the row before
(adjacent actions mostly share a unit, a place and most of their label): an integer n is the first n characters
of the row before's value (n = its length: the same value), [n, "rest"] those n characters and then "rest", and a
string is the value itself. Other fields hold their values as they are. The page unpacks it once per view
(static/js/packed.js) into the descriptors and labels the boards read; `unpack_actions` is the same in Python.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from warroom.engine.spec import ActionDescriptor


def pack_actions(descriptors: Sequence[ActionDescriptor]) -> dict[str, Any]:
    """The descriptors (in the order of `legal`) as {"fields", "text", "rows"}, without their ids."""
    fields: list[str] = []
    for d in descriptors:
        fields.extend(key for key in d if key != "id" and key not in fields)
    text = [f for f in fields if all(isinstance(d.get(f, ""), str) for d in descriptors)]
    coded = set(text)
    rows: list[list[Any]] = []
    before: dict[str, Any] = {}
    for d in descriptors:
        values = cast(dict[str, Any], d)
        row = []
        for f in fields:
            value = values.get(f)
            previous = before.get(f)
            row.append(
                _against(previous, value) if f in coded and isinstance(previous, str) and value is not None else value
            )
        rows.append(row)
        before = values
    return {"fields": fields, "text": text, "rows": rows}


def unpack_actions(packed: dict[str, Any], legal: Sequence[str]) -> list[ActionDescriptor]:
    """The descriptors again: `packed` as `pack_actions` made it, `legal` the ids its rows follow."""
    fields, coded = packed["fields"], set(packed["text"])
    out: list[ActionDescriptor] = []
    before: dict[str, Any] = {}
    for action, row in zip(legal, packed["rows"], strict=True):
        d: dict[str, Any] = {"id": action}
        for f, cell in zip(fields, row, strict=True):
            if cell is None:
                continue
            if f in coded and isinstance(cell, int):
                cell = before[f][:cell]
            elif f in coded and isinstance(cell, list):
                cell = before[f][: cell[0]] + cell[1]
            d[f] = cell
        out.append(cast(ActionDescriptor, d))
        before = d
    return out


def _against(previous: str, value: str) -> Any:
    """`value` written against `previous`: the shortest of its shared prefix's length (with the rest) and itself.
    Characters beyond the Basic Multilingual Plane count as two in the page's strings (UTF-16), so a value with
    one is sent whole."""
    if any(ord(c) > 0xFFFF for c in previous + value):
        return value
    n = 0
    limit = min(len(previous), len(value))
    while n < limit and previous[n] == value[n]:
        n += 1
    if n == len(value):
        return n
    coded = [n, value[n:]]
    return coded if len(json.dumps(coded)) < len(json.dumps(value)) else value
