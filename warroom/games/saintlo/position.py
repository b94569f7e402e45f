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
BULK_KEYS = ("ready", *AREAS)
"""`SaintLoState.bulk` in a save: `ready` (the whole sector) or the part of the sector (placement.py)."""
SETUP_PHASES = (Phase.POSTS, Phase.DEPLOY)


def _unit(rules: SaintLoRules, u: int) -> str | None:
    return rules.t.unit_ids[u] if u != OFF else None


def state_to_json(rules: SaintLoRules, s: SaintLoState) -> dict[str, Any]:
    t = rules.t
    labels = t.labels
    units = {t.unit_ids[u]: {"hex": labels[s.pos[u]], "used": s.used[u]} for u in range(t.n_units) if s.pos[u] != OFF}
    posts = []
    for p in range(16):
        army, k = divmod(p, 8)
        h = s.post_hex[p]
        posts.append(
            {
                "army": ARMY_KEYS[army],
                "defense": t.post_values[army][k],
                "hex": labels[h] if h >= 0 else ("destroyed" if h == DESTROYED else None),
            }
        )
    a = s.attack
    w = s.window
    return {
        "phase": PHASE_KEYS[s.phase],
        "turn": s.turn,
        "active": ARMY_KEYS[s.active],
        "seat": rules.sides[s.seat],
        "options": {"objective": s.objective, "turn_limit": s.turn_limit},
        "supplies": {ARMY_KEYS[a_]: s.supplies[a_] for a_ in (0, 1)},
        "units": units,
        "posts": posts,
        "lost_posts": {ARMY_KEYS[a_]: s.lost_posts[a_] for a_ in (0, 1)},
        "hands": {
            rules.sides[seat]: [t.cards[army_of(s, seat)][c].id for c in s.hands[seat]] for seat in range(s.seats)
        },
        "deck": {ARMY_KEYS[a_]: {t.cards[a_][c].id: n for c, n in enumerate(s.deck[a_]) if n} for a_ in (0, 1)},
        "discard": {ARMY_KEYS[a_]: {t.cards[a_][c].id: n for c, n in enumerate(s.discard[a_]) if n} for a_ in (0, 1)},
        "effects": [
            {"army": ARMY_KEYS[a_], "card": t.cards[a_][c].id, "unit": _unit(rules, u)} for a_, c, u in s.effects
        ],
        "activations": s.activations,
        "current": _unit(rules, s.current),
        "moved": s.moved,
        "attacked": s.attacked,
        "paid": s.paid,
        "attack": None
        if a is None
        else {
            "attacker": t.unit_ids[a.attacker],
            "post": a.kind == TARGET_POST,
            "target": a.target if a.kind == TARGET_POST else t.unit_ids[a.target],
            "air": a.air,
            "supporters": [t.unit_ids[x] for x in a.supporters],
            "refused": [t.unit_ids[x] for x in a.refused],
            "asked": _unit(rules, a.asked),
            "attack_roll": a.attack_roll,
        },
        "window": None
        if w is None
        else {
            "queue": [rules.sides[q] for q in w.queue],
            "then": PHASE_KEYS[w.then],
            "reply": w.reply,
            "played": w.played,
            "army": ARMY_KEYS[w.army],
            "resume": rules.sides[w.resume],
        },
        "draw_queue": [rules.sides[q] for q in s.draw_queue],
        "swapped": list(s.swapped),
        "ended": list(s.ended),
        "start_rolls": list(s.start_rolls),
        "winner": ARMY_KEYS[s.winner] if s.winner != OFF else None,
        "bulk": BULK_KEYS[s.bulk] if s.bulk != OFF else None,
        **({"bulk_dice": list(s.bulk_dice)} if s.bulk_dice else {}),  # only while a bulk deployment's dice roll
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
    t = rules.t
    s = rules.initial_state(None, dict(data["options"]))
    seat_of = rules.seat_index
    army_of_key = {k: a for a, k in enumerate(ARMY_KEYS)}
    s.phase = Phase(PHASE_KEYS.index(data["phase"]))
    s.turn, s.active, s.seat = int(data["turn"]), army_of_key[data["active"]], seat_of[data["seat"]]
    s.supplies = [int(data["supplies"][k]) for k in ARMY_KEYS]
    if min(s.supplies) < 0:
        raise PositionError("Supplies are never negative (5.3)")
    for uid, where in data["units"].items():
        u = t.unit_index[uid]
        h = t.hex_of[where["hex"]]
        occupied = s.air_at if t.unit_type[u] == AIRCRAFT else s.land_at
        if occupied[h] != OFF:
            raise PositionError(f"two units in hex {where['hex']} (4.3, 6.1, 7.4: one a hex)")
        s.pos[u] = h
        occupied[h] = u
        s.used[u] = bool(where["used"])
    for p, post in enumerate(data["posts"]):
        where = post["hex"]
        if where == "destroyed":
            s.post_hex[p] = DESTROYED
        elif where is not None:
            h = t.hex_of[where]
            if h not in t.post_hexes[p // 8] or s.post_at[h] != OFF or s.land_at[h] != OFF:
                raise PositionError(f"a Command Post cannot stand on {where} (4.2)")
            s.post_hex[p], s.post_at[h] = h, p
    s.lost_posts = [int(data["lost_posts"][k]) for k in ARMY_KEYS]
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
    s.effects = tuple(
        (
            army_of_key[e["army"]],
            t.card_index[army_of_key[e["army"]]][e["card"]],
            t.unit_index[e["unit"]] if e["unit"] else OFF,
        )
        for e in data["effects"]
    )
    s.activations = int(data["activations"])
    if not 0 <= s.activations <= t.rules.activations_per_turn:
        raise PositionError("at most 10 units are used a turn (5.3)")
    s.current = t.unit_index[data["current"]] if data["current"] else OFF
    s.moved, s.attacked, s.paid = bool(data["moved"]), bool(data["attacked"]), bool(data["paid"])
    a = data["attack"]
    if a is not None:
        post = bool(a["post"])
        s.attack = Attack(
            t.unit_index[a["attacker"]],
            int(a["target"]) if post else t.unit_index[a["target"]],
            TARGET_POST if post else 0,
            bool(a["air"]),
            tuple(t.unit_index[x] for x in a["supporters"]),
            tuple(t.unit_index[x] for x in a["refused"]),
            t.unit_index[a["asked"]] if a["asked"] else OFF,
            int(a["attack_roll"]),
        )
    w = data["window"]
    if w is not None:
        s.window = Window(
            tuple(seat_of[q] for q in w["queue"]),
            Phase(PHASE_KEYS.index(w["then"])),
            bool(w["reply"]),
            bool(w["played"]),
            army_of_key[w["army"]],
            seat_of[w["resume"]],
        )
    s.draw_queue = tuple(seat_of[q] for q in data["draw_queue"])
    s.swapped = [int(x) for x in data["swapped"]]
    s.ended = [bool(x) for x in data["ended"]]
    s.start_rolls = tuple(int(x) for x in data["start_rolls"])
    s.winner = army_of_key[data["winner"]] if data["winner"] else OFF
    bulk = data.get("bulk")  # absent from the saves made before deployments in bulk
    s.bulk = BULK_KEYS.index(bulk) if bulk is not None else OFF
    s.bulk_dice = tuple(int(x) for x in data.get("bulk_dice", ()))
    if s.bulk_dice and (s.bulk == OFF or not all(1 <= d <= 6 for d in s.bulk_dice)):
        raise PositionError("the dice of a deployment in bulk are faces 1-6, and only while one is chosen")
    if s.phase in (Phase.ATTACK_ROLL, Phase.DEFENSE_ROLL, Phase.SUPPORT, Phase.SUPPORT_REPLY) and s.attack is None:
        raise PositionError(f"phase {data['phase']} needs an attack")
    if s.phase == Phase.WINDOW and s.window is None:
        raise PositionError("a Battle Report window needs its seats")
    if s.phase == Phase.DRAW and not s.draw_queue:
        raise PositionError("a draw needs a seat to draw")
    return s
