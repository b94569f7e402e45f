"""The build: pure Python, with each game's hot modules compiled by mypyc where a C compiler is at hand.

Everything else about the package is in pyproject.toml. Random playouts and search spend their time in a
few modules of each game (its rules, its phases, its state); a game names them in its folder's
`compile.toml` (`modules = [...]`), and this build compiles them with mypyc into C extensions that
Python imports in place of the source. The source stays the rules: the compiled modules are the same
code, made about 1.5-2x faster (`warroom bench`), and every test runs on them.

- Each `compile.toml` is one mypyc group, one shared library in its own folder
  (`warroom/games/tunisia/native__mypyc...so`): games never call into each other, so an edit to one
  game's module regenerates that game's C only. mypy's incremental cache (`build/mypyc-cache`) skips the
  analysis of unchanged modules, and every extension this build links is kept in
  `build/warroom-extensions/`, keyed by the hash of what it was compiled from, so an unchanged group is
  copied, not compiled again, even by pip's editable build (which links in a new temporary folder each
  time). The groups that do compile share the cores (`build_ext --parallel`).
- `WARROOM_PURE_PYTHON=1 pip install ...` skips the compilation. The same variable at run time makes the
  package import the `.py` sources even where compiled modules are installed (warroom.engine.compiled).
- Where the compilation fails (no compiler, no Python headers), the build warns and installs pure Python.
- Either way an earlier build's compiled files in the checkout are removed (`inplace_builds`).
- The build records each compiled module's source hash (`warroom/compiled.json`): a module edited after
  it was compiled is refused when it is loaded (warroom.engine.compiled), never run as the old code, and
  only the game it belongs to is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = "warroom"
MANIFEST = "compiled.json"
PURE_ENV = "WARROOM_PURE_PYTHON"
GROUP_SUFFIX = "native"
"""A group's name is its folder's dotted name and this: its shared library is the module
`warroom.games.tunisia.native__mypyc`, in the game's own folder."""
EXTENSION_CACHE = HERE / "build" / "warroom-extensions"
"""Each linked extension, by name and by the hash of its inputs: what an unchanged group reuses."""


def pure_python_asked() -> bool:
    """WARROOM_PURE_PYTHON set to anything but empty, 0, false or no (as warroom.engine.compiled reads it)."""
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def declared_groups() -> dict[str, list[Path]]:
    """Each `compile.toml`'s group name -> the source files it names, relative to this folder."""
    groups: dict[str, list[Path]] = {}
    for declaration in sorted((HERE / PACKAGE).rglob("compile.toml")):
        folder = declaration.parent.relative_to(HERE)
        paths = groups.setdefault(".".join((*folder.parts, GROUP_SUFFIX)), [])
        for module in tomllib.loads(declaration.read_text(encoding="utf-8"))["modules"]:
            path = folder / f"{module}.py"
            if not (HERE / path).is_file():
                raise SystemExit(f"{declaration}: no module {module!r} in {folder}")
            paths.append(path)
    return groups


def declared_modules() -> list[Path]:
    """The source files every `compile.toml` under the package names, relative to this folder."""
    return [path for paths in declared_groups().values() for path in paths]


def source_hashes(paths: list[Path]) -> dict[str, str]:
    """module name -> sha256 of its source, as it was compiled."""
    return {
        ".".join(path.with_suffix("").parts): hashlib.sha256((HERE / path).read_bytes()).hexdigest() for path in paths
    }


def inplace_builds() -> list[Path]:
    """What a build in place (`pip install -e .`) leaves in the source folder: each declared module's
    extension, mypyc's runtime and the manifest. A failed or pure build removes them, so the source runs."""
    runtimes = [Path(f"{group.replace('.', '/')}__mypyc") for group in declared_groups()]
    stems = [*(path.with_suffix("") for path in declared_modules()), *runtimes, Path(f"{PACKAGE}/native__mypyc")]
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
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1  # the groups (and their small shims) compile side by side
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

    def build_extension(self, ext: Extension) -> None:
        """Copy the extension from the cache when nothing it is compiled from changed; else compile it and
        keep a copy. The key covers the C sources and headers, the flags, mypyc and the interpreter."""
        target = Path(self.get_ext_fullpath(ext.name))
        cached = EXTENSION_CACHE / ext.name / f"{extension_key(ext)}{target.suffix}"
        if cached.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cached, target)
            return
        super().build_extension(ext)
        if cached.parent.is_dir():
            shutil.rmtree(cached.parent)  # one build of each extension is kept: the latest
        cached.parent.mkdir(parents=True)
        partial = cached.with_name(cached.name + ".partial")
        shutil.copyfile(target, partial)
        partial.replace(cached)  # an interrupted copy is never taken for a build

    def get_outputs(self) -> list[str]:
        return [*super().get_outputs(), *([str(Path(self.build_lib) / PACKAGE / MANIFEST)] if self.extensions else [])]


def extension_key(ext: Extension) -> str:
    """The sha256 of everything an extension is compiled from: its sources and headers, its flags, the
    mypyc that wrote them and the interpreter it is for."""
    import mypy.version

    digest = hashlib.sha256()
    for part in (ext.name, mypy.version.__version__, sys.version, sysconfig.get_config_var("EXT_SUFFIX") or ""):
        digest.update(f"{part}\0".encode())
    # not the include folders: mypyc's runtime lies in pip's temporary build environment, a new path each
    # build, and is mypyc's version's; the generated headers are among the depends
    for flag in [*(ext.extra_compile_args or []), *(os.environ.get(v, "") for v in ("CC", "CFLAGS"))]:
        digest.update(f"{flag}\0".encode())
    for source in sorted({*ext.sources, *ext.depends}):
        digest.update(f"{source}\0".encode())
        digest.update(Path(source).read_bytes())
    return digest.hexdigest()


def mypyc_extensions() -> list:
    """mypyc's extensions for the declared modules, a group per `compile.toml` (their C under build/)."""
    from mypyc.build import mypycify

    os.chdir(HERE)  # mypycify names the modules by their paths from here
    # a third-party package the compiled modules import need not be installed yet (pip builds before it
    # installs the dependencies): its types are then Any, which compiles the same code
    options = ["--ignore-missing-imports"]
    # and not pyproject.toml's [tool.mypy] (strict, for `mypy warroom`): strict refuses code typed Any by a package
    # that is not installed here (a pydantic model subclasses Any), and mypyc needs no more than the types
    options += ["--config-file="]
    # mypyc's own incremental cache, apart from `mypy warroom`'s .mypy_cache (other options would void it)
    options += ["--cache-dir", str(Path("build", "mypyc-cache"))]
    groups = declared_groups()
    separate = [([str(path) for path in paths], name) for name, paths in groups.items()]
    return mypycify([*options, *map(str, declared_modules())], opt_level="3", separate=separate)


def _warn(error: BaseException) -> None:
    print(f"warning: warroom's modules were not compiled ({error}); installing pure Python", file=sys.stderr)


PLACEHOLDER = [Extension(f"{PACKAGE}.compiled", sources=[])]
"""What setup() is given: it makes the build platform-specific and runs `OptionalBuildExt`, which puts
mypyc's extensions in its place (none with WARROOM_PURE_PYTHON set: pure Python)."""

PURE = pure_python_asked()
if PURE:
    remove(inplace_builds())  # an earlier compiled build in place would otherwise still be what Python imports
setup(ext_modules=[] if PURE else PLACEHOLDER, cmdclass={"build_ext": OptionalBuildExt})
