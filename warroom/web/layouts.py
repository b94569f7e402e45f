"""What the browser needs to draw a game's board, asked of the game's spec (its `board` capability).

Each game ships its board inside its own folder (warroom/games/<id>/web/): the layout data, an ES
module implementing the board interface (docs/architecture.md, "The browser's board interface") and
its style sheets. The server serves that folder at /games/<id>/static/ (server.py) and this answer
tells the page where the module and styles are, with the game's help sections. A game without a
board is played from the action list (kind "none").
"""

from __future__ import annotations

from typing import Any

from warroom.engine.errors import WarroomError
from warroom.engine.match import Match
from warroom.engine.ruleset import DICE_SIDE
from warroom.engine.spec import ActionDescriptor, GameSpec

FRONT_END = "web"
"""The `only` of the help sections meant for the browser (sections with no `only` are for every front end)."""


def static_url(game: str, path: str) -> str:
    """Where the server serves a file of the game's board folder."""
    return f"/games/{game}/static/{path}"


def help_sections(spec: GameSpec[Any]) -> list[dict[str, str]]:
    """The game's help for the browser: {"title", "text", "rule"} in reading order."""
    return [{"title": s.title, "text": s.text, "rule": s.rule} for s in spec.help if s.only in ("", FRONT_END)]


def board_layout(game: str) -> dict[str, Any]:
    """{"game", "title", "kind", "module", "styles", "help", ...the layout's own data}; kind "none" without a board.

    Raises UnknownGameError for a game that is not registered."""
    from warroom.games import get_ruleset, get_spec

    spec = get_spec(game)
    info = get_ruleset(game).info
    base: dict[str, Any] = {"game": info.id, "title": info.title, "help": help_sections(spec)}
    if spec.board is None:
        return {**base, "kind": "none"}
    board = spec.board()
    return {
        **base,
        "kind": "board",
        **board.layout(None),
        "module": static_url(info.id, board.module),
        "styles": [static_url(info.id, style) for style in board.styles],
    }


def describe_actions(match: Match, legal: list[str]) -> list[ActionDescriptor]:
    """Each legal action as a descriptor (warroom.engine.spec.ActionDescriptor), in the order of `legal`: the
    die faces of a roll typed in (`face`), else what the game's board says of them (`WebBoard.describe_actions`;
    else id, label and kind "action"), so the page finds an action's unit and places without parsing its id."""
    if match.to_act == DICE_SIDE:
        faces = match.entry_outcomes()
        if len(faces) == len(legal):
            return [
                {"id": action, "label": _label(match, action), "kind": "roll", "face": face}
                for action, face in zip(legal, faces, strict=True)
            ]
    from warroom.games import get_spec

    board = get_spec(match.ruleset.info.id).board
    describe = board().describe_actions if board is not None else None
    if describe is not None:
        return describe(match.ruleset, match.state, legal)
    return [{"id": action, "label": _label(match, action), "kind": "action"} for action in legal]


def _label(match: Match, action: str) -> str:
    """The action in words (its id where the game cannot say it)."""
    try:
        return match.ruleset.describe_action(match.state, action)
    except (WarroomError, KeyError, ValueError):
        return action
