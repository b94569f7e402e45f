"""Rooms a maintainer enjoys (issue 41): no function or method in the package over 80 lines, no class over 400, no
block over cyclomatic complexity 25 (radon's measure: a function, a method, a class's average). A new long function is
split by its jobs before it lands; the measures are counted from the source (the AST and radon), so they say the same
on every machine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity")

PACKAGE = Path(__file__).resolve().parent.parent / "warroom"
MOST_FUNCTION_LINES = 80
MOST_CLASS_LINES = 400
MOST_COMPLEXITY = 25


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _lines(node: ast.AST) -> int:
    return int(getattr(node, "end_lineno", 0)) - int(getattr(node, "lineno", 0)) + 1


def test_no_function_or_class_is_longer_than_its_limit() -> None:
    long: list[str] = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            limit = (
                MOST_FUNCTION_LINES
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                else MOST_CLASS_LINES
                if isinstance(node, ast.ClassDef)
                else None
            )
            if limit is not None and _lines(node) > limit:
                long.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}: {_lines(node)} lines")
    assert not long, "split by its jobs:\n" + "\n".join(long)


def test_no_block_is_more_complex_than_its_limit() -> None:
    tangled: list[str] = []
    for path in _sources():
        for block in radon_complexity.cc_visit(path.read_text(encoding="utf-8")):
            for part in (block, *getattr(block, "methods", ()), *getattr(block, "closures", ())):
                if part.complexity > MOST_COMPLEXITY:
                    tangled.append(f"{path.relative_to(PACKAGE.parent)}:{part.lineno} {part.name}: {part.complexity}")
    assert not tangled, "split by its jobs, or a table where a rule is one:\n" + "\n".join(sorted(set(tangled)))


def test_the_measures_see_a_long_or_tangled_function() -> None:
    long = "def f(x):\n" + "".join(f"    if x == {n}:\n        return {n}\n" for n in range(45))
    tree = ast.parse(long)
    assert _lines(tree.body[0]) > MOST_FUNCTION_LINES
    assert radon_complexity.cc_visit(long)[0].complexity > MOST_COMPLEXITY
