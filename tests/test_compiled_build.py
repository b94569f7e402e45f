"""The compiled build (setup.py, warroom.engine.compiled): what runs is the source that is read.

setup.py compiles the modules each `compile.toml` names with mypyc, a group per folder. These tests check
that a module edited after it was compiled refuses only the game it belongs to (the others list and
play), that WARROOM_PURE_PYTHON=1 runs the sources at run time wherever compiled modules are installed,
and, where the run asks for it (WARROOM_REQUIRE_COMPILED=1, as .ci/run does), that every declared module
really runs compiled, from its own folder's group: every other test then exercises the compiled rules,
which the goldens made by pure Python judge.

The end-to-end checks run `python` in a copy of the installed package: on a compiled install the copy has
the real compiled modules (one of them then edited); on a pure one, a file that only looks compiled
stands beside the source (what matters there is that the finder never loads it).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import import_module
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import warroom
from warroom.engine import compiled
from warroom.engine.errors import StaleBuildError

PACKAGE = Path(compiled.__file__).resolve().parents[1]
EDITED = "warroom.games.tunisia.combat"
"""The module the end-to-end checks edit: Tunisia's, which no other game imports."""


def declared() -> dict[Path, list[str]]:
    """Each `compile.toml`'s folder -> the modules it names, as dotted names."""
    groups: dict[Path, list[str]] = {}
    for declaration in sorted(PACKAGE.rglob("compile.toml")):
        folder = ".".join(declaration.parent.relative_to(PACKAGE.parent).parts)
        modules = tomllib.loads(declaration.read_text())["modules"]
        groups[declaration.parent] = [f"{folder}.{module}" for module in modules]
    return groups


def test_the_declarations_name_real_modules() -> None:
    names = [name for names in declared().values() for name in names]
    assert any(".games." in name for name in names)
    for name in names:
        assert (PACKAGE.parent / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.mark.skipif(not os.environ.get("WARROOM_REQUIRE_COMPILED"), reason="a pure-Python install is allowed here")
def test_every_declared_module_runs_compiled_from_its_own_folders_group() -> None:
    assert not compiled.pure_python(), "WARROOM_PURE_PYTHON is set in a run that requires the compiled build"
    for folder, names in declared().items():
        # one mypyc group per compile.toml: its shared library lies in that folder (an edit rebuilds it alone)
        assert any((folder / f"native__mypyc{suffix}").is_file() for suffix in EXTENSION_SUFFIXES), folder
        for name in names:
            path = import_module(name).__file__ or ""
            assert path.endswith(tuple(EXTENSION_SUFFIXES)), f"{name} runs from {path}, not compiled"
    assert compiled.stale_modules() == []
    assert warroom.describe_build() == f"compiled by mypyc: {len(compiled.compiled_modules())} modules"


# -- the manifest ------------------------------------------------------------------------------------------------
def _fake_build(root: Path, source: str, recorded: str | None) -> Path:
    """A package folder `root/warroom` with one module, a stand-in for its compiled file, and a manifest."""
    package = root / "warroom" / "games" / "toy"
    package.mkdir(parents=True)
    (package / "rules.py").write_text(source)
    (package / f"rules{EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF")
    if recorded is not None:
        manifest = {"warroom.games.toy.rules": hashlib.sha256(recorded.encode()).hexdigest()}
        (root / "warroom" / "compiled.json").write_text(json.dumps(manifest))
    return root / "warroom"


def test_a_module_compiled_from_its_present_source_is_not_stale(tmp_path: Path) -> None:
    package = _fake_build(tmp_path, "X = 1\n", recorded="X = 1\n")
    assert compiled.stale_modules(package) == []


def test_a_module_edited_after_it_was_compiled_is_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    package = _fake_build(tmp_path, "X = 2\n", recorded="X = 1\n")
    assert compiled.stale_modules(package) == ["warroom.games.toy.rules"]
    assert compiled.stale_modules(package, prefix="warroom.games.other.") == []
    error = compiled.stale_error(compiled.stale_modules(package))
    assert isinstance(error, StaleBuildError)
    assert re.search(r"warroom\.games\.toy\.rules.*pip install -e \..*WARROOM_PURE_PYTHON=1", str(error))
    # a game is refused for a stale module of its own folder only, and never in pure Python (none runs)
    monkeypatch.setattr(compiled, "stale_in_package", lambda: ("warroom.games.toy.rules",))
    with pytest.raises(StaleBuildError, match=r"warroom\.games\.toy\.rules"):
        compiled.check_game("warroom.games.toy.spec")
    compiled.check_game("warroom.games.other.spec")
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    compiled.check_game("warroom.games.toy.spec")


def test_a_compiled_module_no_manifest_vouches_for_is_stale(tmp_path: Path) -> None:
    package = _fake_build(tmp_path, "X = 1\n", recorded=None)
    assert compiled.stale_modules(package) == ["warroom.games.toy.rules"]


def test_a_pure_python_package_is_never_stale(tmp_path: Path) -> None:
    package = tmp_path / "warroom"
    package.mkdir()
    (package / "rules.py").write_text("X = 1\n")
    assert compiled.stale_modules(package) == []


@pytest.mark.parametrize(
    ("value", "pure"), [("1", True), ("yes", True), ("", False), ("0", False), ("false", False), ("No", False)]
)
def test_the_variable_reads_as_a_person_means_it(value: str, pure: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.PURE_ENV, value)
    assert compiled.pure_python() is pure


# -- end to end, in a copy of the installed package -------------------------------------------------------------
def _copy_with_an_edit(root: Path) -> Path:
    """A copy of the installed package in `root` in which `EDITED` is stale: on a compiled install, its source
    edited after the build; on a pure one, a file that only looks compiled beside it, vouched for by no manifest.
    Returns the copy's folder of the edited module."""
    shutil.copytree(PACKAGE, root / "warroom", ignore=shutil.ignore_patterns("__pycache__"))
    source = root / (EDITED.replace(".", "/") + ".py")
    if not any(name.endswith(tuple(EXTENSION_SUFFIXES)) for name in os.listdir(source.parent)):
        source.with_name(f"{source.stem}{EXTENSION_SUFFIXES[0]}").write_bytes(b"not a compiled module")
    with source.open("a") as text:
        text.write("# a one-line edit after the build\n")
    return source.parent


def _path_first(root: Path) -> str:
    """PYTHONPATH with the copy at `root` first (its `warroom` is the one imported), then the run's own entries
    (tests/, where the session's test games import from: tests/session_games.py)."""
    return os.pathsep.join([str(root), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])


def _python(root: Path, code: str, *, pure: bool) -> subprocess.CompletedProcess[str]:
    """`code` run by a fresh interpreter that imports the package copied to `root`."""
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    env["PYTHONPATH"] = _path_first(root)
    if pure:
        env[compiled.PURE_ENV] = "1"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False
    )


PLAY = """
import json, warroom
from warroom.games import game_ids, refused_games, spec_modules
assert warroom.__file__.startswith({root!r}), warroom.__file__
out = {{"games": game_ids(), "refused": refused_games(), "build": warroom.describe_build(), "preload": spec_modules()}}
for game in game_ids():
    m = warroom.new_game(game, seed=3)
    for _ in range(40):
        if m.over:
            break
        m.play(m.legal_actions()[0])
    out[game] = len(m.actions)
try:
    import {edited} as edited
    out["edited"] = edited.__file__
except warroom.WarroomError as error:
    out["edited"] = type(error).__name__ + ": " + str(error)
print(json.dumps(out))
"""


def test_an_edit_to_one_games_compiled_module_refuses_that_game_only(tmp_path: Path) -> None:
    _copy_with_an_edit(tmp_path)
    done = _python(tmp_path, PLAY.format(root=str(tmp_path), edited=EDITED), pure=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert "tunisia" not in out["games"] and {"dragoon", "patton", "saintlo"} <= set(out["games"])
    assert set(out["refused"]) == {"tunisia"}
    assert EDITED in out["refused"]["tunisia"] and "WARROOM_PURE_PYTHON=1" in out["refused"]["tunisia"]
    for game in out["games"]:  # every other game loads and plays
        assert out[game] > 0, game
    assert out["edited"].startswith("StaleBuildError: ") and EDITED in out["edited"]  # refused when loaded
    assert not any(".tunisia." in module for module in out["preload"])  # the server's workers import the others

    # the command line lists the others and says what is wrong with the one, and how to fix it
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV} | {"PYTHONPATH": _path_first(tmp_path)}
    listed = subprocess.run(
        [sys.executable, "-m", "warroom", "games", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert listed.returncode == 0, listed.stderr
    assert [g["id"] for g in json.loads(listed.stdout)] == out["games"]
    assert "tunisia cannot be loaded" in listed.stderr and "WARROOM_PURE_PYTHON=1" in listed.stderr
    refused = subprocess.run(
        [sys.executable, "-m", "warroom", "play", "tunisia", "--vs", "ai"],
        cwd=tmp_path,
        env=env,
        input="",
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert EDITED in refused.stdout + refused.stderr


def test_pure_python_at_run_time_runs_the_edited_source_with_no_reinstall(tmp_path: Path) -> None:
    _copy_with_an_edit(tmp_path)
    done = _python(tmp_path, PLAY.format(root=str(tmp_path), edited=EDITED), pure=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["refused"] == {} and {"dragoon", "patton", "saintlo", "tunisia"} <= set(out["games"])
    assert out["edited"] == str(tmp_path / (EDITED.replace(".", "/") + ".py"))  # the source, not the compiled file
    assert out["build"].startswith("pure Python (WARROOM_PURE_PYTHON=1; ") and "installed, not used" in out["build"]


def test_pure_python_plays_exactly_what_the_installed_build_plays(tmp_path: Path) -> None:
    # the same seed and the same decisions: the record of the source is the record of the compiled build
    code = """
import json, warroom
records = {}
for game in ("dragoon", "patton", "tunisia"):
    m = warroom.new_game(game, seed=11)
    for k in range(60):
        if m.over:
            break
        legal = m.legal_actions()
        m.play(legal[k % len(legal)])
    records[game] = m.record().to_json()
modules = ["warroom.games.dragoon.rules", "warroom.games.tunisia.rules"]
import sys
print(json.dumps({"records": records, "files": [sys.modules[n].__file__ for n in modules]}))
"""
    env_root = PACKAGE.parent
    installed = _python(env_root, code, pure=False)
    pure = _python(env_root, code, pure=True)
    assert installed.returncode == 0 and pure.returncode == 0, installed.stderr + pure.stderr
    ran_installed, ran_pure = json.loads(installed.stdout), json.loads(pure.stdout)
    assert all(path.endswith(".py") for path in ran_pure["files"])
    for game, record in ran_installed["records"].items():
        assert record == ran_pure["records"][game], game


def test_use_pure_python_is_refused_once_a_compiled_module_is_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(compiled.PURE_ENV, "")  # off, and put back as it was after the test
    loaded = compiled.loaded_compiled()
    if loaded:  # this process runs the compiled build: mixing the two would mix their classes
        with pytest.raises(RuntimeError, match="before these compiled modules are imported"):
            warroom.use_pure_python()
        assert not compiled.pure_python()
    else:
        warroom.use_pure_python()
        assert compiled.pure_python() and os.environ[compiled.PURE_ENV] == "1"
    # a fresh process that asks first runs the sources (and its children inherit the choice)
    code = (
        "import os, warroom; warroom.use_pure_python(); import warroom.games.dragoon.rules as r; "
        "print(r.__file__, os.environ['WARROOM_PURE_PYTHON'])"
    )
    done = _python(PACKAGE.parent, code, pure=False)
    assert done.returncode == 0, done.stderr
    path, value = done.stdout.split()
    assert path.endswith("rules.py") and value == "1"
