"""Saint-Lo's Battle Report windows online (4.5, 9; issue item 10): a person with nothing to play passes without
being asked, and every answer to a window, automatic or chosen, is shown no sooner than the same moment after
the window opened; the other seat is sent the same payloads either way."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from saintlo_positions import bare, give, place, rules2

from warroom.engine.match import Match

REVEAL_S = 0.2
"""The moment this test's service waits (shorter than a server's, so the test is quick)."""


def _window(axis_card: str) -> Match:
    """The Axis window after the Allied attack on its infantry; the Axis holds `axis_card`."""
    rules = rules2()
    s = bare(rules, supplies=(5, 0))
    give(rules, s, 0, "ace_of_tanks")
    give(rules, s, 1, axis_card)
    place(rules, s, "us_m4a1_76w.1", "0303")
    place(rules, s, "de_infantry.1", "0304")
    match = Match(rules, s, seed=4)
    match.play("attack us_m4a1_76w.1 0304")
    assert match.to_act == "Axis"
    return match


def _allied_sees(service: Any, live: Any) -> str:
    """What the Allied seat is sent of the game, without what differs between two games (ids, the secret seed's
    commitment)."""
    payload = service.payload(live, "Allied")
    shown = {key: payload[key] for key in ("view", "events", "actions", "battle_odds", "thinking", "move")}
    return json.dumps(shown, sort_keys=True)


async def _answered(service: Any, live: Any, axis_card: str) -> tuple[float, list[str]]:
    """The window answered online: automatically with nothing to play, else the person's pass, sent at once. How
    long after the window opened the answer was committed, and what Allied was sent at the window and after."""
    from warroom.engine.observe import concealed_decision

    seen = [_allied_sees(service, live)]
    opened = live.decided_at
    concealed = concealed_decision(live.match.ruleset, live.match.state)
    assert concealed is not None and concealed.rule == "Saint-Lo 9"
    if concealed.automatic is None:
        assert await service.hold_answer(live)  # the person's answer waits for the moment
        service.play(live, "Axis", "pass", live.version)
    else:
        service._schedule_automatic(live)
        for _ in range(10_000):  # polled: the automatic answer comes when its moment has come
            if live.match.to_act != "Axis":
                break
            await asyncio.sleep(0.01)
    assert live.match.to_act != "Axis" and live.steps[-1].action == "pass" and live.steps[-1].side == "Axis"
    seen.append(_allied_sees(service, live))
    return live.decided_at - opened, seen


def test_every_window_answer_is_shown_after_the_same_moment(db_url: str) -> None:
    # Saint-Lo 4.5 (hands taken "without showing them"), 9: Low Clouds has nothing to ground, Dug In has the
    # attacked infantry; the Axis person passes in both, automatically in the first, by choice in the second
    from warroom.web.service import GameService
    from warroom.web.storage import Store

    store = Store(db_url)
    try:
        service = GameService(store)
        service.reveal_s = REVEAL_S
        shown = []
        for card in ("low_clouds", "dug_in"):
            live = service.create("saintlo", mode="online", side="Allied").live
            live.match = _window(card)
            live.decided_at = time.monotonic()
            took, seen = asyncio.run(_answered(service, live, card))
            assert took >= REVEAL_S  # never sooner: a slower machine only makes it later
            shown.append(seen)
        assert shown[0] == shown[1]  # Allied cannot tell the automatic pass from the chosen one
    finally:
        store.close()


def test_an_automatic_answer_is_given_at_once_at_one_screen(db_url: str) -> None:
    # Saint-Lo 9, hot-seat: nobody else reads the timing at one screen, so the pass is given without a wait
    from warroom.web.service import GameService
    from warroom.web.storage import Store

    store = Store(db_url)
    try:
        service = GameService(store)
        service.reveal_s = 3600.0  # were it waited for, the test would not end
        live = service.create("saintlo", mode="hotseat").live
        live.match = _window("low_clouds")
        live.decided_at = time.monotonic()
        assert service.reveal_wait(live) == 0.0

        async def answered() -> None:
            service._schedule_automatic(live)
            for _ in range(10_000):
                if live.match.to_act != "Axis":
                    return
                await asyncio.sleep(0.01)

        asyncio.run(answered())
        assert live.steps[-1].action == "pass" and live.match.to_act != "Axis"
    finally:
        store.close()
