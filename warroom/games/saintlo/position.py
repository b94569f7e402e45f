"""Saint-Lo positions as JSON (the whole state, for saves and the omniscient observer) and each seat's
observation (what that seat may see).

Hidden (4.3, 4.5, 9, 10.1): units deployed face down are shown to the other army as backs (their hexes, and
whether each is an aircraft), not what they are, until both armies have deployed and every unit is flipped
up; a hand is seen by its owner only (in the team game by that seat only: a partner sees the number of
cards, as the enemy does); the order of a deck exists nowhere (a draw is a chance node over what is
left), and what is left is shown to nobody but the omniscient observer: a seat sees the deck's size.
Played and discarded Battle Reports are public.
Units flipped face down after use in Movement and Attack (5.3) stay known: they were seen face up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.engine.errors import PositionError

from .placement import AREAS
from .seats import army_of, seats_of
from .state import DESTROYED, OFF, PHASE_KEYS, TARGET_POST, Attack, Phase, SaintLoState, Window
from .tables import AIRCRAFT

if TYPE_CHECKING:
    from .rules import SaintLoRules

ARMY_KEYS = ("allied", "axis")
_ARMY_OF_KEY = {k: a for a, k in enumerate(ARMY_KEYS)}
BULK_KEYS = ("ready", *AREAS)
"""`SaintLoState.bulk` in a save: `ready` (the whole sector) or the part of the sector (placement.py)."""
SETUP_PHASES = (Phase.POSTS, Phase.DEPLOY)


def _unit(rules: SaintLoRules, u: int) -> str | None:
    return rules.t.unit_ids[u] if u != OFF else None


def state_to_json(rules: SaintLoRules, s: SaintLoState) -> dict[str, Any]:
    t = rules.t
    labels = t.labels
    units = {t.unit_ids[u]: {"hex": labels[s.pos[u]], "used": s.used[u]} for u in range(t.n_units) if s.pos[u] != OFF}
    return {
        "phase": PHASE_KEYS[s.phase],
        "turn": s.turn,
        "active": ARMY_KEYS[s.active],
        "seat": rules.sides[s.seat],
        "options": {"objective": s.objective, "turn_limit": s.turn_limit},
        "supplies": {ARMY_KEYS[a_]: s.supplies[a_] for a_ in (0, 1)},
        "units": units,
        "posts": _posts_json(rules, s),
        "lost_posts": {ARMY_KEYS[a_]: s.lost_posts[a_] for a_ in (0, 1)},
        "hands": {
            rules.sides[seat]: [t.cards[army_of(s, seat)][c].id for c in s.hands[seat]] for seat in range(s.seats)
        },
        "deck": _pile_json(rules, s.deck),
        "discard": _pile_json(rules, s.discard),
        "effects": [
            {"army": ARMY_KEYS[a_], "card": t.cards[a_][c].id, "unit": _unit(rules, u)} for a_, c, u in s.effects
        ],
        "activations": s.activations,
        "current": _unit(rules, s.current),
        "moved": s.moved,
        "attacked": s.attacked,
        "paid": s.paid,
        "attack": _attack_json(rules, s.attack),
        "window": _window_json(rules, s.window),
        "draw_queue": [rules.sides[q] for q in s.draw_queue],
        "swapped": list(s.swapped),
        "ended": list(s.ended),
        "start_rolls": list(s.start_rolls),
        "winner": ARMY_KEYS[s.winner] if s.winner != OFF else None,
        "bulk": BULK_KEYS[s.bulk] if s.bulk != OFF else None,
        **({"bulk_dice": list(s.bulk_dice)} if s.bulk_dice else {}),  # only while a bulk deployment's dice roll
    }


def _posts_json(rules: SaintLoRules, s: SaintLoState) -> list[dict[str, Any]]:
    """The 16 Command Posts (8 an army, 2.4): each one's army, defense and hex, or "destroyed" or None (not placed)."""
    t = rules.t
    posts = []
    for p in range(16):
        army, k = divmod(p, 8)
        h = s.post_hex[p]
        posts.append(
            {
                "army": ARMY_KEYS[army],
                "defense": t.post_values[army][k],
                "hex": t.labels[h] if h >= 0 else ("destroyed" if h == DESTROYED else None),
            }
        )
    return posts


def _pile_json(rules: SaintLoRules, piles: list[list[int]]) -> dict[str, dict[str, int]]:
    """Each army's deck or discard pile: how many of each Battle Report it holds (those it holds)."""
    cards = rules.t.cards
    return {ARMY_KEYS[a]: {cards[a][c].id: n for c, n in enumerate(piles[a]) if n} for a in (0, 1)}


def _attack_json(rules: SaintLoRules, a: Attack | None) -> dict[str, Any] | None:
    """The attack under way, by unit ids (a Command Post target by its number)."""
    if a is None:
        return None
    ids = rules.t.unit_ids
    return {
        "attacker": ids[a.attacker],
        "post": a.kind == TARGET_POST,
        "target": a.target if a.kind == TARGET_POST else ids[a.target],
        "air": a.air,
        "supporters": [ids[x] for x in a.supporters],
        "refused": [ids[x] for x in a.refused],
        "asked": _unit(rules, a.asked),
        "attack_roll": a.attack_roll,
    }


def _window_json(rules: SaintLoRules, w: Window | None) -> dict[str, Any] | None:
    """The Battle Report window open, by seat and phase names."""
    if w is None:
        return None
    return {
        "queue": [rules.sides[q] for q in w.queue],
        "then": PHASE_KEYS[w.then],
        "reply": w.reply,
        "played": w.played,
        "army": ARMY_KEYS[w.army],
        "resume": rules.sides[w.resume],
    }


def observation(rules: SaintLoRules, s: SaintLoState, side: str | None) -> dict[str, Any]:
    """What `side` may see (None: everything). Unknown sides see what no seat keeps secret."""
    view = state_to_json(rules, s)
    if side is None:
        return view
    t = rules.t
    seat = rules.seat_index.get(side, -1)
    army = army_of(s, seat) if seat >= 0 else -1
    view["viewer"] = side
    view["hands"] = {
        rules.sides[k]: (view["hands"][rules.sides[k]] if k == seat else len(s.hands[k])) for k in range(s.seats)
    }
    view["deck"] = {key: sum(s.deck[a]) for a, key in enumerate(ARMY_KEYS)}
    if s.phase in SETUP_PHASES:  # 4.3: face down until both armies have deployed
        if s.bulk != OFF and army != s.active:  # which bulk deployment, and its dice so far: the deploying team's
            view["bulk"] = "chosen"
            view.pop("bulk_dice", None)  # the dice that deal its counters would tell which counter is where
        hidden = {t.unit_ids[u] for u in range(t.n_units) if s.pos[u] != OFF and t.unit_army[u] != army}
        view["units"] = {uid: where for uid, where in view["units"].items() if uid not in hidden}
        view["face_down"] = {
            ARMY_KEYS[a]: sum(1 for u in t.army_units[a] if s.pos[u] != OFF) for a in (0, 1) if a != army
        }
        # the counters' backs on their hexes, as at the table: where, and whether an aircraft (NOTES.md)
        view["backs"] = {
            ARMY_KEYS[a]: sorted(
                (
                    {"hex": t.labels[s.pos[u]], "air": t.unit_type[u] == AIRCRAFT}
                    for u in t.army_units[a]
                    if s.pos[u] != OFF
                ),
                key=lambda b: (b["hex"], b["air"]),
            )
            for a in (0, 1)
            if a != army
        }
    return view


def seen_hidden(rules: SaintLoRules, s: SaintLoState, side: str) -> frozenset[Any]:
    """What of the hidden `side` sees beyond its own hand: the enemy's units, once both armies have deployed
    (4.3: revealed together), and every card that has left a hand for a discard pile (9: read out loud; a
    discard at 8 goes on the same public pile). The decisions that show them cannot be taken back (the
    spec's `seen_hidden`): not the deployment, nor a card played, by a person or by the computer (an undo
    against the computer would otherwise take back its card with the person's move and leave the person
    knowing it). A card drawn is a chance step, behind which undo never goes anyway."""
    piles = frozenset(("pile", army, k) for army in (0, 1) for k in range(sum(s.discard[army])))
    return piles if s.phase in SETUP_PHASES else piles | _REVEALED


_REVEALED = frozenset({"the enemy's deployment"})


def state_from_json(rules: SaintLoRules, data: dict[str, Any]) -> SaintLoState:
    """A position from `state_to_json`; PositionError naming what does not fit."""
    try:
        return _read(rules, data)
    except PositionError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise PositionError(f"not a Saint-Lo position: {type(exc).__name__} {exc}") from None


def _read(rules: SaintLoRules, data: dict[str, Any]) -> SaintLoState:
    """Read the fields in the order `state_to_json` writes them, each part checked as it is read."""
    t = rules.t
    s = rules.initial_state(None, dict(data["options"]))
    seat_of = rules.seat_index
    s.phase = Phase(PHASE_KEYS.index(data["phase"]))
    s.turn, s.active, s.seat = int(data["turn"]), _ARMY_OF_KEY[data["active"]], seat_of[data["seat"]]
    s.supplies = [int(data["supplies"][k]) for k in ARMY_KEYS]
    if min(s.supplies) < 0:
        raise PositionError("Supplies are never negative (5.3)")
    _read_units(rules, s, data["units"])
    _read_posts(rules, s, data["posts"])
    s.lost_posts = [int(data["lost_posts"][k]) for k in ARMY_KEYS]
    _read_cards(rules, s, data)
    s.effects = tuple(
        (
            _ARMY_OF_KEY[e["army"]],
            t.card_index[_ARMY_OF_KEY[e["army"]]][e["card"]],
            t.unit_index[e["unit"]] if e["unit"] else OFF,
        )
        for e in data["effects"]
    )
    s.activations = int(data["activations"])
    if not 0 <= s.activations <= t.rules.activations_per_turn:
        raise PositionError("at most 10 units are used a turn (5.3)")
    s.current = t.unit_index[data["current"]] if data["current"] else OFF
    s.moved, s.attacked, s.paid = bool(data["moved"]), bool(data["attacked"]), bool(data["paid"])
    s.attack = _read_attack(rules, data["attack"])
    s.window = _read_window(rules, data["window"])
    s.draw_queue = tuple(seat_of[q] for q in data["draw_queue"])
    s.swapped = [int(x) for x in data["swapped"]]
    s.ended = [bool(x) for x in data["ended"]]
    s.start_rolls = tuple(int(x) for x in data["start_rolls"])
    s.winner = _ARMY_OF_KEY[data["winner"]] if data["winner"] else OFF
    _read_bulk(s, data)
    _check_pending(s, data["phase"])
    return s


def _read_units(rules: SaintLoRules, s: SaintLoState, units: dict[str, Any]) -> None:
    """The units on the board, one a hex (4.3, 6.1, 7.4: an aircraft may share a land unit's hex)."""
    t = rules.t
    for uid, where in units.items():
        u = t.unit_index[uid]
        h = t.hex_of[where["hex"]]
        occupied = s.air_at if t.unit_type[u] == AIRCRAFT else s.land_at
        if occupied[h] != OFF:
            raise PositionError(f"two units in hex {where['hex']} (4.3, 6.1, 7.4: one a hex)")
        s.pos[u] = h
        occupied[h] = u
        s.used[u] = bool(where["used"])


def _read_posts(rules: SaintLoRules, s: SaintLoState, posts: list[dict[str, Any]]) -> None:
    """The Command Posts: destroyed, not placed, or on a free hex of their army's colour (4.2)."""
    t = rules.t
    for p, post in enumerate(posts):
        where = post["hex"]
        if where == "destroyed":
            s.post_hex[p] = DESTROYED
        elif where is not None:
            h = t.hex_of[where]
            if h not in t.post_hexes[p // 8] or s.post_at[h] != OFF or s.land_at[h] != OFF:
                raise PositionError(f"a Command Post cannot stand on {where} (4.2)")
            s.post_hex[p], s.post_at[h] = h, p


def _read_cards(rules: SaintLoRules, s: SaintLoState, data: dict[str, Any]) -> None:
    """The hands, decks and discard piles: each army's, together, its deck's 24 Battle Reports (2)."""
    t = rules.t
    for seat in range(s.seats):
        army = army_of(s, seat)
        s.hands[seat] = sorted(t.card_index[army][c] for c in data["hands"][rules.sides[seat]])
    for a, key in enumerate(ARMY_KEYS):
        s.deck[a] = [int(data["deck"][key].get(card.id, 0)) for card in t.cards[a]]
        s.discard[a] = [int(data["discard"][key].get(card.id, 0)) for card in t.cards[a]]
        held = [0] * len(t.cards[a])
        for seat in seats_of(s, a):
            for c in s.hands[seat]:
                held[c] += 1
        if [d + p + h for d, p, h in zip(s.deck[a], s.discard[a], held, strict=True)] != list(t.deck_counts[a]):
            raise PositionError(
                f"the {key} Battle Reports in deck, discard pile and hands are not the 24 of the deck (2)"
            )


def _read_attack(rules: SaintLoRules, a: dict[str, Any] | None) -> Attack | None:
    """The attack under way, if any (a Command Post target by its number)."""
    if a is None:
        return None
    index = rules.t.unit_index
    post = bool(a["post"])
    return Attack(
        index[a["attacker"]],
        int(a["target"]) if post else index[a["target"]],
        TARGET_POST if post else 0,
        bool(a["air"]),
        tuple(index[x] for x in a["supporters"]),
        tuple(index[x] for x in a["refused"]),
        index[a["asked"]] if a["asked"] else OFF,
        int(a["attack_roll"]),
    )


def _read_window(rules: SaintLoRules, w: dict[str, Any] | None) -> Window | None:
    """The Battle Report window open, if any."""
    if w is None:
        return None
    seat_of = rules.seat_index
    return Window(
        tuple(seat_of[q] for q in w["queue"]),
        Phase(PHASE_KEYS.index(w["then"])),
        bool(w["reply"]),
        bool(w["played"]),
        _ARMY_OF_KEY[w["army"]],
        seat_of[w["resume"]],
    )


def _read_bulk(s: SaintLoState, data: dict[str, Any]) -> None:
    """The deployment in bulk chosen, if any, and its dice so far (placement.py)."""
    bulk = data.get("bulk")  # absent from the saves made before deployments in bulk
    s.bulk = BULK_KEYS.index(bulk) if bulk is not None else OFF
    s.bulk_dice = tuple(int(x) for x in data.get("bulk_dice", ()))
    if s.bulk_dice and (s.bulk == OFF or not all(1 <= d <= 6 for d in s.bulk_dice)):
        raise PositionError("the dice of a deployment in bulk are faces 1-6, and only while one is chosen")


def _check_pending(s: SaintLoState, phase: str) -> None:
    """A phase that waits on something has it: an attack, a window's seats, a seat to draw."""
    if s.phase in (Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL, Phase.SUPPORT, Phase.SUPPORT_REPLY) and s.attack is None:
        raise PositionError(f"phase {phase} needs an attack")
    if s.phase == Phase.WINDOW and s.window is None:
        raise PositionError("a Battle Report window needs its seats")
    if s.phase == Phase.DRAW and not s.draw_queue:
        raise PositionError("a draw needs a seat to draw")
