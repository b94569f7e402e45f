"""The compiled build is its source: a compiled module edited after it was compiled is refused.

setup.py compiles the modules each game names in its folder's `compile.toml` with mypyc and writes
`warroom/compiled.json`, the sha256 of each such module's source as it was compiled. Python imports a
compiled module in place of its `.py`, so an edit to the source after the build would silently not run:
a developer would be testing rules they no longer read. `check_build` (asked once, before the first game
loads) compares the manifest with the sources beside the compiled files and names what to do.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from warroom.engine.errors import StaleBuildError

PACKAGE = Path(__file__).resolve().parents[1]
"""The installed (or checked-out) `warroom` folder."""
MANIFEST_NAME = "compiled.json"
"""setup.py's manifest in the package folder: module name -> sha256 of the source it compiled."""
REBUILD = "rebuild with `pip install -e .` (or `pip install .`), or set WARROOM_PURE_PYTHON=1 before installing"


def compiled_modules(package: Path = PACKAGE) -> dict[str, Path]:
    """module name -> its source path, for every module of the package that has a compiled extension."""
    found: dict[str, Path] = {}
    for folder, _, files in os.walk(package):  # one walk of the package: a few milliseconds, once a process
        for name in files:
            suffix = next((s for s in EXTENSION_SUFFIXES if name.endswith(s)), None)
            if suffix is None:
                continue
            source = Path(folder, name[: -len(suffix)] + ".py")
            if source.is_file():
                found[".".join(source.relative_to(package.parent).with_suffix("").parts)] = source
    return found


def stale_modules(package: Path = PACKAGE) -> list[str]:
    """The compiled modules whose source differs from what was compiled (or that no manifest vouches for)."""
    compiled = compiled_modules(package)
    if not compiled:
        return []
    try:
        recorded = json.loads((package / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = {}
    return sorted(
        module
        for module, source in compiled.items()
        if recorded.get(module) != hashlib.sha256(source.read_bytes()).hexdigest()
    )


def describe_build() -> str:
    """What runs here, for a benchmark's report: "pure Python", or how many modules run compiled."""
    count = len(compiled_modules())
    return f"compiled by mypyc: {count} modules" if count else "pure Python"


@cache
def check_build() -> None:
    """Refuse to play on a compiled build whose sources were edited since (once a process: cached)."""
    check_package(PACKAGE)


def check_package(package: Path) -> None:
    """Raise StaleBuildError naming the stale modules of `package`, if any."""
    stale = stale_modules(package)
    if stale:
        raise StaleBuildError(
            f"these modules were edited after they were compiled, so the compiled copy would run instead: "
            f"{', '.join(stale)}; {REBUILD}"
        )
