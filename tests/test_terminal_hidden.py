"""The terminal against the computer prints only what the person's side may see (a rules audit as a cheating
opponent found every event printed, the computer's face-down deployment and its cards drawn among them)."""

from __future__ import annotations

import re
from pathlib import Path

from front_ends import terminal_against_the_computer


def _play_allied_against_the_computer(answers: int) -> str:
    return terminal_against_the_computer("saintlo", seed=11, computer="Axis", answers=answers)


def test_the_computers_face_down_units_and_cards_stay_unnamed() -> None:
    # Saint-Lo 4.3 (deployed face down), 5.2 and 9 (a hand is its owner's)
    text = _play_allied_against_the_computer(90)
    assert re.search(r"Allied deploys [^\n]+? face down", text)  # one's own deployment is told
    assert not re.search(r"Axis deploys [^\n]+? face down", text)
    assert not re.search(r'Axis draws "', text)


def test_an_unfinished_game_against_the_computer_replays_from_the_persons_side(tmp_path: Path) -> None:
    # issue 38, 19: `warroom replay` of an unfinished game showed the computer's face-down deployment (Saint-Lo
    # 4.3); it replays as the person saw it, and whole once the game is over
    import dataclasses
    import json
    import random

    from typer.testing import CliRunner

    import warroom
    from warroom.cli import app
    from warroom.engine.record import save_record

    m = warroom.new_game("saintlo", seed=11)
    chooser = random.Random(11)
    axis_deploys = 0  # a decision that deployed an Axis unit face down
    for step in range(1, 161):  # the posts, Allied's deployment, then some of the Axis's
        before = len(m.log)
        m.play(chooser.choice(m.legal_actions()))
        if any(event["text"].startswith("Axis deploys") for event in m.log[before:]):
            axis_deploys = step
    assert not m.over and axis_deploys
    record = dataclasses.replace(m.record(), players={"Axis": {"agent": "heuristic"}})
    path = tmp_path / "unfinished.json"
    save_record(record, path)
    whole = "\n".join(event["text"] for event in m.log)
    assert re.search(r"Axis deploys [^\n]+? face down", whole)  # the record does hold the computer's secret

    runner = CliRunner()
    shown = runner.invoke(app, ["replay", str(path)], input="\n" * 170 + "q\n", env={"COLUMNS": "120"}).output
    assert "replays as Allied saw it" in " ".join(shown.split())
    assert re.search(r"Allied deploys [^\n]+? face down", shown)
    assert not re.search(r"Axis deploys [^\n]+? face down", shown), "the computer's face-down deployment was named"
    assert "the computer's decision for Axis" in shown
    final = json.loads(runner.invoke(app, ["replay", str(path), "--to-end", "--json"]).stdout)
    assert final == json.loads(json.dumps(m.view("Allied")))

    played = dataclasses.replace(record, players=None)  # people on both sides: nothing to keep from anyone
    save_record(played, path)
    shown = runner.invoke(app, ["replay", str(path)], input=f"g {axis_deploys}\nq\n", env={"COLUMNS": "120"}).output
    assert re.search(r"Axis deploys [^\n]+? face down", shown)
