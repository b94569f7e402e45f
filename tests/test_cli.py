"""The `warroom` command line and the terminal game, driven as a user would: by typed lines.

Each session is checked against the same game played through the Python API, so a test fails
if the terminal plays a different action than the number typed, loses a die, or saves wrongly.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path

import pytest
from front_ends import terminal_process
from patience import SLOW_STATE_SECONDS
from rich.console import Console
from typer.testing import CliRunner

import warroom
from warroom.cli import app
from warroom.games.dragoon.render import FULL_WIDTH, render_board

RUNNER = CliRunner()
WIDE = {"COLUMNS": "120"}


def run(args: list[str], lines: list[str] | None = None) -> tuple[int, str]:
    result = RUNNER.invoke(app, args, input="".join(f"{line}\n" for line in lines or []), env=WIDE)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def first_actions(seed: int, count: int) -> warroom.Match:
    """The game that typing "1" `count` times plays: the first legal action each time."""
    match = warroom.new_game("dragoon", seed=seed)
    for _ in range(count):
        match.play(match.legal_actions()[0])
    return match


def number_of(match: warroom.Match, action: str) -> str:
    return str(match.legal_actions().index(action) + 1)


def lines_until(match: warroom.Match, wanted: str) -> list[str]:
    """The typed lines that bring `match` to where `wanted` is legal: invade, unstall the airborne, else end."""
    lines = []
    while wanted not in match.legal_actions():
        if match.to_act == "dice":
            lines.append("4")
            match.play("roll 4")
            continue
        legal = match.legal_actions()
        action = next(a for a in legal if a.startswith("invade") or a in ("activate 1st-ABTF", "accept", "end"))
        lines.append(number_of(match, action))
        match.play(action)
    return lines


# -- play ---------------------------------------------------------------------------------------------
def test_play_several_turns_by_number_then_save_and_quit(tmp_path: Path) -> None:
    # Dragoon: Sequence of Play Each Turn — 12 decisions reach the third turn with seed 3
    save = tmp_path / "game.json"
    code, out = run(["play", "dragoon", "--seed", "3"], ["1"] * 12 + [f"s {save}", "q", "n"])
    expected = first_actions(3, 12)
    assert code == 0
    assert expected.state.turn >= 17
    assert "Turn end: the turn marker advances to 16 August." in out
    assert "German BOT rolls" in out and "(Dragoon: German BOT Actions (BOT chart))" in out
    assert expected.log[-1]["text"] in out
    assert warroom.load(save).record().to_json() == expected.record().to_json()
    assert "Goodbye." in out


def test_menu_shows_plain_labels_and_exact_odds() -> None:
    # Dragoon: Resolving Unit Attacks — 3+ advances; the menu gives the exact chance as a fraction
    lines = lines_until(warroom.new_game("dragoon", seed=3), "attack 1st-ABTF Le-Muy-DZ->Frejus")
    code, out = run(["play", "dragoon", "--seed", "3"], [*lines, "q", "n"])
    assert code == 0
    assert "1st Airborne Task Force: attack 148th Infantry Division in Frejus" in out
    assert "[exactly 2/3]" in out  # DRM +0, no FFI: faces 3..6


def test_undo_takes_back_a_decision_but_never_a_die_roll(tmp_path: Path) -> None:
    save = tmp_path / "undo.json"
    match = first_actions(3, 1)  # invades: a die was rolled
    ffi = number_of(match, "ffi VI-Corps")
    code, out = run(["play", "dragoon", "--seed", "3"], ["1", "u", ffi, "u", f"s {save}", "q", "n"])
    assert code == 0
    assert "Cannot undo: the die roll (" in out  # the refusal names the roll that locked it
    assert "Took back the last decision." in out
    assert warroom.load(save).actions == ["invade VI-Corps Delta-Beach"]


def test_save_then_load_with_option_and_with_command(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert run(["play", "dragoon", "--seed", "5"], ["1", "1", "1", f"s {first}", "q", "n"])[0] == 0
    expected = first_actions(5, 3)
    code, out = run(["play", "dragoon", "--load", str(first)], [f"s {second}", "q", "n"])
    assert code == 0 and "Saved to" in out
    assert warroom.load(second).view() == warroom.load(first).view()
    assert warroom.load(second).view()["state"] == expected.view()["state"]
    code, out = run(["play", "dragoon", "--seed", "99"], [f"l {first}", "1", f"s {second}", "q", "n"])
    assert code == 0 and f"Loaded {first}" in out
    expected.play(expected.legal_actions()[0])
    assert warroom.load(second).actions == expected.actions


def test_manual_dice_reject_bad_values_then_accept_a_good_one(tmp_path: Path) -> None:
    # Dragoon: Resolving Unit Attacks — an invasion always advances; a 1 stalls it
    save = tmp_path / "manual.json"
    code, out = run(
        ["play", "dragoon", "--seed", "1", "--dice", "manual"], ["1", "7", "x", "0", "4", f"s {save}", "q", "n"]
    )
    assert code == 0
    assert "Roll a d6 and enter the result (1-6)" in out
    assert "7 is out of range: a d6 shows 1 to 6" in out
    assert "'x' is not a die result" in out
    assert "0 is out of range" in out
    assert "any roll advances, but a 1 stalls it" in out  # what the die decides, before it is rolled
    assert "Roll 4: advance." in out
    record = warroom.load(save).record()
    assert record.dice == [4] and record.dice_mode == "manual"


def test_manual_attack_shows_odds_before_the_roll() -> None:
    match = warroom.new_game("dragoon", seed=3, dice="manual")
    lines = lines_until(match, "attack 1st-ABTF Le-Muy-DZ->Frejus")
    lines.append(number_of(match, "attack 1st-ABTF Le-Muy-DZ->Frejus"))
    code, out = run(["play", "dragoon", "--seed", "3", "--dice", "manual"], [*lines, "q", "n"])
    assert code == 0
    # the BOT's 4s ("Coastal defenses", Dragoon: German BOT Actions) left the 148th desperate: DRM -1
    assert "1st-ABTF attacks 148-ID in Frejus: DRM -1, needs 4+ on the die to advance (chance 1/2 = 50.0%)." in out


def test_quit_offers_to_save(tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    code, out = run(["play", "dragoon", "--seed", "2"], ["1", "q", "y", str(save)])
    assert code == 0 and "Save before quitting?" in out and save.exists()
    assert warroom.load(save).actions == first_actions(2, 1).actions


def test_help_bad_input_and_end_of_input_are_handled() -> None:
    code, out = run(["play", "dragoon", "--seed", "2"], ["h", "42", "bogus"])
    assert code == 0
    assert "Sequence of play" in out and "u undo" in out
    assert "There is no action 42" in out
    assert "'bogus' is not a number or a command" in out
    assert "Input closed" in out


def test_saving_where_it_cannot_write_is_a_message_not_a_crash(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code, out = run(
        ["play", "dragoon", "--seed", "2"], [f"s {blocker}/sub/save.json", "l", f"l {tmp_path}/missing.json", "q", "n"]
    )
    assert code == 0
    assert "Cannot save to" in out
    assert "Type l FILE" in out
    assert "Cannot load" in out


def test_auto_heuristic_plays_while_you_watch(tmp_path: Path) -> None:
    # Issue 12: watching is continuous (no Enter before each move), one board a turn, then the save offer
    pytest.importorskip("warroom.ai")
    save = tmp_path / "Watched.json"
    code, out = run(["play", "dragoon", "--seed", "4", "--auto", "heuristic", "--pace", "0"], ["y", str(save)])
    assert code == 0
    assert "will play:" not in out and "Enter: play it" not in out
    played = warroom.load(save)
    assert played.over and out.count("▶ Computer (heuristic):") == len(played.actions)
    assert "why:" in out
    assert out.count("OPERATION DRAGOON 1944") <= played.state.turn - 14 + 2  # a board a turn (15..29 Aug), not a move
    assert f"warroom replay {save} steps through it again" in " ".join(out.split())


# -- bad input gives a message and an exit code, never a traceback ------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "dragoon", "--load", "/no/such/save.json"], "cannot read"),
        (["replay", "/no/such/save.json"], "cannot read"),
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "dragoon", "--scenario", "nowhere"], "no scenario 'nowhere'"),
        (["odds", "chess", "--drm", "0"], "unknown game"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    code, out = run(args)
    assert code != 0
    assert message in out and "Error" in out


def test_damaged_and_foreign_files_are_clear_errors(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"format": "warroom-record", ')
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"hello": 1}')
    for path, message in ((damaged, "damaged"), (foreign, "not a warroom record")):
        for args in (["replay", str(path)], ["play", "dragoon", "--load", str(path)]):
            code, out = run(args)
            assert code != 0 and message in out


def test_replay_json_needs_to_end(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    warroom.save(first_actions(1, 2), save)
    code, out = run(["replay", str(save), "--json"])
    assert code != 0 and "--to-end" in out


# -- replay --------------------------------------------------------------------------------------------------
def test_replay_to_end_json_equals_the_original_view(tmp_path: Path) -> None:
    match = first_actions(7, 40)
    save = tmp_path / "g.json"
    warroom.save(match, save)
    result = RUNNER.invoke(app, ["replay", str(save), "--to-end", "--json"], env=WIDE)
    assert result.exit_code == 0
    view = json.loads(result.stdout)
    original = match.view()
    # a loaded game may not undo past the point it was loaded from; everything else is identical
    view.pop("can_undo"), original.pop("can_undo")
    assert view == original


def test_replay_steps_forward_back_and_jumps(tmp_path: Path) -> None:
    match = first_actions(7, 12)
    save = tmp_path / "g.json"
    warroom.save(match, save)
    code, out = run(["replay", str(save)], ["", "n", "b", "g 12", "g 99", "n", "q"])
    assert code == 0
    assert "Step 0 of 12: Start of the game" in out
    assert "Step 2 of 12" in out and "Step 12 of 12" in out
    assert "g needs a step number from 0 to 12" in out
    assert "That was the last step" in out
    assert match.log[-1]["text"] in out


@pytest.mark.parametrize("dice", ["auto", "manual"])
def test_replay_positions_are_the_game_step_by_step(dice: str) -> None:
    from warroom.terminal import Replay

    match = warroom.new_game("dragoon", seed=9, dice=dice)
    rng = random.Random(9)
    states: list[dict] = []
    logs: list[int] = []
    while True:  # step k: after the k-th decision and every die it caused (typed in, with manual dice)
        if match.to_act != "dice":
            states.append(match.view()["state"])
            logs.append(len(match.log))
            if len(states) == 26:
                break
        match.play(rng.choice(match.legal_actions()))
    replay = Replay(match.record())
    assert replay.steps == 25
    for k in range(26):
        assert replay.at(k).view()["state"] == states[k], k
    assert replay.events(25) == match.log[logs[24] :]


def test_replay_to_end_shows_the_result_of_a_finished_game(tmp_path: Path) -> None:
    match = warroom.new_game("dragoon", seed=8)
    while not match.over:
        match.play(match.legal_actions()[-1])  # always "end": the Germans win, with the VP breakdown shown
    save = tmp_path / "done.json"
    warroom.save(match, save)
    code, out = run(["replay", str(save), "--to-end"])
    assert code == 0
    assert match.result is not None
    assert "German victory" in out and match.result.reason in out


# -- odds, games --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("drm", "ffi", "fraction", "percent"),
    [
        ("-1", True, "3/4", "75.00%"),  # 1/2 + 1/2 * 1/2
        ("0", False, "2/3", "66.67%"),
        ("-2", False, "1/3", "33.33%"),  # Dragoon: fortress -1 and desperate -1 are cumulative
        ("1", True, "35/36", "97.22%"),  # Air support +1
    ],
)
def test_odds_for_known_drms(drm: str, ffi: bool, fraction: str, percent: str) -> None:
    args = ["odds", "dragoon", "--drm", drm] + (["--ffi"] if ffi else [])
    code, out = run(args)
    assert code == 0 and f"Advance: {fraction} = {percent}" in out
    result = RUNNER.invoke(app, [*args, "--json"])
    data = json.loads(result.stdout)
    assert data["fraction"] == fraction and data["advance"] == pytest.approx(float(percent[:-1]) / 100, abs=1e-4)


def test_odds_table_covers_every_drm() -> None:
    code, out = run(["odds", "dragoon"])
    assert code == 0 and "11/36" in out and "5/9" in out


def test_games_lists_dragoon() -> None:
    code, out = run(["games"])
    assert code == 0 and "dragoon" in out and "Operation Dragoon 1944" in out
    data = json.loads(RUNNER.invoke(app, ["games", "--json"]).stdout)
    assert any(g["id"] == "dragoon" and g["sides"] == ["Allied"] for g in data)


def test_games_shows_how_many_play_as_plays_help_promises() -> None:
    # `warroom play --players N` says "warroom games shows the counts" (issue 38, 19)
    helped = RUNNER.invoke(app, ["play", "--help"], env={"COLUMNS": "300"}).output
    assert "warroom games shows the counts" in " ".join(helped.replace("│", " ").split())
    data = {g["id"]: g for g in json.loads(RUNNER.invoke(app, ["games", "--json"]).stdout)}
    assert data["dragoon"]["players"] == [1] and data["patton"]["players"] == [2]
    assert data["saintlo"]["players"] == [2, 4]  # `play saintlo --players 4` is the team game
    code, out = run(["games"])
    assert code == 0 and "players" in out and "2 or 4" in out


def test_odds_with_no_fields_prints_the_usage_not_a_field_error() -> None:
    # issue 38, 19: `warroom odds saintlo` with nothing else said which field was None
    result = RUNNER.invoke(app, ["odds", "saintlo"], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert "--attack-dice" in result.output and "needs the battle's fields" in " ".join(result.output.split())
    assert RUNNER.invoke(app, ["odds", "dragoon"]).exit_code == 0  # a game whose odds need no field still answers


# -- commands backed by other modules ------------------------------------------------------------------------
def test_protocol_command() -> None:
    pytest.importorskip("warroom.protocol")
    result = RUNNER.invoke(app, ["protocol"], input='{"cmd":"games"}\n{"cmd":"quit"}\n')
    assert result.exit_code == 0
    first = json.loads(result.stdout.splitlines()[0])
    assert first["ok"] and any(g["id"] == "dragoon" for g in first["games"])


def test_simulate_command_json() -> None:
    pytest.importorskip("warroom.analysis.simulate")
    result = RUNNER.invoke(app, ["simulate", "dragoon", "--games", "4", "--agent", "random", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 4 and sum(report["outcomes"].values()) == 4


def test_simulate_command_table() -> None:
    pytest.importorskip("warroom.analysis.simulate")
    code, out = run(["simulate", "dragoon", "--games", "3", "--agent", "random"])
    assert code == 0 and "Outcomes" in out


def test_simulate_side_agents_by_the_scenarios_names() -> None:
    # --side-agent SIDE=AGENT: a side by its id or the scenario's name for it (the spec's terms), never a flag per side
    pytest.importorskip("warroom.analysis.simulate")
    result = RUNNER.invoke(
        app,
        [
            "simulate",
            "patton",
            "--scenario",
            "bulge",
            "--games",
            "2",
            "--agent",
            "random",
            "--side-agent",
            "german=heuristic",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["agent"] == "Allied random, Axis heuristic"
    for pair, words in (
        ("Martians=random", "must be one of Allied, Axis, American, German"),
        ("Axis=oracle", "must be one of"),
        ("Axis", "SIDE=AGENT"),
    ):
        code, out = run(["simulate", "patton", "--scenario", "bulge", "--games", "1", "--side-agent", pair])
        assert code == 1 and words in " ".join(out.split()), out


def test_odds_options_come_from_the_games_odds_fields() -> None:
    # one request model: `warroom odds G` offers each game's spec fields, as options or FIELD=VALUE, and
    # answers what the protocol's {"cmd":"odds","game":G,...} answers for the same fields
    from warroom.games import get_spec
    from warroom.protocol import ProtocolSession

    for game in ("dragoon", "patton"):
        odds = get_spec(game).odds
        assert odds is not None
        flags = {f"--{f.name.replace('_', '-')}" for f in odds().fields}
        assert flags <= set(_bool_flags()["odds"]) | set(
            re.findall(r"--[a-z-]+", RUNNER.invoke(app, ["odds", "--help"], env={"COLUMNS": "200"}).output)
        )
    pairs = RUNNER.invoke(app, ["odds", "patton", "attacker=2A3I", "defender=1A2I", "retreat_battle=true", "--json"])
    options = RUNNER.invoke(
        app, ["odds", "patton", "--attacker", "2A3I", "--defender", "1A2I", "--retreat-battle", "--json"]
    )
    assert pairs.exit_code == options.exit_code == 0, pairs.output + options.output
    answer = json.loads(pairs.stdout)
    assert answer == json.loads(options.stdout)
    protocol = ProtocolSession().handle(
        {
            "cmd": "odds",
            "game": "patton",
            "attacker": {"armor": 2, "infantry": 3},
            "defender": {"armor": 1, "infantry": 2},
            "retreat_battle": True,
        }
    )
    assert {k: v for k, v in protocol.items() if k != "ok"}.items() <= answer.items()
    assert answer["defender_dice"] == 4  # 1A2I: 2 dice, +2 for the Optional Retreating Rule
    wrong = RUNNER.invoke(app, ["odds", "patton", "--drm", "1", "--attacker", "1A", "--defender", "1A"])
    assert wrong.exit_code == 1 and "takes --attacker, --defender, --retreat-battle, not --drm" in " ".join(
        wrong.output.split()
    )
    table = json.loads(
        RUNNER.invoke(app, ["odds", "dragoon", "--json"]).stdout
    )  # no --drm: every DRM, with and without FFI
    assert {(row["drm"], row["ffi"]) for row in table["survey"]} == {
        (d, f) for d in range(-3, 3) for f in (False, True)
    }
    assert RUNNER.invoke(app, ["odds", "dragoon", "drm=x"]).exit_code == 1


def test_bench_command_json() -> None:
    pytest.importorskip("warroom.analysis.bench")
    result = RUNNER.invoke(app, ["bench", "--json", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == "dragoon"


def test_bench_command_takes_a_game_and_scenario() -> None:
    pytest.importorskip("warroom.analysis.bench")
    result = RUNNER.invoke(app, ["bench", "patton", "--scenario", "bulge", "--json", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["game"], report["scenario"]) == ("patton", "bulge")
    code, out = run(["bench", "patton", "--scenario", "kursk", "--seconds", "0.05"])
    assert code == 1 and "no scenario 'kursk'" in out


def test_serve_passes_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    server = pytest.importorskip("warroom.web.server")
    calls = []
    monkeypatch.setattr(server, "serve", lambda **kwargs: calls.append(kwargs))
    code, _ = run(["serve", "--host", "0.0.0.0", "--port", "0", "--db", "sqlite:///x.db"])
    assert code == 0 and calls == [{"host": "0.0.0.0", "port": 0, "db": "sqlite:///x.db"}]


def test_missing_optional_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "warroom.web.server", None)  # as if the web server were not installed
    code, out = run(["serve"])
    assert code == 1 and "not available in this installation" in out


# -- the board -------------------------------------------------------------------------------------------------
def board_text(match: warroom.Match, width: int = 120) -> list[str]:
    console = Console(record=True, width=width, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(render_board(match))
    return console.export_text().splitlines()


def test_board_fits_120_columns_and_45_lines_all_game_long() -> None:
    rng = random.Random(5)
    match = warroom.new_game("dragoon", seed=5)
    heights = []
    while not match.over:
        lines = board_text(match)
        heights.append(len(lines))
        assert max(len(line) for line in lines) <= 120
        match.play(rng.choice(match.legal_actions()))
    assert max(heights) < 45, max(heights)


def test_board_shows_units_status_and_boxes() -> None:
    start = warroom.new_game("dragoon", seed=1)
    text = "\n".join(board_text(start))
    for expected in (
        "15 Aug",
        "RP left 3",
        "Air available",
        "[15]",
        "Toulon",
        "Marseilles",
        "Cannes",
        "2VP",
        "fort-1",
        "19-RS",
        "338-ID",
        "Arles",
        "Montelimar",
        "Escaped",
        "Eliminated 0",
        "Arriving at Arles",
        "no port held yet",
    ):
        assert expected in text, expected
    position = start.view()["state"]
    position["allied"]["VI-Corps"] = {"location": "Draguignan", "stalled": True, "ffi": True, "spent": False}
    position["german"]["19-RS"]["desperate"] = True
    position["german"]["11-PzD"] = {"location": "Avignon", "desperate": True}
    position["german"]["198-ID"] = {"location": "Avignon", "desperate": False}
    position["german"]["242-ID"] = {"location": "eliminated", "desperate": False}
    position["eliminated"] = {"242-ID": 15}
    position["allied_control"] = ["Delta-Beach", "Draguignan"]
    position["air"]["grounded"] = True
    text = "\n".join(board_text(warroom.new_game("dragoon", seed=1, position=position)))
    assert "STALL FFI" in text  # Dragoon: FFI, stalled status
    assert "19-RS   -1" in text  # Dragoon: German Desperate Defense
    assert "^11-PzD -2" in text and "198-ID" in text  # 11th PzD Special Rules: the desperate PzD on top
    assert "Eliminated 1" in text and "242-ID (15)" in text and "VP so far 1" in text
    assert "Air grounded (bad weather)" in text


def test_narrow_console_gets_the_compact_board() -> None:
    match = first_actions(2, 6)
    lines = board_text(match, width=80)
    assert max(len(line) for line in lines) <= 80
    assert any("[Frejus" in line for line in lines)
    assert FULL_WIDTH <= 120


# -- a real terminal ------------------------------------------------------------------------------------------
def test_play_in_a_pseudo_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = terminal_process(["play", "dragoon", "--seed", "3"])
    try:
        for _ in range(3):
            child.expect(r"Choose 1-\d+ \(h help")
            child.sendline("1")
            child.expect("▶ ")
        child.expect(r"Choose 1-\d+")
        child.sendline("q")
        child.expect(r"Save before quitting\? \[y/N\]")
        child.sendline("n")
        child.expect("Goodbye.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_ctrl_c_offers_to_save_the_game_before_it_ends(tmp_path: Path) -> None:
    # issue 38, 19: Ctrl-C quit without offering to save; it now asks as q does (a second Ctrl-C leaves at once)
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "interrupted.json"
    child = terminal_process(["play", "dragoon", "--seed", "3"])
    try:
        child.expect(r"Choose 1-\d+ \(h help")
        child.sendline("1")
        child.expect(r"Choose 1-\d+")
        child.sendintr()
        child.expect(r"Save before quitting\? \[y/N\]")
        child.sendline("y")
        child.expect(r"Save as \[")
        child.sendline(str(save))
        child.expect("Goodbye.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert len(warroom.load(save).actions) == 1  # the decision made before the interrupt is kept


def test_odds_patton_battle_matches_the_engine_and_rejects_bad_forces() -> None:
    # Patton: Battles — 1 die per armor, 1 per 2 infantry; the CLI answers with the engine's exact odds
    from warroom.games.patton.odds import protocol_odds

    result = RUNNER.invoke(app, ["odds", "patton", "--attacker", "2A3I", "--defender", "1A2I", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    expected = protocol_odds({"attacker": {"armor": 2, "infantry": 3}, "defender": {"armor": 1, "infantry": 2}})
    assert answer["attacker_dice"] == 3 and answer["defender_dice"] == 2
    assert answer["attacker_higher"] == expected["attacker_higher"]
    assert abs(answer["attacker_higher"] + answer["defender_higher"] + answer["tie"] - 1) < 1e-12
    bad = RUNNER.invoke(app, ["odds", "patton", "--attacker", "two tanks", "--defender", "1I"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output and "2A3I" in bad.output


def test_play_patton_against_the_computer_lets_it_move_only_the_other_side() -> None:
    # Patton: Sequence of Play — with --vs ai the computer makes the other side's decisions
    result = RUNNER.invoke(
        app, ["play", "patton", "--scenario", "bulge", "--vs", "ai", "--side", "Axis", "--seed", "2"], input="q\nn\n"
    )
    assert result.exit_code == 0, result.output
    assert "American: the computer (heuristic) plays" in result.output  # its turn, summed up under one heading
    assert (
        "German to decide" in result.output and "Axis to decide" not in result.output
    )  # the scenario's names (issue 12)
    solitaire = RUNNER.invoke(app, ["play", "dragoon", "--vs", "ai"], input="q\nn\n")
    assert solitaire.exit_code != 0 and "solitaire" in solitaire.output
    wrong_side = RUNNER.invoke(app, ["play", "patton", "--vs", "ai", "--side", "Martians"], input="q\n")
    assert wrong_side.exit_code != 0 and "--side must be one of" in wrong_side.output


def test_play_patton_shows_the_odds_of_every_battle_before_its_dice() -> None:
    # Issue 4: exact odds "shown to the player before every battle in every front end" — on the attack
    # in the menu, on the choice of the next battle, on the board, and at each typed-in battle die.
    lines = ["9", "move 1A Lessay->Coutances", "move 2A1I St-Lo->Tessy", "end", "battle Tessy", "b", "q", "n"]
    code, out = run(
        ["play", "patton", "--scenario", "normandy", "--dice", "manual", "--flat"], lines
    )  # every label in one list
    assert code == 0
    assert "Attack Coutances from Lessay with 1A (1 MP) [1 v 0 dice · first round: win 100%, tie 0%, lose 0%]" in out
    assert "Attack Tessy from St. Lo with 2I (4 MP) [1 v 0 dice · first round: win 100%, tie 0%, lose 0%]" in out
    assert "Fight the battle for Coutances next [1 v 0 dice · first round: win 100%" in out
    assert (
        "odds · Tessy: American 2A1I (2 dice) against 1I (0 dice): this round, "
        "casualties counted: attacker takes it 100%" in out
    )
    die_prompt = "American die 1 of 2. Battle for Tessy (round 1): American 2A1I (2 dice) against German 1I (0 dice)"
    assert out.count(die_prompt) == 2  # and again after b (redraw) at the die prompt
    assert "Turn up the movement card and enter its value (2, 4, 5, 6, 7, 8, 9, 10, 11, 12)" in out


def test_play_patton_menu_odds_count_units_already_outside_the_town() -> None:
    # Patton: Battles — "If the attacking player has Units on two or more roads approaching the town they
    # are considered as a single attack force": the second attacking move's odds include the first stack.
    match = warroom.new_game("patton", "normandy", seed=1, dice=[12])
    match.play("move 1I Lessay->Coutances")
    from warroom.games.patton.render import action_label

    assert action_label(match, "move 1I Periers->Coutances").endswith(
        "[1 v 0 dice · first round: win 100%, tie 0%, lose 0%]"
    )
    assert action_label(match, "move 1A Periers->Lessay") == match.ruleset.describe_action(
        match.state, "move 1A Periers->Lessay"
    )


def test_play_keeps_a_drawn_seed_secret_until_the_end(tmp_path: Path) -> None:
    # Hidden information: the seed and the moves so far tell every card and die to come
    code, out = run(["play", "patton", "--vs", "human"], ["q", "n"])
    assert code == 0 and "a secret seed (shown when the game ends)" in out
    assert "seed" not in out.replace("a secret seed", "")
    code, out = run(["play", "patton", "--seed", "5", "--vs", "human"], ["q", "n"])
    assert code == 0 and "seed 5," in out
    code, out = run(["play", "dragoon", "--seed", "5", "--auto", "random"], ["c"])
    assert code == 0 and "The game's seed was 5" in out


def test_play_takes_rules_options_and_the_scenarios_side_names(tmp_path: Path) -> None:
    save = tmp_path / "options.json"
    code, out = run(
        [
            "play",
            "patton",
            "--scenario",
            "bulge",
            "--seed",
            "3",
            "--vs",
            "ai",
            "--side",
            "german",
            "--option",
            "advanced_retreat=Yes",
        ],
        [f"s {save}", "q", "n"],
    )
    assert code == 0, out
    assert warroom.load(save).options == {"advanced_retreat": True}
    assert "German to decide" in out and "the computer (heuristic) plays" in out  # "german" named the Axis seat
    code, out = run(["play", "patton", "--option", "advanced_retreat"], [])
    assert code == 1 and "KEY=VALUE" in out
    code, out = run(["play", "patton", "--option", "fog_of_war=true"], [])
    assert code == 1 and "unknown Patton option" in out
    code, out = run(["play", "patton", "--scenario", "bulge", "--option", "turn_limit=9"], [])
    assert code == 1 and "turn_limit is for Sicily" in out
    code, out = run(["play", "patton", "--option", "advanced_retreat=maybe"], [])
    assert code == 1 and "advanced_retreat must be true or false" in out
    from warroom.cli import parse_options

    assert parse_options(["advanced_retreat=False", "turn_limit=12", "placement=manual"]) == {
        "advanced_retreat": False,
        "turn_limit": 12,
        "placement": "manual",
    }
    code, out = run(["play", "patton", "--load", str(save), "--option", "turn_limit=3"], [])
    assert code == 1 and "keeps the options it was saved with" in out


# -- first contact: help text, --version, python -m warroom, --load alone, players kept (issue 12) ------
def _bool_flags() -> dict[str, list[str]]:
    """Every command's on/off flags (no value taken), found from the app itself so a new flag is checked too."""
    import typer.main

    root = typer.main.get_command(app)
    flags: dict[str, list[str]] = {"": [opt for p in root.params if getattr(p, "is_flag", False) for opt in p.opts]}
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        # get_params: `odds` makes its options from the games' odds fields when asked
        params = command.get_params(typer.Context(command))
        flags[name] = [opt for p in params if getattr(p, "is_flag", False) and p.name != "help" for opt in p.opts] + [
            "--help"
        ]
    return flags


def test_help_shows_flags_without_a_value_placeholder() -> None:
    # issue 12: typer 0.29 printed "--ffi <bool>" and "--help <bool>" while "--ffi true" is refused
    import re

    flags = _bool_flags()
    assert "--ffi" in flags["odds"] and "--version" in flags[""] and "--flat" in flags["play"]
    for command, names in flags.items():
        result = RUNNER.invoke(app, [command, "--help"] if command else ["--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        for name in names:
            line = next((row for row in result.output.splitlines() if re.search(rf"{name}\b(?!-)", row)), None)
            assert line is not None, f"{command} --help does not list {name}"
            after = line.split(name, 1)[1]
            assert not re.match(r"\s+(<\w+>|BOOLEAN|TEXT)", after), f"{command}: {line.strip()}"
    odds_help = RUNNER.invoke(app, ["odds", "--help"], env={"COLUMNS": "200"}).output
    assert re.search(r"--drm\s+(<int>|INTEGER)", odds_help)  # options that take a value still say so
    refused = RUNNER.invoke(app, ["odds", "dragoon", "--ffi", "true"])
    assert refused.exit_code == 2
    assert RUNNER.invoke(app, ["odds", "dragoon", "--drm", "0", "--ffi", "--json"]).exit_code == 0


def test_version_and_python_m_warroom() -> None:
    import subprocess

    from warroom import __version__

    result = RUNNER.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"warroom {__version__}"
    done = subprocess.run(
        [sys.executable, "-m", "warroom", "--version"], capture_output=True, text=True, timeout=SLOW_STATE_SECONDS
    )
    assert done.returncode == 0 and done.stdout.strip() == f"warroom {__version__}", done.stderr
    listed = subprocess.run(
        [sys.executable, "-m", "warroom", "games", "--json"], capture_output=True, text=True, timeout=SLOW_STATE_SECONDS
    )
    assert listed.returncode == 0 and "dragoon" in {g["id"] for g in json.loads(listed.stdout)}


def test_play_load_needs_no_game_name(tmp_path: Path) -> None:
    # issue 12: the save message says "warroom play --load FILE"; it must work as printed
    save = tmp_path / "g.json"
    code, out = run(["play", "dragoon", "--seed", "3"], ["1", f"s {save}", "q", "n"])
    assert code == 0 and f"warroom play --load {save}" in " ".join(out.split())
    code, out = run(["play", "--load", str(save)], [f"s {tmp_path / 'again.json'}", "q", "n"])
    assert code == 0, out
    assert "Loaded" in out and "Dragoon" in out
    assert warroom.load(tmp_path / "again.json").actions == warroom.load(save).actions
    code, out = run(["play", "patton", "--load", str(save)], [])
    assert code == 1 and "saved dragoon game" in out and f"warroom play --load {save}" in " ".join(out.split())
    code, out = run(["play"], [])
    assert code == 1 and "--load FILE" in out and "Traceback" not in out


def test_a_game_against_the_computer_comes_back_against_it(tmp_path: Path) -> None:
    # issue 12: a save against the computer came back as hot-seat, silently
    from warroom.engine.record import read_record, save_record

    save = tmp_path / "vs.json"
    code, out = run(
        ["play", "patton", "--scenario", "bulge", "--vs", "ai", "--side", "Axis", "--seed", "2"],
        [f"s {save}", "q", "n"],
    )
    assert code == 0, out
    assert read_record(save).players == {"Allied": {"agent": "heuristic"}}
    code, out = run(["play", "--load", str(save)], ["q", "n"])
    assert code == 0 and "the computer (heuristic) plays American" in out
    code, out = run(["play", "--load", str(save), "--vs", "human"], ["q", "n"])  # seated anew on purpose
    assert code == 0 and "people play every side" in out
    # a save where the computer's side is to act: loaded, the computer moves at once
    start = warroom.new_game("patton", "bulge", seed=2)
    assert start.to_act == "Allied"
    record = start.record()
    record.players = {"Allied": {"agent": "heuristic"}}
    fresh = tmp_path / "fresh.json"
    save_record(record, fresh)
    after = tmp_path / "after.json"
    code, out = run(["play", "--load", str(fresh)], [f"s {after}", "q", "n"])
    assert code == 0 and warroom.load(after).actions  # the computer played American's moves before the prompt
    assert read_record(after).players == {"Allied": {"agent": "heuristic"}}
    code, out = run(["play", "--load", str(fresh), "--vs", "human"], [f"s {after}", "q", "n"])
    assert code == 0 and warroom.load(after).actions == []
    # hot-seat is said in the save too, and an older save without "players" loads as before
    hot = tmp_path / "hot.json"
    code, out = run(["play", "patton", "--vs", "human", "--seed", "1"], [f"s {hot}", "q", "n"])
    assert code == 0 and read_record(hot).players == {}
    old = json.loads(hot.read_text())
    del old["header"]["players"]
    hot.write_text(json.dumps(old))
    assert read_record(hot).players is None
    code, out = run(["play", "--load", str(hot)], ["q", "n"])
    assert code == 0 and "people play every side" in out


def test_the_in_game_load_restores_the_players_too(tmp_path: Path) -> None:
    from warroom.engine.record import save_record

    record = warroom.new_game("patton", "bulge", seed=2).record()
    record.players = {"Allied": {"agent": "heuristic"}}
    save = tmp_path / "vs.json"
    save_record(record, save)
    after = tmp_path / "after.json"
    code, out = run(
        ["play", "patton", "--scenario", "bulge", "--vs", "human", "--seed", "2"], [f"l {save}", f"s {after}", "q", "n"]
    )
    assert code == 0 and "the computer (heuristic) plays American" in out
    assert warroom.load(after).actions  # the computer moved for American once the save was loaded


def test_players_header_round_trips_and_is_checked() -> None:
    from warroom.ai import get_agent
    from warroom.engine.errors import RecordError
    from warroom.engine.record import Record
    from warroom.terminal import computer_players, players_of

    match = warroom.new_game("patton", "sicily", seed=1)
    mcts = get_agent("mcts", "patton", 40, 1)
    players = players_of(match, mcts, {"Axis"})
    assert players == {"Axis": {"agent": "mcts", "budget_ms": 40}}
    agent, sides = computer_players(players, match)
    assert (agent.name, agent.budget_ms, sides) == ("mcts", 40, {"Axis"})
    assert computer_players(players, match, budget_ms=70)[0].budget_ms == 70  # --budget-ms on --load wins
    watched = players_of(match, get_agent("heuristic", "patton"), None)
    assert set(watched) == {"Allied", "Axis"} and computer_players(watched, match)[1] is None  # --auto: you watch
    assert players_of(match, None, None) == {} and computer_players({}, match) == (None, None)
    record = match.record()
    record.players = players
    assert Record.from_json(record.to_json()).players == players
    assert "players" not in match.record().to_json()["header"]  # the engine's own records say nothing of seats
    for bad, words in [
        ([], "must be an object"),
        ({"Axis": "mcts"}, "must be an object"),
        ({"Axis": {}}, 'needs "agent"'),
        ({"Axis": {"agent": "mcts", "budget_ms": 0}}, "positive integer"),
        ({"Axis": {"agent": "mcts", "budget_ms": True}}, "positive integer"),
        ({"Axis": {"agent": "mcts", "colour": "red"}}, "no field 'colour'"),
    ]:
        data = record.to_json()
        data["header"]["players"] = bad
        with pytest.raises(RecordError, match=words):
            Record.from_json(data)
    with pytest.raises(RecordError, match="not a side of"):
        computer_players({"Martians": {"agent": "heuristic"}}, match)
    with pytest.raises(RecordError, match="different computer players"):
        computer_players({"Allied": {"agent": "heuristic"}, "Axis": {"agent": "random"}}, match)
    with pytest.raises(warroom.WarroomError, match="unknown agent"):
        computer_players({"Axis": {"agent": "oracle"}}, match)


def test_bench_table_explains_the_missing_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 12: bench printed "open_spiel (module pyspiel) is not installed" with no word of why it matters
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if not installed
    code, out = run(["bench", "--seconds", "0.02"])
    assert code == 0
    assert "openspiel" not in out and "warroom does not need it" in " ".join(out.split())


def test_dragoons_held_boxes_read_without_colour() -> None:
    # issue 38, 19: with NO_COLOR the legend said "green box" and Allied-held boxes looked like German-held ones
    m = warroom.new_game("dragoon", seed=3)
    chooser = random.Random(3)
    while not any(m.state.control) and not m.over:
        m.play(chooser.choice(m.legal_actions()))
    assert any(m.state.control)
    plain = Console(width=FULL_WIDTH, no_color=True, color_system=None, record=True)
    plain.print(render_board(m))
    out = plain.export_text()
    assert "double box: Allied-held" in out
    held = sum(m.state.control)
    assert out.count("╔") >= held > 0  # every held location's box is drawn double, colour or not
