"""Loading game data files (TOML) and validating them against a schema, with clear errors."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from .errors import DataFileError

Model = TypeVar("Model", bound=BaseModel)


def load_toml(path: Path, schema: type[Model], schema_version: int = 1) -> Model:
    """Read `path` and validate it; any problem is a DataFileError naming file, key and problem."""
    name = path.name
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataFileError(name, "-", f"cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(name, "-", f"invalid TOML: {exc}") from None
    found = raw.get("schema_version")
    if found != schema_version:
        raise DataFileError(name, "schema_version", f"is {found!r}, this warroom reads {schema_version}")
    try:
        return schema.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "-"
        raise DataFileError(name, key, first["msg"]) from None
