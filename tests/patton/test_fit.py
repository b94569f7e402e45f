"""The evaluation's weights are learned, reproducibly (`python -m warroom.games.patton.fit`)."""

from __future__ import annotations

import math
import random

from warroom.games.patton import ai, fit


def test_logistic_fit_recovers_known_weights():
    rng = random.Random(0)
    truth = [-0.5, 2.0, -1.0]
    rows, labels = [], []
    for _ in range(4000):
        row = [1.0, rng.gauss(0, 1), rng.gauss(0, 1)]
        p = 1 / (1 + math.exp(-sum(w * x for w, x in zip(truth, row, strict=True))))
        rows.append(row)
        labels.append(1.0 if rng.random() < p else 0.0)
    weights = fit.fit(rows, labels)
    assert all(abs(w - t) < 0.15 for w, t in zip(weights, truth, strict=True)), weights
    assert fit.brier(weights, rows, labels) < fit.brier([0.0, 0.0, 0.0], rows, labels)


def test_positions_are_the_evaluations_features_labelled_by_the_winner():
    rows, labels = fit.collect("bulge", 2, seed=11)
    assert rows and len(rows) == len(labels)
    assert all(len(row) == len(ai.EVAL_WEIGHTS["relief_and_hold"]) and row[0] == 1.0 for row in rows)
    assert set(labels) <= {0.0, 1.0}
    assert fit.collect("bulge", 2, seed=11) == (rows, labels)  # reproducible


def test_fit_prints_weights_for_every_scenario(capsys):
    fit.main(["--games", "2", "--holdout", "1", "--seed", "5"])
    out = capsys.readouterr().out
    for objective in ai.EVAL_WEIGHTS:
        assert f'"{objective}": [' in out
