"""The compiled build (setup.py, warroom.engine.compiled): what runs is the source that is read.

setup.py compiles the modules each `compile.toml` names with mypyc. These tests check that a module
edited after it was compiled is refused before a game loads, and, where the run asks for it
(WARROOM_REQUIRE_COMPILED=1, as .ci/run does), that every declared module really runs compiled:
every other test then exercises the compiled rules, which the goldens made by pure Python judge.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from importlib import import_module
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from warroom.engine import compiled
from warroom.engine.errors import StaleBuildError

PACKAGE = Path(compiled.__file__).resolve().parents[1]


def declared() -> list[str]:
    """Every module a `compile.toml` names, as a dotted name."""
    names = []
    for declaration in sorted(PACKAGE.rglob("compile.toml")):
        folder = ".".join(declaration.parent.relative_to(PACKAGE.parent).parts)
        names += [f"{folder}.{module}" for module in tomllib.loads(declaration.read_text())["modules"]]
    return names


def test_the_declarations_name_real_modules() -> None:
    names = declared()
    assert any(".games." in name for name in names)
    for name in names:
        assert (PACKAGE.parent / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.mark.skipif(not os.environ.get("WARROOM_REQUIRE_COMPILED"), reason="a pure-Python install is allowed here")
def test_every_declared_module_runs_compiled() -> None:
    for name in declared():
        path = import_module(name).__file__ or ""
        assert path.endswith(tuple(EXTENSION_SUFFIXES)), f"{name} runs from {path}, not compiled"
    assert compiled.stale_modules() == []


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


def test_a_module_edited_after_it_was_compiled_is_stale(tmp_path: Path) -> None:
    package = _fake_build(tmp_path, "X = 2\n", recorded="X = 1\n")
    assert compiled.stale_modules(package) == ["warroom.games.toy.rules"]
    with pytest.raises(StaleBuildError, match=r"warroom\.games\.toy\.rules.*pip install -e \."):
        compiled.check_package(package)


def test_a_compiled_module_no_manifest_vouches_for_is_stale(tmp_path: Path) -> None:
    package = _fake_build(tmp_path, "X = 1\n", recorded=None)
    assert compiled.stale_modules(package) == ["warroom.games.toy.rules"]


def test_a_pure_python_package_is_never_stale(tmp_path: Path) -> None:
    package = tmp_path / "warroom"
    package.mkdir()
    (package / "rules.py").write_text("X = 1\n")
    assert compiled.stale_modules(package) == []
    compiled.check_package(package)


def test_a_stale_build_refuses_to_load_a_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from warroom.games import game_ids, get_spec

    game = game_ids()[0]
    monkeypatch.setattr(compiled, "PACKAGE", _fake_build(tmp_path, "X = 2\n", recorded="X = 1\n"))
    compiled.check_build.cache_clear()
    get_spec.cache_clear()
    try:
        with pytest.raises(StaleBuildError, match="edited after they were compiled"):
            get_spec(game)
    finally:
        monkeypatch.undo()
        compiled.check_build.cache_clear()
        get_spec.cache_clear()
    assert get_spec(game).id == game
