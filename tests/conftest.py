"""The shared helpers of the test modules live in modules not named test_* (pyproject.toml puts tests/ on the path,
so tests/tunisia_positions.py imports as `tunisia_positions`); no test module imports another. Those that assert
have their asserts rewritten as a test module's are, so a failing check shows the values it compared."""

import os

import pytest
import sizes

from warroom import describe_build

pytest.register_assert_rewrite(
    "conformance_checks",
    "observation_checks",
    "patton_positions",
    "saintlo_positions",
    "tunisia_positions",
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: a long statistical run (thousands of random games, a calibration); played at a smaller size unless "
        "the run selects it (pytest -m slow) or WARROOM_FULL_SIZE=1 is set (tests/sizes.py)",
    )
    selected = " ".join((config.getoption("markexpr") or "").split())
    sizes.FULL = ("slow" in selected and "not slow" not in selected) or os.environ.get("WARROOM_FULL_SIZE") == "1"


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Which build the run exercises (compiled or pure Python) and at which size the statistical tests play."""
    size = "full size" if sizes.FULL else "smaller size (full size: pytest -m slow)"
    return [f"warroom: {describe_build()}", f"statistical tests (mark slow): {size}"]


# no test depends on the machine's speed (issue 37, tests/patience.py): Hypothesis times no example (by default an
# example slower than 200 ms fails) and never calls its data generation too slow, on a machine however loaded
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("unhurried", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("unhurried")

# the proof game bluff is a registered game for the whole run, here and in every subprocess (tests/session_games.py)
from session_games import register_session_games  # noqa: E402

register_session_games()
