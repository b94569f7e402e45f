"""The build: pure Python, with each game's hot modules compiled by mypyc where a C compiler is at hand.

Everything else about the package is in pyproject.toml. Random playouts and search spend their time in a
few modules of each game (its rules, its phases, its state); a game names them in its folder's
`compile.toml` (`modules = [...]`), and this build compiles them with mypyc into C extensions that
Python imports in place of the source. The source stays the rules: the compiled modules are the same
code, made about 1.5-2x faster (`warroom bench`), and every test runs on them.

- `WARROOM_PURE_PYTHON=1 pip install ...` skips the compilation (a developer editing those modules).
- Where the compilation fails (no compiler, no Python headers), the build warns and installs pure Python.
- Either way an earlier build's compiled files in the checkout are removed (`inplace_builds`).
- The build records each compiled module's source hash (`warroom/compiled.json`): a module edited after
  it was compiled is refused at load (warroom.engine.compiled), never run as the old code.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = "warroom"
MANIFEST = "compiled.json"
PURE_ENV = "WARROOM_PURE_PYTHON"
RUNTIME_GROUP = f"{PACKAGE}.native"
"""mypyc's group: its shared runtime is the module `warroom.native__mypyc`, inside the package."""


def declared_modules() -> list[Path]:
    """The source files every `compile.toml` under the package names, relative to this folder."""
    paths: list[Path] = []
    for declaration in sorted((HERE / PACKAGE).rglob("compile.toml")):
        folder = declaration.parent.relative_to(HERE)
        for module in tomllib.loads(declaration.read_text(encoding="utf-8"))["modules"]:
            path = folder / f"{module}.py"
            if not (HERE / path).is_file():
                raise SystemExit(f"{declaration}: no module {module!r} in {folder}")
            paths.append(path)
    return paths


def source_hashes(paths: list[Path]) -> dict[str, str]:
    """module name -> sha256 of its source, as it was compiled."""
    return {
        ".".join(path.with_suffix("").parts): hashlib.sha256((HERE / path).read_bytes()).hexdigest() for path in paths
    }


def inplace_builds() -> list[Path]:
    """What a build in place (`pip install -e .`) leaves in the source folder: each declared module's
    extension, mypyc's runtime and the manifest. A failed or pure build removes them, so the source runs."""
    stems = [*(path.with_suffix("") for path in declared_modules()), Path(f"{RUNTIME_GROUP.replace('.', '/')}__mypyc")]
    return [HERE / PACKAGE / MANIFEST, *(HERE / f"{stem}{suffix}" for stem in stems for suffix in EXTENSION_SUFFIXES)]


def remove(paths: list[Path]) -> None:
    for path in paths:
        path.unlink(missing_ok=True)


class OptionalBuildExt(build_ext):
    """Compile the declared modules if possible; where not, warn and leave the package pure Python.

    The modules are handed to mypyc only here, when the build runs (not each time setuptools reads this
    file for the package's metadata). All or nothing: a compiled module without mypyc's shared runtime
    beside it would not import, so a failure removes whatever this build made. On success the manifest
    of source hashes is written beside the package (the build's and, for an in-place build, the source
    folder's)."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules == PLACEHOLDER:
            try:
                self.distribution.ext_modules = mypyc_extensions()
            except Exception as error:  # noqa: BLE001 - mypy missing or refusing: pure Python
                self.distribution.ext_modules = []
                if self.editable_mode or self.inplace:
                    remove(inplace_builds())
                _warn(error)
        super().finalize_options()

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any compiler or platform failure leaves pure Python
            remove([Path(self.get_ext_fullpath(ext.name)) for ext in self.extensions])
            if self.editable_mode or self.inplace:  # setuptools clears `inplace` while it builds
                remove(inplace_builds())
            self.extensions = []
            _warn(error)
            return
        if not self.extensions:
            return
        manifest = json.dumps(source_hashes(declared_modules()), indent=1, sort_keys=True)
        targets = {Path(self.build_lib) / PACKAGE}
        if self.inplace:
            targets.add(HERE / PACKAGE)
        for folder in targets:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / MANIFEST).write_text(manifest + "\n", encoding="utf-8")

    def get_outputs(self) -> list[str]:
        return [*super().get_outputs(), *([str(Path(self.build_lib) / PACKAGE / MANIFEST)] if self.extensions else [])]


def mypyc_extensions() -> list:
    """mypyc's extensions for the declared modules (their C written under build/)."""
    from mypyc.build import mypycify

    os.chdir(HERE)  # mypycify names the modules by their paths from here
    # a third-party package the compiled modules import need not be installed yet (pip builds before it
    # installs the dependencies): its types are then Any, which compiles the same code
    options = ["--ignore-missing-imports"]
    return mypycify([*options, *map(str, declared_modules())], opt_level="3", group_name=RUNTIME_GROUP)


def _warn(error: BaseException) -> None:
    print(f"warning: warroom's modules were not compiled ({error}); installing pure Python", file=sys.stderr)


PLACEHOLDER = [Extension(f"{PACKAGE}.compiled", sources=[])]
"""What setup() is given: it makes the build platform-specific and runs `OptionalBuildExt`, which puts
mypyc's extensions in its place (none with WARROOM_PURE_PYTHON set: pure Python)."""

PURE = bool(os.environ.get(PURE_ENV))
if PURE:
    remove(inplace_builds())  # an earlier compiled build in place would otherwise still be what Python imports
setup(ext_modules=[] if PURE else PLACEHOLDER, cmdclass={"build_ext": OptionalBuildExt})
