"""The shared helpers of the test modules live in modules not named test_* (pyproject.toml puts tests/ on the path,
so tests/tunisia_positions.py imports as `tunisia_positions`); no test module imports another. Those that assert
have their asserts rewritten as a test module's are, so a failing check shows the values it compared."""

import pytest

pytest.register_assert_rewrite(
    "conformance_checks",
    "observation_checks",
    "patton_positions",
    "saintlo_positions",
    "tunisia_positions",
)
