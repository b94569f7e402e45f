"""The compiled build is its source: pure Python at will, and a compiled module edited since is refused.

setup.py compiles the modules each `compile.toml` names with mypyc (a group per folder: each game's, and
the engine's) and writes `warroom/compiled.json`, the sha256 of each such module's source as it was
compiled. Python's own import system prefers a compiled extension to the `.py` beside it, so two things
would go wrong without this module, and `BuildFinder` (first on `sys.meta_path` once `warroom` is
imported) prevents both, at the moment a module of the package is imported:

- An edit to a compiled module's source would silently not run: a developer would be testing rules they
  no longer read. The finder refuses to load such a module (`StaleBuildError`, naming it and the fix),
  and `games.get_spec` refuses the game whose folder holds it before importing anything of it. Only that
  game (or engine part) is refused: the other games list and play.
- A developer editing the rules wants the source to run without a rebuild. With `WARROOM_PURE_PYTHON=1`
  in the environment (or `use_pure_python()` called before a game is loaded) the finder imports every
  module of the package from its `.py`, wherever compiled modules are installed. The variable is read at
  each import, and subprocesses (the protocol's engine, the server's workers, Ray's) inherit it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from functools import cache
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec, PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

from warroom.engine.errors import StaleBuildError

PACKAGE = Path(__file__).resolve().parents[1]
"""The installed (or checked-out) `warroom` folder."""
MANIFEST_NAME = "compiled.json"
"""setup.py's manifest in the package folder: module name -> sha256 of the source it compiled."""
PURE_ENV = "WARROOM_PURE_PYTHON"
"""Set (to anything but empty, 0, false or no): the package runs from its `.py` sources."""
REBUILD = (
    "rebuild with `pip install -e .` (or `pip install .`), "
    f"or run the source as it is with {PURE_ENV}=1 in the environment (no reinstall)"
)


def pure_python() -> bool:
    """Whether this process runs the package from its sources, compiled modules or not (read each call)."""
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def use_pure_python() -> None:
    """Run the package from its `.py` sources from now on, in this process and the ones it starts.

    Call it before a game is loaded: a compiled module already imported cannot be swapped for its source
    (objects made by the one are refused by the other), so that is refused here rather than mixed."""
    loaded = loaded_compiled()
    if loaded:
        raise RuntimeError(
            f"use_pure_python() must be called before these compiled modules are imported: {', '.join(loaded)}"
        )
    os.environ[PURE_ENV] = "1"


def loaded_compiled() -> list[str]:
    """The package's modules this process has imported as compiled extensions."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith(f"{PACKAGE.name}.") and _is_extension(getattr(module, "__file__", None) or "")
    )


def _is_extension(path: str) -> bool:
    return path.endswith(tuple(EXTENSION_SUFFIXES))


def _source_beside(extension: str) -> Path | None:
    """The `.py` a compiled module was made from, in the same folder (None for mypyc's runtime)."""
    name = Path(extension).name
    suffix = next(s for s in EXTENSION_SUFFIXES if name.endswith(s))
    source = Path(extension).with_name(name[: -len(suffix)] + ".py")
    return source if source.is_file() else None


def compiled_modules(package: Path = PACKAGE) -> dict[str, Path]:
    """module name -> its source path, for every module of the package that has a compiled extension."""
    found: dict[str, Path] = {}
    for folder, _, files in os.walk(package):  # one walk of the package: a few milliseconds
        for name in files:
            if not _is_extension(name):
                continue
            source = _source_beside(os.path.join(folder, name))
            if source is not None:
                found[".".join(source.relative_to(package.parent).with_suffix("").parts)] = source
    return found


def _manifest(package: Path) -> dict[str, str]:
    try:
        recorded = json.loads((package / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return recorded if isinstance(recorded, dict) else {}


def _fresh(module: str, source: Path, recorded: dict[str, str]) -> bool:
    return recorded.get(module) == hashlib.sha256(source.read_bytes()).hexdigest()


def stale_modules(package: Path = PACKAGE, prefix: str = "") -> list[str]:
    """The compiled modules (under `prefix`, a dotted package name) whose source differs from what was
    compiled, or that no manifest vouches for."""
    compiled = {m: s for m, s in compiled_modules(package).items() if m.startswith(prefix)}
    if not compiled:
        return []
    recorded = _manifest(package)
    return sorted(module for module, source in compiled.items() if not _fresh(module, source, recorded))


def stale_error(modules: Sequence[str]) -> StaleBuildError:
    return StaleBuildError(
        f"these modules were edited after they were compiled, so the compiled copy would run instead: "
        f"{', '.join(modules)}; {REBUILD}"
    )


def check_game(module: str) -> None:
    """Refuse a game whose folder (the package of its spec's `module`) holds a stale compiled module; none
    in pure Python."""
    package = module.rpartition(".")[0]
    if pure_python() or not package.startswith(f"{PACKAGE.name}."):
        return
    stale = [name for name in stale_in_package() if name.startswith(f"{package}.")]
    if stale:
        raise stale_error(stale)


@cache
def stale_in_package() -> tuple[str, ...]:
    """`stale_modules()` of the installed package, once a process (the registry asks for each game)."""
    return tuple(stale_modules(PACKAGE))


def describe_build() -> str:
    """What runs here, for a benchmark's or a test run's report."""
    count = len(compiled_modules())
    if pure_python():
        installed = f"; {count} compiled modules installed, not used" if count else ""
        return f"pure Python ({PURE_ENV}=1{installed})"
    return f"compiled by mypyc: {count} modules" if count else "pure Python (no compiled modules installed)"


class BuildFinder(MetaPathFinder):
    """Finds the package's modules as Python would, then: in pure Python, a compiled module's `.py`
    instead; otherwise refuses a compiled module whose source changed since it was compiled."""

    def __init__(self, package: Path = PACKAGE) -> None:
        self.package = package
        self.prefix = f"{package.name}."

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith(self.prefix) or path is None:
            return None
        spec = PathFinder.find_spec(fullname, path, target)
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader) or not spec.origin:
            return spec
        source = _source_beside(spec.origin)
        if source is None:  # mypyc's runtime library: only a compiled module imports it
            return spec
        if pure_python():
            package = [str(source.parent)] if source.name == "__init__.py" else None
            return spec_from_file_location(fullname, source, submodule_search_locations=package)
        if not _fresh(fullname, source, _manifest_of(self.package)):
            raise stale_error([fullname])
        return spec


@cache
def _manifest_of(package: Path) -> dict[str, str]:
    return _manifest(package)  # read once a process: the build writes it, nothing at run time does


def install_finder() -> None:
    """Put `BuildFinder` first on `sys.meta_path` (once; `warroom/__init__.py` does it on import)."""
    if not any(isinstance(finder, BuildFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, BuildFinder())
