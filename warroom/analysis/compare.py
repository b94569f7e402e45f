"""Comparing two settings of a rules option: the same study twice, and the differences with their intervals.

    comparison = compare_options(game, 1000, [{key: value_a}, {key: value_b}])  # one rules option, two settings
    comparison.differences()   # per outcome: rate A - rate B (95% CI); per number: mean A - mean B (95% CI)

A designer asks "what does this rule change do to balance?". Both studies play the same seeds with
the same agents (`warroom simulate GAME --compare-option KEY=A --compare-option KEY=B`), so the only
thing that differs is the option; the intervals are those of warroom.analysis.stats (the two
studies treated as independent samples, conservative for shared seeds). Differences are always the
first setting minus the second.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .simulate import SimulationError, SimulationReport, simulate
from .stats import mean_difference, rate_difference


def setting_label(options: Mapping[str, Any]) -> str:
    """An option setting as the command line writes it: `turn_limit=10, advanced=true`."""
    return ", ".join(
        f"{key}={json.dumps(value) if not isinstance(value, str) else value}" for key, value in options.items()
    )


@dataclass
class Arm:
    """One setting of the comparison and the study played under it."""

    label: str
    setting: dict[str, Any]
    report: SimulationReport


@dataclass
class Comparison:
    """Two studies of one game that differ only in a rules setting, seed for seed."""

    arms: list[Arm]

    @property
    def first(self) -> SimulationReport:
        return self.arms[0].report

    def outcomes(self) -> list[str]:
        """Every outcome row either study has, in the first study's order."""
        return list(dict.fromkeys(name for arm in self.arms for name in arm.report.outcomes))

    def numbers(self) -> list[str]:
        """The numeric summary fields both studies report (VP, units lost, ...)."""
        return [key for key in self.first.numbers if all(key in arm.report.numbers for arm in self.arms)]

    def differences(self) -> dict[str, dict[str, dict[str, float]]]:
        """{"rates": {outcome: {a, b, difference, low, high}}, "means": {number: {...}}}: first minus second."""
        a, b = (arm.report for arm in self.arms)
        rates = {}
        for name in self.outcomes():
            d, low, high = rate_difference(a.outcomes.get(name, 0), a.games, b.outcomes.get(name, 0), b.games)
            rates[name] = {"a": a.rate(name), "b": b.rate(name), "difference": d, "low": low, "high": high}
        means = {}
        for key in self.numbers():
            xs, ys = _values(a, key), _values(b, key)
            d, low, high = mean_difference(xs, ys)
            means[key] = {
                "a": statistics.fmean(xs),
                "b": statistics.fmean(ys),
                "difference": d,
                "low": low,
                "high": high,
            }
        return {"rates": rates, "means": means}

    def to_json(self) -> dict[str, Any]:
        return {
            "compare": [
                {"setting": arm.setting, "label": arm.label, "report": arm.report.to_json()} for arm in self.arms
            ],
            "differences": self.differences(),
        }

    def render(self, console: Any) -> None:
        """Each study's tables, then the differences (first setting minus second) with their 95% intervals."""
        from rich.table import Table

        for arm in self.arms:
            console.rule(f"[bold]{arm.label}[/bold]")
            arm.report.render(console)
        diffs = self.differences()
        a, b = (arm.label for arm in self.arms)
        table = Table(title=f"Difference: ({a}) minus ({b}), 95% confidence intervals")
        for column in ("", a, b, "difference", "95% CI"):
            table.add_column(column, justify="left" if not column else "right")
        for name, row in diffs["rates"].items():
            label = name if name == "draw" else f"{self.first.name(name)} victory"
            table.add_row(
                label,
                f"{row['a']:.1%}",
                f"{row['b']:.1%}",
                f"{row['difference']:+.1%}",
                f"{row['low']:+.1%} to {row['high']:+.1%}",
            )
        for key, row in diffs["means"].items():
            table.add_row(
                f"mean {key}",
                f"{row['a']:.2f}",
                f"{row['b']:.2f}",
                f"{row['difference']:+.2f}",
                f"{row['low']:+.2f} to {row['high']:+.2f}",
            )
        console.print(table)


def _values(report: SimulationReport, key: str) -> list[float]:
    return [float(game[key]) for game in report.per_game]


def compare_options(
    game: str,
    games: int,
    settings: Sequence[Mapping[str, Any]],
    *,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    **study: Any,
) -> Comparison:
    """Play the same study (`simulate`'s arguments in `study`: agent, jobs, seed, scenario, ...) under
    each of two settings, each added to the common `options`; `progress(done)` counts both studies' games."""
    if len(settings) != 2:
        raise SimulationError(f"a comparison has two settings, not {len(settings)}")
    common = dict(options or {})
    for setting in settings:
        clash = sorted(set(setting) & set(common))
        if clash:
            raise SimulationError(f"{clash[0]} is both a setting compared and an option of every game: give it once")
    if dict(settings[0]) == dict(settings[1]):
        raise SimulationError(f"the two settings compared are the same ({setting_label(settings[0])})")
    arms = []
    for k, setting in enumerate(settings):
        done_before = k * games
        tick = (lambda done, before=done_before: progress(before + done)) if progress is not None else None
        report = simulate(game, games, progress=tick, options={**common, **setting}, **study)
        arms.append(Arm(setting_label(setting), dict(setting), report))
    return Comparison(arms)


__all__ = ["Arm", "Comparison", "compare_options", "setting_label"]
