"""Who sits at a play session's seats: the computer's sides as a save records them (the record header's
`players`), and people sharing one screen in a game that hides something — the device passed between them,
each shown only what his side may see, and the decisions the rules answer for a seat made without telling."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.rule import Rule
from rich.text import Text

from warroom.engine.match import Match
from warroom.engine.observe import concealed_decision, visible_events
from warroom.engine.ruleset import Event
from warroom.terminal_render import load_renderer, print_events

if TYPE_CHECKING:
    from warroom.terminal import TerminalGame


# -- who plays which side, kept in a save (the record header's `players`) --------------------------
def players_of(match: Match, agent: Any, agent_sides: set[str] | None) -> dict[str, dict[str, Any]]:
    """The record header's `players` for a session: each side the computer plays, with its agent (and
    an MCTS agent's thinking time); {} when people play every side. Saved, so that a game against
    the computer comes back against the computer, not as hot-seat."""
    if agent is None:
        return {}
    player: dict[str, Any] = {"agent": agent.name}
    budget = getattr(agent, "budget_ms", None)
    if budget is not None:
        player["budget_ms"] = budget
    return {side: dict(player) for side in match.ruleset.info.sides if agent_sides is None or side in agent_sides}


def computer_players(
    players: dict[str, dict[str, Any]], match: Match, budget_ms: int | None = None
) -> tuple[Any, set[str] | None]:
    """The agent and the sides it plays (None: every side, you watch) for a record's `players`;
    `budget_ms` overrides the saved thinking time. RecordError when a side is not the game's or the
    sides want different agents (the terminal seats one computer player)."""
    from warroom.ai import agent_seed, get_agent
    from warroom.engine.errors import RecordError

    if not players:
        return None, None
    sides = list(match.ruleset.info.sides)
    for side in players:
        if side not in sides:
            raise RecordError(
                f"record header 'players' names {side[:40]!r}, "
                f"not a side of {match.ruleset.info.title} ({', '.join(sides)})"
            )
    kinds = {(player["agent"], player.get("budget_ms")) for player in players.values()}
    if len(kinds) > 1:
        raise RecordError(
            "record header 'players' gives the sides different computer players; the terminal seats one: "
            "load it with warroom play --load FILE --vs ai --agent NAME"
        )
    name, saved_budget = kinds.pop()
    agent = get_agent(
        name, match.ruleset.info.id, budget_ms if budget_ms is not None else saved_budget, agent_seed(match.seed)
    )
    return agent, None if set(players) == set(sides) else set(players)


def who_plays(match: Match, agent: Any, agent_sides: set[str] | None) -> str:
    """One line on the seats: "the computer (heuristic) plays SIDE" (the scenario's name), "people play every side"."""
    if agent is None:
        return "people play every side" if len(match.ruleset.info.sides) > 1 else "you play"
    if agent_sides is None:
        return f"the computer ({agent.name}) plays every side: you watch"
    renderer = load_renderer(match.ruleset.info.id)
    named = [renderer.side_name(match, side) for side in match.ruleset.info.sides if side in agent_sides]
    return f"the computer ({agent.name}) plays {' and '.join(named)}"


class SharedScreen:
    """The people at the session's one screen: which sides they play, which of them holds the device now, and
    what each may read."""

    def __init__(self, game: TerminalGame) -> None:
        self.game = game
        # people sharing this screen in a game that hides something: the side the screen now shows, which the
        # device is passed from before another person decides (None: nobody has decided yet)
        self.holder: str | None = None

    def people(self) -> list[str]:
        """The sides people play at this screen."""
        game = self.game
        sides = list(game.match.ruleset.info.sides)
        if game.agent is None:
            return sides
        return [] if game.agent_sides is None else [side for side in sides if side not in game.agent_sides]

    def shared(self) -> bool:
        """Two or more people at one screen in a game that hides something from a side: the device is passed
        before another person decides, and each sees only what his side may."""
        return self.game.secret_reasons and len(self.people()) > 1

    def must_pass(self) -> bool:
        """Another person than the one holding the device decides next."""
        return self.shared() and self.holder not in (None, self.game.match.to_act)

    def automatic(self) -> bool:
        """A decision the rules put to a person's seat whatever it holds, with one answer (the spec's
        `concealed_decision`): given without asking and without passing the device, and shown as its events
        alone (a chosen one is made behind a device pass), so whoever holds the screen cannot tell it from a
        chosen answer by what is printed. True when one was given."""
        game = self.game
        concealed = concealed_decision(game.match.ruleset, game.match.state)
        if concealed is None or concealed.automatic is None:
            return False
        side = game.match.to_act or ""
        if self.shared() and side != self.holder:
            print_events(game.console, game.renderer, self.seen(game.match.play(concealed.automatic)))
            game.dirty = True
            return True
        name = game.renderer.side_name(game.match, side)
        game.play(concealed.automatic, who=f"{name}, with nothing to choose ({concealed.rule}): ")
        return True

    def pass_device(self) -> bool:
        """Another person decides next: the screen is cleared and waits until that person holds the device."""
        game = self.game
        side = game.match.to_act or ""
        name = game.renderer.side_name(game.match, side)
        game.console.clear()
        game.console.print(Rule(Text(f"Pass the device to {name}", style="bold"), style="grey37"))
        line = game.ask(f"{name}: press Enter when the others cannot see the screen (s save, q quit)> ").strip()
        if line:
            handled = game.commands.run(line)
            if handled is None:
                game.error(f"{line!r}: press Enter once you hold the device, {name}.")
            return bool(handled)
        self.holder = side
        game.dirty = True
        game.board_key = None
        return False

    def seen(self, events: list[Event]) -> list[Event]:
        """The events the person at the keyboard may read: against the computer, those the person's side may
        see (a face-down deployment, a card drawn, a piece beneath a stack are the computer's); people passing
        the device in a game that hides something, those of the side holding it; watching the computer play
        itself, or people sharing the screen of a game that hides nothing, every event."""
        game = self.game
        if self.shared():
            return visible_events(game.match.ruleset, events, self.holder or "")
        if game.agent_sides is None:
            return events
        people = [side for side in game.match.ruleset.info.sides if side not in game.agent_sides]
        if len(people) != 1:
            return events
        return visible_events(game.match.ruleset, events, people[0])
