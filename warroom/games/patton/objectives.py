"""Each scenario's objective: who has won, and when the game ends.

Rule citations: "Patton: Normandy — Objective", "Patton: The Bulge — Objective",
"Patton: Sicily — Objective", "Patton: Normandy — Duration of Game".
"""

from __future__ import annotations

from warroom.engine.events import Events

from .state import PattonState

NORMANDY_OBJECTIVE = "Patton: Normandy — Objective"
BULGE_OBJECTIVE = "Patton: The Bulge — Objective"
SICILY_OBJECTIVE = "Patton: Sicily — Objective"
DURATION = "Patton: Normandy — Duration of Game"
SICILY_LIMIT = "Patton: Sicily — Duration of Game (turn limit: a rules option)"


def relief_path_open(s: PattonState) -> bool:
    """A path free of German Units, "no matter how indirect", from Bastogne to a (*) town.

    A town on the path must hold no German Units; a road carrying a German attack stack is not
    free either.
    """
    b = s.board
    blocked_roads = {b.road_between[(st.target, st.source)] for st in s.stacks if st.owner == 1 and st.source < b.n}
    return b.graph.find(b.relieve, b.star, owner=s.side, enemy=1, blocked_edges=blocked_roads) >= 0


def update_relief(s: PattonState, events: Events) -> None:
    """Break the siege of Bastogne the moment a German-free path opens; it stays broken."""
    b = s.board
    if b.relieve < 0 or s.relieved or s.side[b.relieve] != 0:
        return
    if relief_path_open(s):
        s.relieved = True
        if events.on:
            events.emit(
                "relieved",
                f"A path free of German Units now runs from {b.towns[b.relieve].name} to a (*) town: the siege is "
                "broken and the trapped Units are relieved for good.",
                BULGE_OBJECTIVE,
            )


def note_ousted(s: PattonState) -> None:
    """During the Axis turn, forget every town the Allies held at the end of their turn and no longer hold.

    Sicily's Objective ("occupying Messina and holding it during the immediately following Axis
    turn"), Italian Defection ("the Axis player can try to oust him in the immediately following
    turn. If not successful ...") and Wiltz ("oust the American Units in his turn immediately
    following") ask whether the occupation lasted through the whole enemy turn, not who holds the
    town when it ends: Units that retreat in after the occupiers were wiped out do not restore it.
    Towns change hands during the enemy's turn only in battles, so every battle's end calls this.
    """
    if s.mover != 1:
        return
    side, held = s.side, s.allied_end
    for t, was in enumerate(held):
        if was and side[t] != 0:
            held[t] = False


def red_towns_held(s: PattonState) -> int:
    return sum(1 for t in s.board.red_towns if s.side[t] == 0)


def messina_out_of_reach(s: PattonState) -> str:
    """Why taking the town to hold (Messina) has become impossible for the Allies, or "" if it has not.

    Sicily — Objective: "The Axis player wins by reducing the Allied forces to such an extent that it
    becomes impossible to take Messina". The Allies get no reserves, so their forces only shrink. Read
    conservatively, it is impossible in two cases only:
    - the Allies have no Units left (on the island, on the roads or offshore);
    - the Axis holds Messina and all the Allied Units together could not throw a single die (no
      Armored Unit and at most one Infantry Unit: Battles). Their attack on Messina can then inflict
      no casualty and never throw the higher total; a tie (against a lone Infantry Unit) ends with the
      attacker falling back once the Axis stands; the optional fighting retreat into Messina faces 2
      dice more; and nothing can remove the garrison (defections spare Messina, the stacking limit
      leaves 10). Whatever the dice and the Allied moves, the Axis keeps Messina by staying there.
    """
    b = s.board
    armor, infantry = s.units_of(0)
    if armor + infantry == 0:
        return f"The {b.side_names[0]} have no Units left: taking {b.towns[b.hold].name} has become impossible."
    if s.side[b.hold] == 1 and armor == 0 and infantry <= 1:
        return (
            f"The {b.side_names[0]} have a single Infantry Unit left, which throws no die, and the {b.side_names[1]} "
            f"hold {b.towns[b.hold].name}: no attack of theirs can take it any more."
        )
    return ""


def check_end_of_turn(s: PattonState, events: Events) -> bool:
    """Objectives checked once a turn is complete; True when the game is over (winner set)."""
    b = s.board
    names = b.side_names
    if b.objective == "red_towns":
        if s.mover == 1:
            held = red_towns_held(s)
            if held >= b.red_needed:
                return _win(
                    s,
                    0,
                    f"At the end of the {names[1]} turn the {names[0]} hold {held} of the red towns "
                    "(five or more needed).",
                    NORMANDY_OBJECTIVE,
                    events,
                )
        return False
    if b.objective == "relief_and_hold":
        hold = b.hold
        if s.mover == 1 and s.allied_end[hold] and s.side[hold] == 0 and not s.held:
            s.held = True
            if events.on:
                events.emit(
                    "objective",
                    f"The {names[1]} did not oust the {names[0]} from {b.towns[hold].name}: that objective is "
                    "achieved.",
                    BULGE_OBJECTIVE,
                )
        if s.relieved and s.held:
            return _win(
                s,
                0,
                f"Bastogne is relieved and {b.towns[hold].name} was held: both {names[0]} objectives are achieved.",
                BULGE_OBJECTIVE,
                events,
            )
        return False
    hold = b.hold
    if s.mover == 1 and s.allied_end[hold] and s.side[hold] == 0:
        return _win(
            s,
            0,
            f"The {names[0]} occupied {b.towns[hold].name} and held it through the {names[1]} turn.",
            SICILY_OBJECTIVE,
            events,
        )
    why = messina_out_of_reach(s)
    if why:
        return _win(s, 1, why, SICILY_OBJECTIVE, events)
    return False


def check_game_ends(s: PattonState, events: Events) -> bool:
    """Before the Allied player turns his next card: the Game Ends card, or a turn limit (Sicily's option)."""
    b = s.board
    names = b.side_names
    if b.game_ends_card and b.turns is not None and s.turn > b.turns:
        why = {
            "red_towns": f"the {names[0]} never held five red towns at the end of a {names[1]} turn",
            "relief_and_hold": f"the {names[0]} did not achieve both objectives",
        }.get(b.objective, "")
        return _win(s, 1, f"The Game Ends card is turned after {b.turns} turns: {why}.", DURATION, events)
    if not b.game_ends_card and s.turn_limit and s.turn > s.turn_limit:
        return _win(
            s, 1, f"Turn {s.turn_limit} is over and {b.towns[b.hold].name} has not fallen.", SICILY_LIMIT, events
        )
    return False


def _win(s: PattonState, winner: int, reason: str, rule: str, events: Events) -> bool:
    from .state import OVER

    s.winner = winner
    s.reason = reason
    s.result_rule = rule
    s.phase = OVER
    s.legal = None
    if events.on:
        events.emit("game_over", f"{s.board.side_names[winner]} victory. {reason}", rule)
    return True


def score(s: PattonState) -> dict[str, object]:
    """What the result reports: the objective's state and the Units each side lost."""
    b = s.board
    out: dict[str, object] = {"turn": s.turn}
    if b.objective == "red_towns":
        out["red_towns_held"] = red_towns_held(s)
    elif b.objective == "relief_and_hold":
        out["bastogne_relieved"] = s.relieved
        out["wiltz_held"] = s.held
    else:
        out["messina_allied"] = s.side[b.hold] == 0
        out["defection_towns_used"] = sum(1 for t in b.defection_towns if s.defection_used[t])
    for side, name in zip((0, 1), ("Allied", "Axis"), strict=True):
        out[f"{name}_units_lost"] = sum(s.eliminated[side])
    return out
