"""Match: a ruleset, its state, a dice source and the record; what every front end drives."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import chain
from .dice import HMAC_SHA256, DiceSource, ScriptedDice, is_key, make_dice
from .errors import (
    GameOverError,
    IllegalActionError,
    RecordError,
    UndoLockedError,
    WarroomError,
    WrongSideError,
    quoted,
)
from .record import Record
from .ruleset import CHANCE, DICE_SIDE, Event, Result, Ruleset
from .spec import GameSpec

UNDO_LOCKED = (
    "nothing to undo since the last die roll, the last look at something hidden or the last decision the rules "
    "make final; undo never goes back past a roll, a reveal or such a decision"
)
SeenHidden = Callable[[Any, Any, str], frozenset[Any]]
"""A game's `seen_hidden` (warroom.engine.spec): what a side sees now of what the rules may hide."""
FinalDecision = Callable[[Any, Any, str], str | None]
"""A game's `final_decision` (warroom.engine.spec): the rule that makes a decision final, or None."""
NameSeen = Callable[[Any, Any, str, frozenset[Any]], str]
"""A game's `name_seen` (warroom.engine.spec): what a side has just seen of the hidden, in words."""
EntryOutcomes = Callable[[Any, Any], Sequence[int] | None]
"""A game's `entry_outcomes` (warroom.engine.spec): what a chance node typed in by hand offers."""


@dataclass(frozen=True, slots=True)
class MatchHooks:
    """The parts of a game's spec a match consults while it is played: what each side sees of the hidden (a
    reveal locks undo) and how to name it, which decisions the rules make final, and what a chance node typed
    in by hand offers. A match is handed them (`MatchHooks.of(spec)`, as `warroom.new_game` and `warroom.load`
    do) and never looks a game up; a match without them (a toy ruleset, a playout) has none of these rules."""

    seen_hidden: SeenHidden | None = None
    name_seen: NameSeen | None = None
    final_decision: FinalDecision | None = None
    entry_outcomes: EntryOutcomes | None = None

    @classmethod
    def of(cls, spec: GameSpec[Any]) -> MatchHooks:
        """The hooks a game's spec declares (each None where it declares none)."""
        return cls(spec.seen_hidden, spec.name_seen, spec.final_decision, spec.entry_outcomes)


NO_HOOKS = MatchHooks()
"""A match of a game that hides nothing, makes no decision final and offers a die's faces when typed in."""


class Match:
    """One game in progress.

    Decisions go through `play`; with seeded or scripted dice every chance node that follows is
    rolled at once, so a `play` is one decision plus its dice. With manual dice a chance node is a
    decision of the side `dice`, whose legal actions are `roll 1`..`roll N`.
    """

    def __init__(
        self,
        ruleset: Ruleset[Any],
        state: Any,
        *,
        scenario: str | None = None,
        options: dict[str, Any] | None = None,
        seed: int | str | None = None,
        dice: DiceSource | None = None,
        position: dict[str, Any] | None = None,
        keep_log: bool = True,
        version: str = "",
        hooks: MatchHooks = NO_HOOKS,
    ) -> None:
        self.ruleset = ruleset
        self.hooks = hooks
        self.state = state
        self.scenario = scenario
        self.options = dict(options or {})
        self.seed = seed
        self.dice = dice if dice is not None else make_dice("auto", seed)
        self.position = position
        self.keep_log = keep_log
        self.version = version
        self.log: list[Event] = []
        self._initial = ruleset.clone(state)
        self._actions: list[str] = []
        self._dice: list[int] = []
        self._locked = 0  # decisions before this index are behind a die roll: undo never crosses them
        self._lock_reason = ""  # what set `_locked` last, in words (a log kept only): the undo refusal says it
        self._side_of: Any = None  # the state `_side` was read from (see `_note_side`)
        self._side: str | None = None
        self._chain: tuple[str, bytes, list[str]] | None = None  # see `moves_chain`
        # where a decision can show its side something hidden, that decision locks undo; looked up only for
        # a match someone plays (a log kept), never for the playouts of studies and search
        self._seen_hidden = hooks.seen_hidden if keep_log else None
        self._final = hooks.final_decision if keep_log else None
        if not self.dice.manual and ruleset.to_act(state) == CHANCE:
            # a position may start at a chance node: its rolls are events of the game like any other
            self._roll_chance(self.log if keep_log else [])

    # -- who acts and what they may do -------------------------------------------------------
    def _note_side(self) -> str | None:
        """Read the ruleset's `to_act` (CHANCE included) and remember it until the match changes its state.

        A playout asks who acts several times a decision (is it over, the legal actions, the play's own
        check) of a state that has not changed since. Every change goes through this class, which forgets
        the side (`_side_of = None`) or notes the new one; a state put in `self.state` from outside is not
        the one noted (`_side_of`), so it is read afresh."""
        state = self.state
        side = self._side = self.ruleset.to_act(state)
        self._side_of = state
        return side

    @property
    def to_act(self) -> str | None:
        side = self._side if self._side_of is self.state else self._note_side()
        if side == CHANCE and self.dice.manual:
            return DICE_SIDE
        return side

    @property
    def over(self) -> bool:
        return (self._side if self._side_of is self.state else self._note_side()) is None

    @property
    def result(self) -> Result | None:
        return self.ruleset.result(self.state)

    def legal_actions(self) -> list[str]:
        """The legal action ids now (a fresh list: the caller may keep or change it)."""
        side = self._side if self._side_of is self.state else self._note_side()
        if side == CHANCE:
            if not self.dice.manual:
                return []
            return [f"roll {value}" for value in self.entry_outcomes()]
        if side is None:
            return []
        return self.ruleset.legal_actions(self.state)  # a fresh list already (the Ruleset contract)

    # -- playing ------------------------------------------------------------------------------
    def play(self, action: str, side: str | None = None) -> list[Event]:
        """Apply one decision (and, with automatic dice, the rolls it causes); return the events."""
        rs, state = self.ruleset, self.state
        to_act = self._side if self._side_of is state else self._note_side()
        if to_act is None:
            raise GameOverError(f"the game is over; {quoted(action)} cannot be played")
        if to_act == CHANCE:
            if not self.dice.manual:  # pragma: no cover - automatic dice never leave a chance node pending
                raise IllegalActionError("a die roll is pending")
            if side is not None and side != DICE_SIDE:
                raise WrongSideError(f"a die roll is pending: the side 'dice' must enter it, not {side}")
            return self._play_manual_roll(action)
        if side is not None and side != to_act:
            raise WrongSideError(f"it is {to_act}'s decision, not {side}'s")
        # a scripted die the roll cannot show is refused after the decision was applied: keep a copy
        # to take the whole play back, so a refused play changes nothing (only while a script lasts)
        dice, seen, locked = self.dice, self._seen_hidden, self._locked
        backup = None  # seeded dice (`plain`), the path of every playout, need none
        if not dice.plain and isinstance(dice, ScriptedDice) and dice.remaining > 0:
            backup = (rs.clone(state), _copy_dice(dice), len(self._dice))
        self._side_of = None  # the state is about to change, even if `apply` raises half-way
        before = _seen_by_all(seen, rs, state) if seen is not None else None
        final = self._final is not None and self._final(rs, state, action) is not None
        events = rs.apply(state, action, self.keep_log)
        self._actions.append(action)
        if final or (before is not None and _revealed(seen, rs, state, before)):
            # a side saw what was hidden (that look cannot be taken back), or the rules make the decision final
            self._locked = len(self._actions)
            self._lock_reason = _lock_reason(rs, state, action, seen, self.hooks.name_seen, before, final)
        side = self._side = rs.to_act(state)
        self._side_of = state
        if side == CHANCE and not dice.manual:
            try:
                self._roll_chance(events)
            except WarroomError:
                if backup is not None:
                    self.state, self.dice, rolled = backup
                    del self._actions[-1], self._dice[rolled:]
                    self._locked = locked
                    self._forget_chain()
                raise
        if self.keep_log:
            self.log.extend(events)
        return events

    def _roll_chance(self, events: list[Event]) -> None:
        """Roll every chance node from here on, adding what happens to `events`."""
        rs, state, keep_log = self.ruleset, self.state, self.keep_log
        to_act, outcomes, apply_chance = rs.to_act, rs.chance_outcomes, rs.apply_chance
        roll, rolled = self.dice.roll, self._dice.append
        self._side_of = None  # the state changes below, even if a roll is refused half-way
        while True:  # the hot path of every playout: methods bound once; called at a chance node
            phase = rs.turn_and_phase(state)[1] if keep_log else ""
            outcome = roll(outcomes(state))
            happened = apply_chance(state, outcome, keep_log)
            if happened:
                events.extend(happened)
            rolled(outcome)
            if keep_log:
                self._lock_reason = _roll_reason(phase, outcome)
            side = to_act(state)
            if side != CHANCE:
                break
        self._side, self._side_of = side, state
        self._locked = len(self._actions)

    def entry_outcomes(self) -> list[int]:
        """The outcomes a pending chance node typed in by hand offers (`legal_actions`' `roll N`): the game's
        `entry_outcomes` where listing the real ones would show what the rules hide, else those that can come up."""
        offered = self.hooks.entry_outcomes
        if offered is not None:
            listed = offered(self.ruleset, self.state)
            if listed is not None:
                return list(listed)
        return [value for value, _ in self.ruleset.chance_outcomes(self.state)]

    def _play_manual_roll(self, action: str) -> list[Event]:
        outcomes = self.entry_outcomes()
        parts = action.split()
        if len(parts) != 2 or parts[0] != "roll" or not parts[1].lstrip("-").isdigit():
            raise IllegalActionError(
                f"a die roll is pending: play 'roll N' with N from {outcomes[0]} to {outcomes[-1]}, not "
                f"{quoted(action)}"
            )
        value = int(parts[1])
        if value not in outcomes:
            raise IllegalActionError(f"die value {value} is out of range: this roll is {outcomes[0]} to {outcomes[-1]}")
        if all(value != possible for possible, _ in self.ruleset.chance_outcomes(self.state)):
            # offered but not possible now (a card kind none of which is left): said without naming what is
            raise IllegalActionError(f"{value} cannot come up now: check what was turned up and enter it again")
        self._side_of = None
        phase = self.ruleset.turn_and_phase(self.state)[1]
        events = self.ruleset.apply_chance(self.state, value, self.keep_log)
        self._dice.append(value)
        self._locked = len(self._actions)
        self._lock_reason = _roll_reason(phase, value)
        if self.keep_log:
            self.log.extend(events)
        return events

    # -- undo ---------------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return self.undoable > 0

    @property
    def undoable(self) -> int:
        """How many decisions in a row `undo` may take back now (back to the last die roll or reveal)."""
        return len(self._actions) - self._locked

    @property
    def undo_locked(self) -> str:
        """Why undo may go back no further, in words: what the last die roll, reveal or final decision was
        (the refusal says what was seen, so a player who saw nothing knows who did and what)."""
        if not self._lock_reason:
            return UNDO_LOCKED
        return f"{self._lock_reason}; undo never goes back past a roll, a reveal or a decision the rules make final"

    def undo(self) -> None:
        """Take back the last decision, never past the last die roll (which was seen)."""
        if not self.can_undo:
            raise UndoLockedError(self.undo_locked)
        actions, dice = self._actions[:-1], list(self._dice)
        replayed = _replay(
            self.ruleset, self.ruleset.clone(self._initial), actions, dice, self.keep_log, hooks=self.hooks
        )
        self.state, self.log = replayed.state, replayed.log
        self._actions, self._dice = actions, dice
        self._locked = min(self._locked, len(actions))
        self._forget_chain()
        self._lock_reason = replayed.reason

    # -- copies, records, views ---------------------------------------------------------------
    def clone(self) -> Match:
        """An independent copy (for search): same state, record so far and dice position."""
        twin = Match.__new__(Match)
        twin.__dict__.update(self.__dict__)
        twin.state = self.ruleset.clone(self.state)
        twin._side_of = None
        twin.log = list(self.log)
        twin._actions = list(self._actions)
        twin._dice = list(self._dice)
        twin.dice = _copy_dice(self.dice)
        if self._chain is not None:
            seed, key, digests = self._chain
            twin._chain = (seed, key, list(digests))
        return twin

    # -- the decision chain -------------------------------------------------------------------
    def moves_chain(self) -> list[str] | None:
        """The decision chain h_0..h_n of a game with keyed dice (warroom/engine/chain.py), a fresh list;
        None where the dice are not keyed (a seed the players may know would let them work out a
        hidden decision from its digest, so nothing is chained).

        Worked out when asked, from where it was last asked (`play` never pays for it: playouts and
        search do not ask), and for the key the dice have now: a copy given dice of its own (a thinker's)
        has none."""
        moves = self._chain_now()
        return None if moves is None else list(moves)

    def moves_digest(self) -> dict[str, Any] | None:
        """`{"decisions": n, "digest": h_n}`: the chain's digest now, as every seat is shown it; None unchained."""
        moves = self._chain_now()
        return None if moves is None else {"decisions": len(moves) - 1, "digest": moves[-1]}

    def _chain_now(self) -> list[str] | None:
        """The cached chain brought up to the decisions made (the cache itself: not to be handed out)."""
        dice = self.dice
        seed = dice.seed
        if dice.scheme != HMAC_SHA256 or not is_key(seed):
            return None
        assert isinstance(seed, str)
        known = self._chain
        if known is None or known[0] != seed:
            key = chain.chain_key(seed)
            header = chain.chain_header(self.ruleset.info.id, self.scenario, self.options, self.position, dice.spec())
            known = self._chain = (seed, key, [chain.start_digest(key, seed, header)])
        return chain.extend(known[2], known[1], self._actions)

    def _forget_chain(self) -> None:
        """Decisions were taken back: drop the digests past them (the rest stay good)."""
        if self._chain is not None:
            del self._chain[2][len(self._actions) + 1 :]

    def record(self) -> Record:
        return Record(
            game=self.ruleset.info.id,
            scenario=self.scenario,
            seed=self.seed,
            options=dict(self.options),
            actions=list(self._actions),
            dice=list(self._dice),
            dice_mode=self.dice.spec(),
            position=self.position,
            engine_version=self.version,
            rng=self.dice.scheme,
            moves=self.moves_chain(),
        )

    @property
    def actions(self) -> list[str]:
        return list(self._actions)

    @property
    def dice_rolled(self) -> list[int]:
        return list(self._dice)

    def view(self, side: str | None = None) -> dict[str, Any]:
        """The protocol's VIEW: what `side` may see; `legal` is empty unless `side` may act."""
        rs = self.ruleset
        turn, phase = rs.turn_and_phase(self.state)
        to_act = self.to_act
        legal = self.legal_actions() if side is None or side == to_act else []
        result = self.result
        view: dict[str, Any] = {
            "game": rs.info.id,
            "scenario": self.scenario,
            "turn": turn,
            "phase": phase,
            "to_act": to_act,
            "legal": legal,
            "over": result is not None,
            "result": result.to_json() if result else None,
            "can_undo": self.can_undo,
            "state": rs.observation(self.state, side),
        }
        moves = self.moves_digest()
        if moves is not None:
            view["moves"] = moves  # the same for every seat: a digest tells nothing without the key
        return view


class _Replayed:
    def __init__(self, state: Any, log: list[Event], locked: int, reason: str = "") -> None:
        self.state, self.log = state, log
        self.locked = locked  # decisions made before the last die roll: undo stops there
        self.reason = reason  # why, in words (Match.undo_locked)


DieCheck = Callable[[int, int, Any, int], None]
"""`check(n, value, state, decisions)`: called before recorded die n (0-based) is applied to `state`,
after `decisions` decisions; it may raise to stop the replay there (`fairness.verify_record` does)."""


def _replay(
    ruleset: Ruleset[Any],
    state: Any,
    actions: list[str],
    dice: list[int],
    keep_log: bool,
    check: DieCheck | None = None,
    starts: list[int] | None = None,
    sides: list[str] | None = None,
    hooks: MatchHooks = NO_HOOKS,
) -> _Replayed:
    """Apply recorded decisions and dice in turn; anything that does not fit is a RecordError.

    `starts`, when given, is filled with the log's length as each decision begins (where what the
    previous decision and its dice caused ends); `sides` with the side that made each decision."""
    log: list[Event] = []
    dice_iter, action_iter = iter(dice), iter(actions)
    action_no, die_no, locked, reason = 0, 0, 0, ""
    seen = hooks.seen_hidden if keep_log else None  # reveals lock undo as in Match.play
    final_decision = hooks.final_decision if keep_log else None
    while True:
        to_act = ruleset.to_act(state)
        if to_act is None:
            break
        if to_act == CHANCE:
            value = next(dice_iter, None)
            if value is None:
                break
            legal = [v for v, _ in ruleset.chance_outcomes(state)]
            if check is not None:
                check(die_no, value, state, action_no)
            if value not in legal:
                raise RecordError(
                    f"die {die_no + 1} of the record is {value}, but that roll allows {legal[0]}..{legal[-1]}"
                )
            phase = ruleset.turn_and_phase(state)[1] if keep_log else ""
            events = ruleset.apply_chance(state, value, keep_log)
            die_no += 1
            if keep_log:
                reason = _roll_reason(phase, value)
            locked = action_no
        else:
            action = next(action_iter, None)
            if action is None:
                break
            if starts is not None:
                starts.append(len(log))
            if sides is not None:
                sides.append(to_act)
            before = _seen_by_all(seen, ruleset, state) if seen is not None else None
            final = final_decision is not None and final_decision(ruleset, state, action) is not None
            try:
                events = ruleset.apply(state, action, keep_log)
            except IllegalActionError as exc:
                raise RecordError(
                    f"action {action_no + 1} of the record ({quoted(action)}) is illegal at that point: {exc}"
                ) from None
            action_no += 1
            if final or _revealed(seen, ruleset, state, before):
                locked = action_no
                reason = _lock_reason(ruleset, state, action, seen, hooks.name_seen, before, final)
        if keep_log:
            log.extend(events)
    leftover_actions = len(actions) - action_no
    if leftover_actions:
        raise RecordError(
            f"the record has {leftover_actions} action(s) after the game ended or without the dice they need "
            f"(from action {action_no + 1}: {actions[action_no]!r})"
        )
    leftover_dice = len(dice) - die_no
    if leftover_dice:
        raise RecordError(
            f"the record has {leftover_dice} die roll(s) the game never asked for "
            f"(from die {die_no + 1}: {dice[die_no]})"
        )
    return _Replayed(state, log, locked, reason)


def _copy_dice(dice: DiceSource) -> DiceSource:
    """The same source at the same point of its stream, sharing nothing that changes: a clone rolls
    the dice the original would (a Mersenne Twister's state, or a key and its roll counter)."""
    return dice.copy()


def replay_record(
    ruleset: Ruleset[Any],
    record: Record,
    state: Any,
    keep_log: bool = True,
    version: str = "",
    starts: list[int] | None = None,
    hooks: MatchHooks = NO_HOOKS,
) -> Match:
    """Rebuild a match from its record: identical states, events and results.

    With seeded dice the generator is advanced past the recorded rolls, so a loaded game goes on
    with exactly the dice the original would have rolled next. `starts`: filled with the log's length
    as each recorded decision begins (see `_replay`).
    """
    initial = ruleset.clone(state)
    dice = make_dice(record.dice_mode, record.seed, record.rng)
    if isinstance(dice, ScriptedDice):
        for n, (rolled, scripted) in enumerate(zip(record.dice, dice.values, strict=False)):
            if rolled != scripted:
                raise RecordError(
                    f"die {n + 1} of the record is {rolled}, but the record's scripted dice say {scripted}"
                )
    replayed = _replay(ruleset, state, record.actions, record.dice, keep_log, starts=starts, hooks=hooks)
    dice.skip(len(record.dice))
    match = Match.__new__(Match)
    match.ruleset = ruleset
    match.scenario = record.scenario
    match.options = dict(record.options)
    match.seed = record.seed
    match.dice = dice
    match.position = record.position
    match.keep_log = keep_log
    match.version = version
    match.state = replayed.state
    match.log = replayed.log
    match._initial = initial
    match._actions = list(record.actions)
    match._dice = list(record.dice)
    match._locked = replayed.locked
    match._lock_reason = replayed.reason
    match._side_of, match._side = None, None
    match._chain = None
    match.hooks = hooks
    match._seen_hidden = hooks.seen_hidden if keep_log else None
    match._final = hooks.final_decision if keep_log else None
    if not dice.manual and ruleset.to_act(match.state) == CHANCE:
        match._roll_chance(match.log if keep_log else [])
    return match


def _seen_by_all(seen: SeenHidden, ruleset: Ruleset[Any], state: Any) -> dict[str, frozenset[Any]]:
    """What each side sees of the hidden (the game's `seen_hidden`), before a decision."""
    return {side: seen(ruleset, state, side) for side in ruleset.info.sides}


def _revealed(
    seen: SeenHidden | None, ruleset: Ruleset[Any], state: Any, before: dict[str, frozenset[Any]] | None
) -> bool:
    """Whether any side now sees something hidden it did not see `before` the decision: the decider's look
    beneath a stack, or the opponent's sight of a card the decider played (against the computer, the
    computer's move that showed the person its hand must not be taken back with the person's own)."""
    if seen is None or before is None:
        return False
    return any(not seen(ruleset, state, side) <= known for side, known in before.items())


def _roll_reason(phase: str, value: int) -> str:
    """A lock by a die, in words: "the die roll (4) in the Replacement Phase" (the last of several in a row)."""
    return f"the die roll ({value}) in the {phase}" if phase else f"the die roll ({value})"


def _lock_reason(
    ruleset: Ruleset[Any],
    state: Any,
    action: str,
    seen: SeenHidden | None,
    name: NameSeen | None,
    before: dict[str, frozenset[Any]] | None,
    final: bool,
) -> str:
    """A lock by a decision, in words: what each side saw that it had not (named by the game's `name_seen`),
    else the rule that makes the decision final."""
    shown: list[str] = []
    if seen is not None and before is not None:
        for side, known in before.items():
            new = seen(ruleset, state, side) - known
            if new:
                what = name(ruleset, state, side, new) if name is not None else _named(new)
                shown.append(f"the {side} side {what}")
    if shown:
        return f"the decision {quoted(action)} showed {' and '.join(shown)}, hidden before"
    if final:
        return f"the decision {quoted(action)} is final under the rules"
    return ""


def _named(items: frozenset[Any]) -> str:
    """What was seen, for a game that does not name it: its words where they are words, else how many."""
    words = sorted(str(item) for item in items if isinstance(item, str))
    others = len(items) - len(words)
    if others:
        words.append(f"{others} hidden thing{'s' if others > 1 else ''}")
    return ", ".join(words)


__all__ = ["Match", "MatchHooks", "NO_HOOKS", "replay_record", "WarroomError"]
