"""Files written whole or not at all: a save, a generated page."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO


def write_atomically(path: str | os.PathLike[str], write: Callable[[TextIO], object]) -> None:
    """`write(handle)` into a temporary file beside `path`, flushed to disk, then renamed over it: a failure half-way
    (a full disk, a kill) leaves the old file as it was and no temporary file behind."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
