"""The API's contract: what the OpenAPI description promises is exactly what the server does.

The request models (server.py) carry the simple limits (ranges, lengths, patterns). What depends on
the registry of games is added to the description here, when it is generated: which game ids,
scenarios, sides, computer players and rules options there are, and which combinations a new game
accepts (a scenario of that game, the options of that scenario, no chosen seed online). So a client,
or a fuzzer, that sends anything the description allows gets the game, and anything it does not
allow is refused. `check_new_game` makes the server refuse, in every mode, what the description
refuses (a computer player or side the game does not have, even where the mode would not use it).

Links (OpenAPI `links`) tell a client, and a stateful fuzzer, how one answer feeds the next request:
a created game's id and seat token open its view, its actions, undo, log, odds, hint, record and
replay; a view's `move` and first legal action make the next action.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import ApiError

GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
"""A game id as the server makes them (`secrets.token_urlsafe`, stored in 32 characters)."""

MAX_TOKEN = 200
"""The longest seat token or invite accepted (the server's are 24 characters)."""

MAX_ACTION = 200
"""The longest action id accepted (the games' longest are under 50 characters)."""

MAX_SEED = 2**53 - 1
"""The largest seed a client may choose: exact as a JSON number everywhere (JavaScript's safe integers)."""
BUDGET_MS = (50, 20000)
"""A computer seat's thinking time per decision, in ms (the service's own bounds)."""
HINT_BUDGET_MS = (50, 10000)
"""A hint's thinking time, in ms."""

MODES = ("computer", "hotseat", "online", "table")
TOKEN_DESCRIPTION = "the seat's secret token from its game link (or send it in the X-Warroom-Token header)"


def _registry() -> list[tuple[Any, list[dict[str, Any]], list[str]]]:
    """(game info, option specs, computer players) of every registered game."""
    from warroom.games import game_ids, get_ruleset

    from . import agents
    from .options import game_options

    return [(get_ruleset(g).info, game_options(g), agents.agent_names(g)) for g in game_ids()]


def check_new_game(game: str, human: list[str] | None, side: str | None, agent: str | None) -> None:
    """Refuse (400) a side or computer player the game does not have, whatever the mode.

    A mode that would not use them (`human` outside 'computer', `side` outside 'online', `agent`
    without computer seats) still may not name one that does not exist: the request is malformed.
    """
    from warroom.games import REGISTRY, get_ruleset

    if human is not None and len(set(human)) < len(human):
        raise ApiError(400, "bad_side", "a side is named twice in `human`: name each side played by a person once")
    if game not in REGISTRY:
        return  # the service says which games there are (400 unknown_game)
    info = get_ruleset(game).info
    named = [*(human or []), *([side] if side is not None else [])]
    unknown = [s for s in named if s not in info.sides]
    if unknown:
        raise ApiError(400, "bad_side", f"{info.title} has no side {unknown[0][:40]!r}; sides: {', '.join(info.sides)}")
    if agent is not None:
        from . import agents

        names = agents.agent_names(game)
        if agent not in names:
            raise ApiError(
                400, "unknown_agent", f"{info.title} has no computer player {agent[:40]!r}; players: {', '.join(names)}"
            )


def _option_schema(spec: dict[str, Any], scenario: str) -> dict[str, Any] | None:
    """One rules option's values in `scenario` (None where the option means nothing there)."""
    where = spec.get("scenarios")
    if where and scenario not in where:
        return None
    out: dict[str, Any] = {"description": f"{spec['label']} (default {spec['default']!r})"}
    if spec["kind"] == "bool":
        out["type"] = "boolean"
    elif spec["kind"] == "choice":
        out["enum"] = [c["value"] for c in spec["choices"] if scenario in c.get("scenarios", [scenario])]
    else:
        out.update(type="integer", minimum=spec["min"], maximum=spec["max"])
    return out


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def new_game_schema(base: dict[str, Any]) -> dict[str, Any]:
    """NewGame as the registry allows it: one variant per game, scenario and kind of dice seed.

    `base` is the model's own schema (descriptions, defaults); each variant pins the game and its
    scenario and lists only that scenario's options, sides and computer players. The first scenario
    is the default, so its variant also takes no scenario at all.
    """
    variants = []
    for info, specs, players in _registry():
        scenarios = list(info.scenarios) or [None]
        for n, scenario in enumerate(scenarios):
            options = {spec["key"]: s for spec in specs if (s := _option_schema(spec, scenario or "")) is not None}
            for online in (False, True):
                props = copy.deepcopy(base["properties"])
                props["game"] = {**props["game"], "enum": [info.id]}
                props["game"].pop("type", None)
                props["scenario"] = {
                    "description": "a scenario of the game (default: its first)",
                    **(_nullable({"enum": [scenario]}) if n == 0 else {"enum": [scenario]}),
                }
                props["mode"] = {**props["mode"], "enum": ["online"] if online else [m for m in MODES if m != "online"]}
                if online:
                    props["seed"] = {
                        "type": "null",
                        "description": "an online game's seed is drawn by the server in secret: never sent",
                    }
                props["options"] = {
                    **props["options"],
                    "type": "object",
                    "properties": options,
                    "additionalProperties": False,
                }
                people = {"type": "array", "items": {"enum": list(info.sides)}, "uniqueItems": True}
                props["human"] = {**_nullable(people), "description": props["human"].get("description", "")}
                props["side"] = {
                    **_nullable({"enum": list(info.sides)}),
                    "description": props["side"].get("description", ""),
                }
                props["agent"] = {
                    **_nullable({"enum": list(players)}),
                    "description": props["agent"].get("description", ""),
                }
                required = ["game", *(["scenario"] if n > 0 else []), *(["mode"] if online else [])]
                variants.append(
                    {
                        "type": "object",
                        "title": f"{info.id} {scenario or ''}{' online' if online else ''}".strip(),
                        "properties": props,
                        "required": required,
                    }
                )
    return {
        "title": "NewGame",
        "description": base.get("description", "A new game: the game, its scenario and options, and who plays"),
        "anyOf": variants,
    }


def constrain(schema: dict[str, Any]) -> dict[str, Any]:
    """Add to the generated OpenAPI description what the registry says (see the module docstring)."""
    registry = _registry()
    games = [info.id for info, _specs, _players in registry]
    all_sides = sorted({s for info, _specs, _players in registry for s in info.sides})
    all_players = sorted({p for _info, _specs, players in registry for p in players})
    common_players = (
        sorted(set.intersection(*(set(players) for _info, _specs, players in registry))) if registry else []
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    if "NewGame" in components:
        components["NewGame"] = new_game_schema(components["NewGame"])
    upload = components.get("Upload", {}).get("properties", {})
    for name, values in (("human", None), ("side", all_sides), ("agent", all_players)):
        if name in upload:
            described = upload[name].get("description", "")
            item = (
                {"type": "array", "items": {"enum": all_sides}, "uniqueItems": True}
                if values is None
                else {"enum": values}
            )
            upload[name] = {**_nullable(item), **({"description": described} if described else {})}
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    paths = schema.get("paths", {})
    for path, methods in paths.items():
        for operation in methods.values():
            operation.get("responses", {}).pop("422", None)  # a request that does not fit is answered 400 bad_request
            for param in operation.get("parameters", []):
                if path == "/api/boards/{game}" and param["name"] == "game":
                    param["schema"] = {"enum": games, "title": "Game"}
                if path.endswith("/hint") and param["name"] == "agent":
                    param["schema"] = _nullable({"enum": common_players})
    _link(paths)
    return schema


def _link(paths: dict[str, Any]) -> None:
    """OpenAPI links: from a created game to every seat route, and from a view to the next action."""
    seat_routes = [
        (p, m)
        for p, methods in paths.items()
        if p.startswith("/api/games/{game_id}") and not p.endswith("/claim")
        for m in methods
    ]

    def ref(path: str, method: str) -> str:
        return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method

    def next_action(game_id: str, token: str, view: str) -> dict[str, Any]:
        return {
            "operationRef": ref("/api/games/{game_id}/actions", "post"),
            "parameters": {"path.game_id": game_id, "header.x-warroom-token": token},
            "requestBody": {"action": f"{view}/view/legal/0", "move": f"{view}/move"},
        }

    created = paths.get("/api/games", {}).get("post", {}).get("responses", {}).get("201")
    if created is not None:
        links = {}
        for path, method in seat_routes:
            name = (path.rsplit("/", 1)[-1] if not path.endswith("{game_id}") else "view") + (
                "" if method == "get" else f"_{method}"
            )
            links[name] = {
                "operationRef": ref(path, method),
                "parameters": {
                    "path.game_id": "$response.body#/id",
                    "header.x-warroom-token": "$response.body#/seats/0/token",
                },
            }
        if "/api/games/{game_id}/actions" in paths:
            links["first_action"] = next_action(
                "$response.body#/id", "$response.body#/seats/0/token", "$response.body#/game"
            )
        created["links"] = links
    for path in ("/api/games/{game_id}", "/api/games/{game_id}/actions"):
        method = "get" if path.endswith("}") else "post"
        answer = paths.get(path, {}).get(method, {}).get("responses", {}).get("200")
        if answer is not None and "/api/games/{game_id}/actions" in paths:
            answer["links"] = {
                "next_action": next_action(
                    "$request.path.game_id", "$request.header.x-warroom-token", "$response.body#"
                )
            }
