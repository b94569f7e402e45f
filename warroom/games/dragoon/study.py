"""The playout search against the heuristic on the same seeds and the same dice (issue 17's measurement).

    python -m warroom.games.dragoon.study --seeds 0-199 --budget-ms 300 --out games.jsonl

Each game's dice are a keyed table (search.PairedDice seeded from the game's seed: one die per turn and
roll), so the heuristic and the search meet the same luck for the same roll, and the difference of their
VP is their play, not their dice (with the match's sequential dice one different move reshuffles every
die after it). The search draws its own tables from `agent_seed(seed)`, never from the game's. One JSON
line per game: the seed, each player's VP, the search's decisions, moves off the heuristic, playouts and
seconds; a summary at the end (mean VP, 95% intervals, the paired difference).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from warroom.engine.ruleset import CHANCE

from .ai import heuristic_policy
from .rules import DragoonRules
from .search import CONFIDENCE, DROP, PairedDice, PlayoutSearch, ThinkingClock
from .state import DragoonState


def game_dice(rules: DragoonRules, seed: int) -> PairedDice:
    """Game `seed`'s dice: a keyed table from a hash of the seed (independent of any agent's seed)."""
    b = rules.board
    key = int.from_bytes(hashlib.sha256(f"dragoon study dice {seed}".encode()).digest()[:8], "big")
    return PairedDice(key, b.first_turn, b.last_turn, len(b.allied))


def play(rules: DragoonRules, seed: int, choose: Callable[[DragoonState], str]) -> int:
    """Play game `seed` to the end with `choose` deciding every choice of more than one move; its VP."""
    s = rules.initial_state()
    dice = game_dice(rules, seed)
    while True:
        side = rules.to_act(s)
        if side is None:
            return rules.victory_points(s)[0]
        if side == CHANCE:
            outcomes = rules.chance_outcomes(s)
            rules.apply_chance(s, outcomes[int(dice.uniform(s) * len(outcomes))][0], False)
        else:
            legal = rules.legal_actions(s)
            rules.apply(s, legal[0] if len(legal) == 1 else choose(s), False)


def compare(
    rules: DragoonRules,
    seed: int,
    *,
    budget_ms: float | None = None,
    playouts: int | None = None,
    confidence: float = CONFIDENCE,
    workers: int = 1,
    drop: float = DROP,
    clock: bool = False,
) -> dict[str, Any]:
    """One seed: the heuristic's VP and the search's VP on the same dice, and how the search played.
    With `clock`, `budget_ms` is a `ThinkingClock`'s increment (unspent time carried forward), not a
    limit on each decision."""
    from warroom.ai import agent_seed

    heuristic = play(rules, seed, lambda s: heuristic_policy(rules, s)[0])
    search = PlayoutSearch(rules, seed=agent_seed(seed), confidence=confidence, workers=workers, drop=drop)
    tally = {"decisions": 0, "off_heuristic": 0, "playouts": 0}
    thinking = ThinkingClock(budget_ms) if clock and budget_ms is not None else None
    start = time.perf_counter()

    def choose(s: DragoonState) -> str:
        if thinking is not None:
            choice = thinking.think(search, s)
        else:
            choice = search.choose(s, playouts=playouts, budget_ms=budget_ms)
        tally["decisions"] += 1
        tally["off_heuristic"] += choice.action != choice.heuristic
        tally["playouts"] += choice.playouts
        return choice.action

    vp = play(rules, seed, choose)
    row = {"seed": seed, "heuristic": heuristic, "search": vp, **tally, "seconds": time.perf_counter() - start}
    if thinking is not None:
        row["searched"] = thinking.searched
        row["searched_ms"] = round(thinking.spent_ms, 1)
    return row


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean VP of each player with a 95% interval, and the paired difference (search - heuristic)."""

    def interval(values: list[float]) -> tuple[float, float, float]:
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
        return round(mean, 3), round(mean - half, 3), round(mean + half, 3)

    search = [float(r["search"]) for r in rows]
    heuristic = [float(r["heuristic"]) for r in rows]
    decisions = sum(r["decisions"] for r in rows)
    return {
        "games": len(rows),
        "search": interval(search),
        "heuristic": interval(heuristic),
        "difference": interval([a - b for a, b in zip(search, heuristic, strict=True)]),
        "playouts_per_decision": round(sum(r["playouts"] for r in rows) / max(1, decisions), 1),
        "off_heuristic_per_game": round(sum(r["off_heuristic"] for r in rows) / max(1, len(rows)), 2),
        **_clock_summary(rows),
    }


def _clock_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """On a clock: the mean time a searched decision took, and the most one game's searched decisions took
    on average (what the clock promises to keep at its increment)."""
    timed = [r for r in rows if r.get("searched")]
    if not timed:
        return {}
    searched = sum(r["searched"] for r in timed)
    return {
        "ms_per_searched_decision": round(sum(r["searched_ms"] for r in timed) / searched, 1),
        "worst_game_ms_per_searched_decision": round(max(r["searched_ms"] / r["searched"] for r in timed), 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0-199", help="a range LO-HI (inclusive)")
    parser.add_argument("--budget-ms", type=float, default=None, help="the search's time a decision")
    parser.add_argument("--playouts", type=int, default=None, help="or a fixed number of rounds a decision")
    parser.add_argument("--confidence", type=float, default=CONFIDENCE)
    parser.add_argument("--drop", type=float, default=DROP, help="standard errors behind at which a move drops out")
    parser.add_argument(
        "--clock", action="store_true", help="--budget-ms as a clock's increment (unspent time carries)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes the search plays its playouts on")
    parser.add_argument("--out", default=None, help="append one JSON line per game here")
    args = parser.parse_args(argv)
    if args.clock and (args.budget_ms is None or args.playouts is not None):
        parser.error("--clock times the search: give it --budget-ms (its increment), and no --playouts")
    from warroom.games import get_ruleset

    rules = get_ruleset("dragoon")
    assert isinstance(rules, DragoonRules)
    lo, _, hi = args.seeds.partition("-")
    rows = []
    for seed in range(int(lo), int(hi or lo) + 1):
        row = compare(
            rules,
            seed,
            budget_ms=args.budget_ms,
            playouts=args.playouts,
            confidence=args.confidence,
            workers=args.workers,
            drop=args.drop,
            clock=args.clock,
        )
        rows.append(row)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
    print(json.dumps(summary(rows)))


if __name__ == "__main__":
    main()
