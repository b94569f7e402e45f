"""Refit the Patton evaluation's weights (`ai.EVAL_WEIGHTS`) from games, reproducibly.

    python -m warroom.games.patton.fit --games 300 --seed 0

Why a script: the evaluation is a logistic model of a few features per scenario, and its
weights are numbers learned from play, not judgement; whoever changes the map data, the
features or the heuristic must be able to learn them again and see how good they are.

Positions are taken where the search scores its leaves: the first state of each side's turn
(the leaf playout stops when the side to move changes). Games are heuristic against heuristic
with some exploration (a share of movement decisions picks another of the search's candidate
moves), so the positions cover what the search visits, not only the heuristic's own line.
Labels are the game's winner. The fit is Newton's method (iteratively reweighted least squares)
with a small ridge penalty, pure Python: a few features and some thousand rows need no library.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

from warroom.engine.chance import sample
from warroom.engine.ruleset import CHANCE

from . import ai
from .rules import PattonRules
from .state import MOVING

SCENARIOS = {"normandy": "red_towns", "bulge": "relief_and_hold", "sicily": "hold"}
EXPLORE = 0.15  # share of movement decisions that take another candidate move
RIDGE = 1e-3


def collect(scenario: str, games: int, seed: int, explore: float = EXPLORE) -> tuple[list[list[float]], list[float]]:
    """Feature rows at the start of each turn of `games` games, and each row's label (1: Allied won)."""
    rules = PattonRules()
    rows: list[list[float]] = []
    labels: list[float] = []
    for game in range(games):
        rng = random.Random(seed + game)
        s = rules.initial_state(scenario, {})
        mover, mine = -1, []
        while rules.to_act(s) is not None:
            side = rules.to_act(s)
            if s.mover != mover:
                mover = s.mover
                mine.append(ai.features(s))
            if side == CHANCE:
                rules.apply_chance(s, sample(rules.chance_outcomes(s), rng.random()), False)
                continue
            if s.phase == MOVING and rng.random() < explore:
                action = rng.choice(ai.candidate_actions(rules, s))
            else:
                action = ai.heuristic_policy(rules, s)[0]
            rules.apply(s, action, False)
        label = 1.0 if s.winner == 0 else 0.0
        rows += mine
        labels += [label] * len(mine)
    return rows, labels


def _predict(weights: Sequence[float], row: Sequence[float]) -> float:
    z = sum(w * x for w, x in zip(weights, row, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(rows: Sequence[Sequence[float]], labels: Sequence[float], ridge: float = RIDGE, steps: int = 30) -> list[float]:
    """Logistic regression weights by Newton's method (the first feature is the constant)."""
    d = len(rows[0])
    w = [0.0] * d
    for _ in range(steps):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for row, y in zip(rows, labels, strict=True):
            p = _predict(w, row)
            g = p - y
            h = p * (1.0 - p)
            for i in range(d):
                grad[i] += g * row[i]
                hi = h * row[i]
                hrow = hess[i]
                for j in range(i, d):
                    hrow[j] += hi * row[j]
        n = float(len(rows))
        for i in range(d):
            grad[i] = grad[i] / n + ridge * w[i] * (i > 0)
            for j in range(i, d):
                hess[i][j] = hess[i][j] / n + (ridge if i == j and i > 0 else 0.0)
                hess[j][i] = hess[i][j]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(si) for si in step) < 1e-7:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b (a symmetric positive definite) by Gaussian elimination with pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            m[col][col] = 1e-12
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def brier(weights: Sequence[float], rows: Sequence[Sequence[float]], labels: Sequence[float]) -> float:
    """Mean squared error of the predicted chance against the outcome (0.25: a coin)."""
    return sum((_predict(weights, r) - y) ** 2 for r, y in zip(rows, labels, strict=True)) / len(rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games a scenario to learn from")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--holdout", type=int, default=100, help="further games a scenario to measure the fit on")
    args = parser.parse_args(argv)
    for scenario, objective in SCENARIOS.items():
        rows, labels = collect(scenario, args.games, args.seed)
        weights = fit(rows, labels)
        test_rows, test_labels = collect(scenario, args.holdout, args.seed + args.games)
        base = min(max(sum(labels) / len(labels), 1e-3), 1 - 1e-3)  # one side won every game: still a finite constant
        old = ai.EVAL_WEIGHTS[objective]
        print(
            f"{scenario}: {len(rows)} positions; holdout Brier {brier(weights, test_rows, test_labels):.4f} "
            f"(weights in use {brier(old, test_rows, test_labels):.4f}, constant "
            f"{brier([math.log(base / (1 - base))] + [0.0] * (len(old) - 1), test_rows, test_labels):.4f})"
        )
        print(f'    "{objective}": {[round(w, 3) for w in weights]},')


if __name__ == "__main__":
    main()
