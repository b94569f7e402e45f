"""The computer's moves in a play session: watched (at a pace, paused with Ctrl-C to step through them) or as the
people's opponent (one summary of its turn, its reasons kept back where they might tell what its side holds)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.rule import Rule
from rich.text import Text

from warroom.engine.observe import reason_readers

if TYPE_CHECKING:
    from warroom.terminal import TerminalGame


class ComputerTurns:
    """The computer's moves for the session's agent, and what the person at the screen is told of them."""

    def __init__(self, game: TerminalGame) -> None:
        self.game = game
        self.moves = 0  # decisions the computer has made since the human last decided
        self._held_reasons: list[tuple[str, str, str]] = []

    def done(self) -> None:
        """The computer's turn is over: say so once; the board is then drawn once (not after each of its moves)."""
        if self.moves:
            self.game.console.print(
                Text(
                    f"The computer made {self.moves} decision{'s' if self.moves != 1 else ''}; the board now:",
                    style="bold",
                )
            )
            self.moves = 0
            self.game.dirty = True
            self.game.board_key = None

    def move(self) -> bool:
        """One move of the computer; True when the session ends (a person watching quits)."""
        game = self.game
        if not game.watching():
            return self._opponent_move()
        if not game.paused and game.pace > 0:
            time.sleep(game.pace)
        action, why = game.agent.choose(game.match)
        was_paused = game.paused
        if game.paused:
            line = Text(f"The computer ({game.agent.name}) will play: ", style="bold")
            line.append(game.renderer.action_label(game.match, action))
            game.console.print(line)
            game.console.print(Text(f"  why: {why}", style="dim"))
            answer = game.ask("Enter: play it · c: play on to the end · s save · h help · q quit> ").strip()
            word = answer.partition(" ")[0].lower()
            if word == "c":
                game.paused = False
            elif word in ("q", "quit", "exit"):
                return game.commands.quit()
            elif word in ("h", "help", "?", "s", "save"):
                game.commands.run(answer)
                return False
            elif answer:
                game.error(f"{answer!r}: press Enter to let the computer play, c to play on to the end, q to quit.")
                return False
        game.play(action, who=f"Computer ({game.agent.name}): ", why="" if was_paused else why)
        return False

    def _opponent_move(self) -> bool:
        """The computer's move for the other side: its events and its reason, no board (drawn once when it is done),
        so a computer turn is one summary screen in every game."""
        game = self.game
        if not self.moves:
            side = game.renderer.side_name(game.match, game.match.to_act or "")
            game.console.print(
                Rule(Text(f"{side}: the computer ({game.agent.name}) plays", style="bold"), style="grey37")
            )
        if game.pace > 0:
            time.sleep(game.pace)
        action, why = game.agent.choose(game.match)
        self.moves += 1
        if why and game.secret_reasons and not self._reason_is_public(action, why):
            # it reasons from what its side holds: told when the game is over
            side = game.renderer.side_name(game.match, game.match.to_act or "")
            self._held_reasons.append((side, game.renderer.action_label(game.match, action), why))
            why = f"told when the game is over (it may tell what {side} holds)"
        game.play(action, who=f"Computer ({game.agent.name}): ", why=why, brief=True)
        return False

    def _reason_is_public(self, action: str, why: str) -> bool:
        """Whether every side the people at this screen play may read the computer's reason at once (the game's
        `public_reason`, warroom.engine.observe.reason_readers), reckoned on a copy of the move."""
        m = self.game.match
        side = m.to_act or ""
        computer = self.game.agent_sides or set()
        people = [s for s in m.ruleset.info.sides if s != side and s not in computer]
        after = m.ruleset.clone(m.state)
        m.ruleset.apply(after, action, False)
        readers = reason_readers(m.ruleset, m.state, after, action, side, why)
        return all(person in readers for person in people)

    def tell_held_reasons(self) -> None:
        """The game is over: the reasons kept back during it (a game that hides something), each with its move."""
        if not self._held_reasons:
            return
        console = self.game.console
        console.print(Text("The computer's reasons, now that the game is over:", style="bold"))
        for side, label, why in self._held_reasons:
            console.print(Text(f"  {side}: {label}", style="bold"))
            console.print(Text(f"    why: {why}", style="dim"))
        self._held_reasons = []
