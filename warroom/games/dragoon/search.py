"""Operation Dragoon's search: policy improvement by paired heuristic playouts (issue 17).

At a decision the search plays each candidate move and then the heuristic to the end of the game,
many times, and plays the move whose playouts end with the most VP. Two things make that work in a
few hundred milliseconds, where MCTS with the projection at its leaves did not (NOTES.md, "Search"):

- **The leaf is the end of the game.** A playout is scored by the VP the rulebook counts (Dragoon:
  How to Win), not by the projection, which misjudges what the BOT's counterattacks and desperate
  lines will cost; VP, not win/draw/loss, because the mean VP is what the player is asked to raise.
- **The dice are paired.** Playout k of every candidate rolls from the same table of dice, one die
  for each (turn, roll): the RP roll of turn t, the BOT's line of turn t, unit u's attack on turn t
  (and its FFI re-roll), the BOT's attack on unit u. Two candidates then differ by their moves, not
  by their luck, so a small difference is seen in a few playouts (common random numbers).

The table is drawn from the search's own seeded generator, never from the match's dice: the search
cannot know the dice to come (tests/dragoon/test_search.py). The heuristic's move is played unless
another candidate beats it by `confidence` standard errors of the paired differences, so with few
playouts the player is the heuristic, and with many it corrects it where the playouts say so.
"""

from __future__ import annotations

import atexit
import itertools
import math
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from warroom.engine.ruleset import CHANCE

from .actions import END
from .ai import heuristic_policy
from .rules import DragoonRules
from .state import ATTACK_ROLL, BOT_ATTACK_ROLL, BOT_ROLL, RP_ROLL, DragoonState

CONFIDENCE = 1.0
"""Standard errors of the paired differences by which a move must beat the heuristic's to be played."""
OPENING_TURNS = 3
"""Turns at the start (the invasions and first attacks, 15-17 August) played by the heuristic alone:
there a playout is longest, so a time budget buys fewest, and the search's moves off the heuristic
lost 0.07 VP each (SE 0.04); after them they gained 0.05 (SE 0.025) (NOTES.md, "Search")."""
MIN_PLAYOUTS = 2
"""Playouts every candidate gets before the search may stop early on a time budget."""
MIN_EVIDENCE = 6
"""Paired playouts a move needs before it may be played over the heuristic's: with fewer the standard
error is itself a guess, and a time budget cut short by a loaded machine must fall back on the heuristic
(measured: at 300 ms under load, 2-3 rounds a decision, the search lost 0.17 VP a game, NOTES.md)."""
DEFAULT_PLAYOUTS = 16
"""Playouts per candidate when neither a count nor a time is given."""
RACE_AFTER = 4
"""Rounds after which candidates that cannot catch the heuristic's move stop being played."""
DROP = 1.0
"""A candidate drops out once its paired mean is this many standard errors below the heuristic's move."""
CLOCK_CAP = 5.0
"""The most a `ThinkingClock` lets one decision take, in increments: enough for a close decision to get
several times the rounds, and no decision waits longer than 1.5 s at 300 ms (the study's `--clock`)."""

Policy = Callable[[DragoonRules, DragoonState], tuple[str, str]]


def position_key(s: DragoonState) -> tuple[object, ...]:
    """Everything in s that the rules and the heuristic read, as one hashable value: two positions
    with the same key play on alike (the record of when each objective fell, which changes nothing, is
    left out)."""
    return (
        s.turn,
        s.phase,
        s.rp,
        *s.allied_pos,
        *s.stalled,
        *s.ffi,
        *s.spent,
        *s.german_loc,
        *s.desperate,
        *s.control,
        s.air_used,
        s.air_grounded,
        s.bad_weather_next,
        s.vi_corps_in_crest,
        s.entered_198,
        s.panzer_mode,
        s.bot_roll,
        s.attack,
        s.bot_attack,
        *s.bot_queue,
        len(s.bot_queue),
        *s.eliminated,
    )


class PairedDice:
    """The dice of one playout, fixed in advance per (turn, roll), so that playout k of every
    candidate meets the same luck wherever the moves put the rolls in the turn.

    Slots per turn: the RP roll, the BOT line, then per Allied unit its attack (first roll and FFI
    re-roll) and the BOT's attack on it (first roll and re-roll). A slot asked again in one playout
    (a second German attack on one unit in a turn) gives a number drawn from (seed, slot, count), so
    the dice stay a function of the table and the position, never of the order of the search."""

    __slots__ = ("seed", "_table", "_count", "_first", "_per_turn", "_units")

    def __init__(self, seed: int, first_turn: int, last_turn: int, units: int) -> None:
        rng = random.Random(seed)
        self.seed = seed
        self._per_turn = 2 + 4 * units
        self._table = [rng.random() for _ in range((last_turn - first_turn + 1) * self._per_turn)]
        self._first = first_turn
        self._units = units
        self._count: dict[int, int] = {}

    def uniform(self, s: DragoonState) -> float:
        """The uniform number of the roll pending in s (a chance node)."""
        phase = s.phase
        if phase == RP_ROLL:
            slot = 0
        elif phase == BOT_ROLL:
            slot = 1
        elif phase == ATTACK_ROLL:
            attack = s.attack
            assert attack is not None
            slot = 2 + 2 * attack.unit + int(attack.rerolled)
        elif phase == BOT_ATTACK_ROLL:
            bot_attack = s.bot_attack
            assert bot_attack is not None
            slot = 2 + 2 * self._units + 2 * bot_attack.target + int(bot_attack.rerolled)
        else:
            slot = self._per_turn - 1
        index = (s.turn - self._first) * self._per_turn + slot
        seen = self._count.get(index, 0)
        self._count[index] = seen + 1
        if seen == 0 and 0 <= index < len(self._table):
            return self._table[index]
        return random.Random(f"{self.seed} {index} {seen}").random()


class Playouts:
    """Heuristic playouts to the end of the game, with two memories that spare repeated work:

    - the heuristic's move per position (it is a function of the position alone), so a position met
      again, by another candidate or another dice table, costs a dictionary look-up;
    - the final VP per (dice table, position at the start of a turn): a candidate whose playout
      reaches a turn exactly as another candidate's playout with the same dice did ends as it did
      (no die of the new turn has been rolled yet, and the dice are a function of the table alone).
    Both are cleared when they grow past `limit` entries."""

    def __init__(self, rules: DragoonRules, policy: Policy = heuristic_policy, limit: int = 200_000) -> None:
        self.rules = rules
        self.policy = policy
        self.limit = limit
        self.moves: dict[tuple[object, ...], str] = {}
        self.ends: dict[tuple[object, ...], int] = {}

    def move(self, s: DragoonState) -> str:
        """The heuristic's move in s (remembered)."""
        key = position_key(s)
        move = self.moves.get(key)
        if move is None:
            if len(self.moves) > self.limit:
                self.moves.clear()
            move = self.moves[key] = self.policy(self.rules, s)[0]
        return move

    def play(self, s: DragoonState, dice: PairedDice) -> int:
        """Play s (changed in place) to the end with the heuristic and `dice`; its VP (Dragoon: How to Win)."""
        rules = self.rules
        to_act, legal_actions, apply, apply_chance = rules.to_act, rules.legal_actions, rules.apply, rules.apply_chance
        ends, seed = self.ends, dice.seed
        visited: list[tuple[object, ...]] = []
        turn = -1
        while True:
            if s.turn != turn:
                turn = s.turn
                key = (seed, *position_key(s))
                vp = ends.get(key)
                if vp is not None:
                    break
                visited.append(key)
            side = to_act(s)
            if side is None:
                vp = rules.victory_points(s)[0]
                break
            if side == CHANCE:
                outcomes = rules.chance_outcomes(s)
                apply_chance(s, outcomes[int(dice.uniform(s) * len(outcomes))][0], False)
            else:
                legal = legal_actions(s)
                apply(s, legal[0] if len(legal) == 1 else self.move(s), False)
        if len(ends) > self.limit:
            ends.clear()
        for key in visited:
            ends[key] = vp
        return vp


@dataclass
class Choice:
    """What one search found: the move, the heuristic's, and each candidate's playout VP."""

    action: str
    heuristic: str
    samples: dict[str, list[int]] = field(default_factory=dict)
    seconds: float = 0.0

    def mean(self, action: str) -> float:
        values = self.samples.get(action, [])
        return sum(values) / len(values) if values else math.nan

    @property
    def playouts(self) -> int:
        return sum(len(v) for v in self.samples.values())


class PlayoutSearch:
    """Paired heuristic playouts from each candidate; the heuristic's move unless one is confidently better.

    `policy` is the heuristic (the move preferred, and the playouts' player); `candidates` the moves
    weighed against its move (`candidate_moves` by default); in the first `opening_turns` turns the
    heuristic's move is played without a search.

    `choose(state, playouts=n)` plays n playouts per candidate (a fixed count, for studies);
    `choose(state, budget_ms=t)` plays rounds (playout k of every candidate with dice table k) until
    the time is up. With `workers` > 1, that many processes play the rounds side by side (this one and
    `workers - 1` helpers, `_Helper`): round k here, rounds k+1.. in the helpers, each with its own
    memories, the racing decided on all of them; the rounds and their tables are the same as with one
    worker, only more of them fit in the time.

    Dice table k is the same at every decision of a game (drawn once from `seed`):
    the memories of `Playouts` then serve later decisions too, and no table depends on the match."""

    def __init__(
        self,
        rules: DragoonRules,
        *,
        seed: int | None = None,
        confidence: float = CONFIDENCE,
        drop: float = DROP,
        candidates: Callable[[DragoonRules, DragoonState], Sequence[str]] | None = None,
        policy: Policy = heuristic_policy,
        opening_turns: int = OPENING_TURNS,
        workers: int = 1,
    ) -> None:
        if workers > 1 and policy is not heuristic_policy:
            raise ValueError("helper processes play the heuristic only: a search with its own policy has workers=1")
        self.rules = rules
        self.workers = max(1, workers)
        self.opening_end = rules.board.first_turn + opening_turns
        self.rng = random.Random(seed)
        self.confidence = confidence
        self.drop = drop
        self.candidates = candidates or candidate_moves
        self.playouts = Playouts(rules, policy)
        self.table_seeds: list[int] = []

    def table_seed(self, k: int) -> int:
        """The seed of dice table k of this search (drawn from its own generator when first asked for)."""
        while len(self.table_seeds) <= k:
            self.table_seeds.append(self.rng.getrandbits(64))
        return self.table_seeds[k]

    def table(self, seed: int) -> PairedDice:
        b = self.rules.board
        return PairedDice(seed, b.first_turn, b.last_turn, len(b.allied))

    def choose(self, state: DragoonState, *, playouts: int | None = None, budget_ms: float | None = None) -> Choice:
        """The move to play in `state`, with the playouts that chose it (none where the heuristic's move is
        played unsearched: in the opening, or with a single candidate)."""
        rules = self.rules
        legal = rules.legal_actions(state)
        preferred = legal[0] if len(legal) == 1 else self.playouts.move(state)
        choice = Choice(preferred, preferred)
        if state.turn < self.opening_end:
            return choice
        moves = list(dict.fromkeys([preferred, *self.candidates(rules, state)]))
        if len(moves) == 1:
            return choice
        start = time.perf_counter()
        deadline = start + budget_ms / 1000.0 if budget_ms is not None else math.inf
        limit = playouts if playouts is not None else (math.inf if budget_ms is not None else DEFAULT_PLAYOUTS)
        choice.samples = self._race(state, moves, preferred, limit, deadline)
        choice.action = confident_best(choice.samples, preferred, self.confidence)
        choice.seconds = time.perf_counter() - start
        return choice

    def _race(
        self, state: DragoonState, moves: list[str], preferred: str, limit: float, deadline: float
    ) -> dict[str, list[int]]:
        """Each move's playout VP: rounds of paired playouts until `limit` rounds, the deadline, or one move
        left racing (after `RACE_AFTER` rounds the moves that cannot catch `preferred` drop out)."""
        samples: dict[str, list[int]] = {m: [] for m in moves}
        racing = list(moves)
        helpers = _helpers(self.workers - 1) if self.workers > 1 else []
        decision = _send_position(helpers, self.rules, state) if helpers else 0
        k = 0
        while k < limit and len(racing) > 1:
            # rounds k+1.. go to the helpers (one each) while this process plays round k
            shared = [h for h in helpers if h.alive][: int(min(limit - k - 1, len(helpers)))]
            self._ask_helpers(shared, decision, racing, k, deadline)
            complete = self._play_round(state, racing, samples, k, deadline)
            k, complete = _take_answers(shared, racing, samples, k + 1, complete)
            if not complete or (k >= MIN_PLAYOUTS and time.perf_counter() >= deadline):
                break
            if k >= RACE_AFTER:
                racing = [m for m in racing if m == preferred or _still_in(samples[m], samples[preferred], self.drop)]
        return samples

    def _ask_helpers(self, shared: list[_Helper], decision: int, racing: list[str], k: int, deadline: float) -> None:
        """Ask helper j for round k+1+j of the racing moves, with that round's dice table."""
        for j, helper in enumerate(shared):
            whole = k + 1 + j < MIN_PLAYOUTS  # the first rounds are played whole, as here
            helper.ask(decision, racing, self.table_seed(k + 1 + j), deadline - time.perf_counter(), whole)

    def _play_round(
        self, state: DragoonState, racing: list[str], samples: dict[str, list[int]], k: int, deadline: float
    ) -> bool:
        """Round k in this process: playout k of each racing move, with dice table k; False if the deadline
        cut it short (the paired comparison uses only complete pairs)."""
        rules = self.rules
        dice_seed = self.table_seed(k)
        for move in racing:
            s = rules.clone(state)
            rules.apply(s, move, False)
            samples[move].append(self.playouts.play(s, self.table(dice_seed)))
            if k >= MIN_PLAYOUTS and time.perf_counter() >= deadline:
                return False
        return True


def _take_answers(
    shared: list[_Helper], racing: list[str], samples: dict[str, list[int]], k: int, complete: bool
) -> tuple[int, bool]:
    """The helpers' rounds, in order, added to `samples` while each is whole: the rounds played so far (k
    before them), and whether every round was whole."""
    answers = [helper.answer() for helper in shared]
    for answer in answers:
        if not complete or answer is None:
            complete = False
            continue
        for move, vp in zip(racing, answer, strict=True):
            samples[move].append(vp)
        k += 1
    return k, complete


class ThinkingClock:
    """A time control of `increment_ms` for each decision the search weighs, the unspent time carried
    forward: a chess clock's increment with no starting time. The search then thinks no longer in all
    than `increment_ms` times its searched decisions (an overrun, such as the `MIN_PLAYOUTS` rounds every
    decision plays on a loaded machine, is owed by the next ones), but may spend on a close decision what
    the clear ones left (at most `cap_ms` on one).

    Why: with a fixed budget a decision most candidates of which drop out in a few rounds ends long
    before its time (60-115 ms of 300 on average), while a close one is cut off, and the offline measure
    found the search's gain growing with the time of exactly those decisions. Measured, it gained no more
    than the fixed budget (NOTES.md, "A clock, tried"), so the agent keeps the fixed budget and the clock
    is an option of the study. Decisions the search does not weigh (the opening, a single candidate)
    neither bring nor spend time."""

    def __init__(self, increment_ms: float, cap_ms: float | None = None) -> None:
        self.increment_ms = increment_ms
        self.cap_ms = cap_ms if cap_ms is not None else CLOCK_CAP * increment_ms
        self.saved_ms = 0.0
        self.searched = 0
        self.spent_ms = 0.0

    def allowance_ms(self) -> float:
        """The time the next decision may take: its increment and what is saved, at most `cap_ms`."""
        return min(self.cap_ms, self.increment_ms + self.saved_ms)

    def think(self, search: PlayoutSearch, state: DragoonState) -> Choice:
        """The search's choice in `state` within the clock's allowance, charged to the clock."""
        start = time.perf_counter()
        choice = search.choose(state, budget_ms=self.allowance_ms())
        if choice.samples:
            spent = (time.perf_counter() - start) * 1000.0
            self.searched += 1
            self.spent_ms += spent
            self.saved_ms += self.increment_ms - spent  # an overrun is owed by the next decisions
        return choice


class _Helper:
    """A process that plays whole rounds of playouts for the search: sent a position once a decision, then
    (racing moves, dice table, time left), it answers each move's VP, or None for a round cut short.

    A fresh interpreter (not a fork of a server's threads, and not multiprocessing's spawn, which would
    import the caller's main module again), talking over a socket pair."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        code = f"from warroom.games.dragoon.search import _helper_main; _helper_main({theirs.fileno()})"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL
        )
        theirs.close()
        self.conn = Connection(ours.detach())
        self.alive = True
        self.pending = False

    def send(self, message: tuple[object, ...]) -> None:
        try:
            self.conn.send(message)
        except (OSError, EOFError):
            self.alive = False

    def ask(self, decision: int, moves: list[str], dice_seed: int, seconds: float, whole: bool) -> None:
        self.send(("round", decision, moves, dice_seed, seconds, whole))
        self.pending = self.alive

    def answer(self) -> list[int] | None:
        if not self.pending:
            return None
        self.pending = False
        try:
            reply = self.conn.recv()
        except (OSError, EOFError):
            self.alive = False
            return None
        return reply if isinstance(reply, list) else None

    def close(self) -> None:
        self.send(("stop",))
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()


_HELPERS: list[_Helper] = []
_DECISIONS = itertools.count(1)


def _helpers(count: int) -> list[_Helper]:
    """`count` helper processes for this process's searches, started on first use and kept (their
    memory of the heuristic's moves stays good); one that died is replaced."""
    _HELPERS[:] = [h for h in _HELPERS if h.alive and h.process.poll() is None]
    while len(_HELPERS) < count:
        _HELPERS.append(_Helper())
    return _HELPERS[:count]


def _send_position(helpers: list[_Helper], rules: DragoonRules, state: DragoonState) -> int:
    """Send the position to decide on to every helper; its decision number."""
    decision = next(_DECISIONS)
    data = rules.state_to_json(state)
    for helper in helpers:
        helper.send(("position", decision, data))
    return decision


@atexit.register
def _stop_helpers() -> None:
    for helper in _HELPERS:
        helper.close()
    _HELPERS.clear()


def _helper_main(fd: int) -> None:
    """A helper's loop: positions and rounds in, VP out, over the socket `fd` (see `_Helper`)."""
    from warroom.games import get_ruleset

    conn = Connection(fd)
    rules = get_ruleset("dragoon")
    assert isinstance(rules, DragoonRules)
    playouts = Playouts(rules)
    b = rules.board
    decision, state = -1, None
    while True:
        try:
            message = conn.recv()
        except (OSError, EOFError, KeyboardInterrupt):
            return
        if message[0] == "stop":
            return
        if message[0] == "position":
            decision, state = message[1], rules.state_from_json(message[2])
            continue
        _, asked, moves, dice_seed, seconds, whole = message
        deadline = time.perf_counter() + seconds
        if asked != decision or state is None:
            conn.send(None)
            continue
        values: list[int] = []
        for move in moves:
            s = rules.clone(state)
            rules.apply(s, move, False)
            values.append(playouts.play(s, PairedDice(dice_seed, b.first_turn, b.last_turn, len(b.allied))))
            if not whole and time.perf_counter() >= deadline:
                break
        conn.send(values if len(values) == len(moves) else None)  # a round cut short is not paired


def candidate_moves(rules: DragoonRules, state: DragoonState) -> list[str]:
    """The moves weighed against the heuristic's: every legal one but `end` (kept only where the heuristic
    itself ends). RP cannot be saved (Using Action Charts), so ending with RP in hand only throws them
    away; measured, the search's early ends lost 0.35 VP each (NOTES.md, "Search")."""
    return [move for move in rules.legal_actions(state) if move != END]


def _paired(values: list[int], base: list[int]) -> tuple[float, float, int]:
    """Mean and standard error of the paired differences values[k] - base[k], and their number."""
    n = min(len(values), len(base))
    if n < 2:
        return 0.0, math.inf, n
    diffs = [values[k] - base[k] for k in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n), n


def _still_in(values: list[int], base: list[int], z: float) -> bool:
    """Whether a candidate may still beat the heuristic's move: its paired mean is not `z` standard
    errors below zero (a move that has tied every playout so far, a mere reordering, drops out)."""
    mean, se, _ = _paired(values, base)
    return mean + z * se > 0


def confident_best(samples: dict[str, list[int]], preferred: str, z: float) -> str:
    """The candidate with the best paired mean over `preferred`, if it beats it by z standard errors."""
    base = samples[preferred]
    best, best_mean = preferred, 0.0
    for move, values in samples.items():
        if move == preferred:
            continue
        mean, se, n = _paired(values, base)
        if n >= MIN_EVIDENCE and mean > best_mean and mean > z * se:
            best, best_mean = move, mean
    return best


class SearchAgent:
    """The playout search as an agent (`warroom.ai.get_agent("search", "dragoon")`): thinks for
    `budget_ms` a decision, or plays `simulations` playouts in all (shared out as rounds over the
    candidates); with neither, `DEFAULT_PLAYOUTS` rounds."""

    name = "search"

    def __init__(
        self,
        rules: DragoonRules,
        *,
        budget_ms: int | None = None,
        simulations: int | None = None,
        seed: int | None = None,
    ) -> None:
        self.rules = rules
        self.budget_ms = budget_ms
        self.simulations = simulations
        self.searcher = PlayoutSearch(rules, seed=seed)
        self.last: Choice | None = None

    def choose(self, match: object) -> tuple[str, str]:
        from warroom.ai import decision_state

        return self.choose_state(decision_state(match))

    def choose_state(self, state: DragoonState) -> tuple[str, str]:
        """The move for a bare position (no Match needed), and why in the player's words."""
        rounds = None
        if self.simulations is not None:
            width = max(1, len(self.rules.legal_actions(state)))
            rounds = max(MIN_PLAYOUTS, -(-self.simulations // width))
        elif self.budget_ms is None:
            rounds = DEFAULT_PLAYOUTS
        choice = self.last = self.searcher.choose(state, playouts=rounds, budget_ms=self.budget_ms)
        return choice.action, _why(choice)


def _why(choice: Choice) -> str:
    """The search's reason in plain words: the playouts' VP for the move, and against the heuristic's."""
    if not choice.samples:
        return "Search: the heuristic's move (in the opening, or the only move worth weighing, it is not searched)."
    n = len(choice.samples[choice.action])
    mine = f"{choice.mean(choice.action):.2f} VP over {n} playouts to the end"
    if choice.action == choice.heuristic:
        return f"Search: the heuristic's move holds ({mine}; no other move beat it by a clear margin)."
    return (
        f"Search: {mine}, against {choice.mean(choice.heuristic):.2f} VP for the heuristic's "
        f"{choice.heuristic!r} on the same dice."
    )


def search_agent(
    rules: DragoonRules, *, budget_ms: int | None = None, simulations: int | None = None, seed: int | None = None
) -> SearchAgent:
    """The spec's `search` hook (AgentHooks.search): the playout search as an agent."""
    return SearchAgent(rules, budget_ms=budget_ms, simulations=simulations, seed=seed)
