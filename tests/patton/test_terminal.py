"""Patton in the terminal as a newcomer plays it (issue 12, items 8-16): step menus, the computer's
turn summed up, owners in text, the scenario's side names, labelled odds, several dice on a line,
continuous watching, the save's seed, and a whole game against the computer in a pseudo-terminal."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from front_ends import terminal_process
from rich.console import Console
from typer.testing import CliRunner

import warroom
from warroom.cli import app
from warroom.engine.record import read_record
from warroom.menus import build_level, find, wrap_words
from warroom.terminal import Replay, TerminalGame, TerminalReplay

RUNNER = CliRunner()


def session(match: warroom.Match, lines: list[str], **kwargs: Any) -> tuple[TerminalGame, io.StringIO]:
    """A terminal game fed `lines`, printing plain text (no colour: what NO_COLOR or a pipe shows)."""
    out = io.StringIO()
    console = Console(file=out, width=120, no_color=True, highlight=False, color_system=None)
    feed: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        out.write(prompt)
        line = next(feed, None)
        if line is None:
            raise EOFError
        out.write(line + "\n")
        return line

    return TerminalGame(match, console, ask=ask, **kwargs), out


def run(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = RUNNER.invoke(
        app, args, input="".join(f"{line}\n" for line in lines), env={"COLUMNS": "120", "NO_COLOR": "1"}
    )
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


# -- 8: step menus ------------------------------------------------------------------------------------------
def test_first_screen_is_a_short_menu_of_towns_not_167_lines() -> None:
    # Patton: Using Movement Points — every stack size over every road is legal; the menu groups them by town
    match = warroom.new_game("patton", "normandy", seed=1)
    game, out = session(match, [])
    game.run()
    text = out.getvalue()
    assert len(match.legal_actions()) > 140
    assert "Choose 1-4, or type a name or all" in text
    assert "From St. Lo (5A3I) ▸ 73 choices" in text
    assert "End movement (5 MP unused) and fight the battles" in text


def test_choosing_in_steps_a_town_a_destination_then_the_force_with_its_odds() -> None:
    match = warroom.new_game("patton", "normandy", seed=1)
    expected = warroom.new_game("patton", "normandy", seed=1)
    expected.play("move 1A St-Lo->Coutances")
    game, out = session(match, ["3", "2", "0", "2", "4"])
    game.run()
    text = out.getvalue()
    assert "From St. Lo (5A3I) › attack Coutances (German 1I) · solid road, 1 MP a Unit" in text
    assert "4. 1A (1 MP) [1 v 0 dice · first round: win 100%, tie 0%, lose 0%]" in text
    assert "0. back" in text
    assert match.actions == expected.actions == ["move 1A St-Lo->Coutances"]


def test_a_typed_name_finds_every_action_naming_it_and_a_force_picks_itself() -> None:
    match = warroom.new_game("patton", "normandy", seed=1)
    game, out = session(match, ["tessy", "2A"])
    game.run()
    text = out.getvalue()
    assert "actions naming 'tessy'" in text
    assert "5. Attack Tessy from St. Lo with 2A (4 MP) [2 v 0 dice · first round: win 100%" in text  # few: listed whole
    assert match.actions == ["move 2A St-Lo->Tessy"]


def test_all_lists_every_action_numbered_as_scripts_expect_and_flat_keeps_it() -> None:
    match = warroom.new_game("patton", "normandy", seed=1)
    legal = match.legal_actions()
    game, out = session(match, ["all", str(legal.index("move 3I Periers->St-Lo") + 1)])
    game.run()
    assert f"Choose 1-{len(legal)}, 0 steps" in out.getvalue()
    assert match.actions == ["move 3I Periers->St-Lo"]
    flat_match = warroom.new_game("patton", "normandy", seed=1)
    game, out = session(flat_match, ["7"], flat=True)
    game.run()
    assert f"Choose 1-{len(legal)} (h help" in out.getvalue()
    assert flat_match.actions == [legal[6]]


def test_an_action_id_is_taken_at_any_step_and_bad_input_changes_nothing() -> None:
    match = warroom.new_game("patton", "normandy", seed=1)
    game, out = session(match, ["3", "9", "zzz", "move 1I Lessay->Periers"])
    game.run()
    text = out.getvalue()
    assert "There is no choice 9 here" in text
    assert "'zzz' is not a number, a command or a name in any action here" in text
    assert match.actions == ["move 1I Lessay->Periers"]


def test_menu_grouping_is_generic_and_short_lists_stay_flat() -> None:
    paths = {f"a{k}": ("Here", f"there {k % 2}", f"leaf {k}") for k in range(20)}
    level = build_level(list(paths), paths, lambda a: a)
    assert [e.label for e in level.entries] == ["there 0", "there 1"] and level.trail == (
        "Here",
    )  # one group: stepped into
    assert all(len(e.actions) == 10 for e in level.entries)
    short = build_level(["x", "y"], {"x": ("A", "x"), "y": ("B", "y")}, lambda a: f"label {a}")
    assert [e.label for e in short.entries] == ["label x", "label y"]
    assert find(["move 3A3I X->Y", "move 3I X->Z"], {}, lambda a: a, "3I") == ["move 3I X->Z"]


def test_menu_lines_never_break_inside_a_bracketed_note() -> None:
    # issue 12, item 15: "[exactly 2/3]" was cut across two lines on a narrow console
    text = (
        "1st Airborne Task Force: attack 148th Infantry Division in Frejus (1 RP; DRM +0, 67% to advance) [exactly 2/3]"
    )
    for width in range(40, 120):
        lines = wrap_words(text, width, 5)
        assert any("[exactly 2/3]" in line for line in lines)
    code, out = run(["play", "dragoon", "--seed", "3"], ["q", "n"])
    assert code == 0


# -- 9: the computer's turn ---------------------------------------------------------------------------------
def test_the_computers_turn_is_one_summary_then_one_board() -> None:
    code, out = run(["play", "patton", "--scenario", "normandy", "--seed", "1", "--vs", "ai"], ["4", "2", "q", "n"])
    assert code == 0
    computer = out[out.index("German: the computer (heuristic) plays") : out.index("The computer made")]
    assert "BREAKOUT AT NORMANDY" not in computer  # no board between its moves
    assert "move Alencon -> Le Mans" in computer
    assert out.count("BREAKOUT AT NORMANDY") == 3  # the start, the reserves phase, after the computer's turn
    after = out[out.index("The computer made") :]
    assert "BREAKOUT AT NORMANDY · turn 2/12 · American: Movement" in after


# -- 10: owners in text -------------------------------------------------------------------------------------
def test_the_board_says_who_holds_each_town_without_colour_and_lists_empty_towns() -> None:
    code, out = run(["play", "patton", "--scenario", "normandy", "--seed", "1"], ["q", "n"])
    assert code == 0 and "\x1b[" not in out
    rows = {
        line.split("  ")[0].rstrip(" ●*"): line for line in out.splitlines() if re.match(r"^[A-Z][\w. -]+ {2,}", line)
    }
    assert re.search(r"American +4A4I", rows["Lessay"])
    assert re.search(r"German +1I", rows["Coutances"])
    assert "Coutances[G]" in rows["Lessay"] and "Periers[A]" in rows["Lessay"]
    assert re.search(r"^Vire +- +━1 St. Lo\[A\]", rows["Vire"])  # an empty town, its roads to plan through
    assert "[A] American-held, [G] German-held" in out
    code, out = run(["play", "patton", "--scenario", "sicily", "--seed", "1"], ["q", "n"])
    assert "[Al] Allied-held, [Ax] Axis-held" in out


# -- 11: side names -----------------------------------------------------------------------------------------
def test_the_scenarios_side_names_everywhere() -> None:
    code, out = run(["play", "patton", "--scenario", "normandy", "--seed", "1"], ["q", "n"])
    assert "American to decide" in out and "Allied to decide" not in out
    match = warroom.new_game("patton", "normandy", seed=3)
    while not match.over:
        match.play(match.legal_actions()[-1])
    from warroom.terminal import result_panel

    result = match.result
    assert result is not None and result.winner is not None
    console = Console(file=io.StringIO(), width=120, record=True)
    console.print(result_panel(match))
    assert f"{match.state.board.side_names[['Allied', 'Axis'].index(result.winner)]} victory" in console.export_text()


def test_simulate_uses_the_scenarios_names_and_no_draw_row_for_patton() -> None:
    from warroom.analysis.simulate import simulate

    report = simulate("patton", 2, agent="random", scenario="normandy")
    assert "draw" not in report.outcomes
    console = Console(file=io.StringIO(), width=120, record=True)
    report.render(console)
    text = console.export_text()
    assert (
        "American victory" in text and "German victory" in text and "draw" not in text and "Allied victory" not in text
    )
    assert report.to_json()["side_names"] == {"Allied": "American", "Axis": "German"}
    dragoon = simulate("dragoon", 2, agent="random")
    assert "draw" in dragoon.outcomes  # Dragoon can end in a draw (7 VP): the row stays


# -- 12: two odds, each labelled ----------------------------------------------------------------------------
def test_battle_line_labels_the_round_result_and_the_dice_totals() -> None:
    from warroom.games.patton.render import round_text

    text = round_text(2, 0, 1, 0, 0)
    assert text.startswith("this round, casualties counted: attacker takes it")
    assert "dice totals alone: attacker higher" in text


# -- 13: several dice on one line ---------------------------------------------------------------------------
def _to_battle_dice() -> tuple[warroom.Match, list[str]]:
    """Normandy with typed dice: card 9, 2A1I St. Lo to Tessy, end movement: three American dice are asked for next."""
    return warroom.new_game("patton", "normandy", seed=1, dice="manual"), ["9", "move 2A1I St-Lo->Tessy", "end"]


def test_several_dice_on_one_line_are_each_checked_and_entered_together() -> None:
    # Patton: Battles — 2A1I throws 2 dice, the lone 1I none
    match, lines = _to_battle_dice()
    game, out = session(match, [*lines, "5 7", "1 2 3", "5, 5"])
    game.run()
    text = out.getvalue()
    assert "die 2 of the 2 you typed ('7') cannot come up: it must be 1 to 6. Nothing was entered" in text
    assert "You typed 3 values but only 2 are asked for now: nothing was entered" in text
    assert match.dice_rolled[-2:] == [5, 5] and len(match.dice_rolled) == 3  # the card, then both dice at once


# -- 14: watching -------------------------------------------------------------------------------------------
class _Interrupting:
    """An agent that is interrupted (Ctrl-C) once, on its third move: watching must pause, not end."""

    name = "heuristic"

    def __init__(self) -> None:
        from warroom.ai import get_agent

        self.inner = get_agent("heuristic", "dragoon", 300, 1)
        self.calls = 0

    def choose(self, match: Any) -> tuple[str, str]:
        self.calls += 1
        if self.calls == 3:
            raise KeyboardInterrupt
        return self.inner.choose(match)


def test_watching_plays_on_without_enter_and_ctrl_c_pauses_it() -> None:
    match = warroom.new_game("dragoon", seed=4)
    game, out = session(match, ["", "q", "n"], agent=_Interrupting(), agent_sides=None, pace=0)
    game.run()
    text = out.getvalue()
    assert "Paused: each move of the computer now waits for you" in text
    assert text.count("The computer (heuristic) will play:") == 2  # after the pause: Enter plays one, then q
    assert len(match.actions) == 3


# -- 15: small ones -----------------------------------------------------------------------------------------
def test_save_refuses_a_missing_folder_and_creates_nothing(tmp_path: Path) -> None:
    match = warroom.new_game("patton", "normandy", seed=1)
    target = tmp_path / "no" / "such" / "x.json"
    game, out = session(match, [f"s {target}"])
    game.run()
    assert f"there is no folder {target.parent}" in " ".join(out.getvalue().split())
    assert not (tmp_path / "no").exists()


def test_saying_no_to_the_save_does_not_promise_a_replay() -> None:
    code, out = run(["play", "dragoon", "--seed", "5", "--auto", "random", "--pace", "0"], ["n"])
    assert code == 0 and "The game's seed was 5." in out and "warroom replay" not in out


def test_replay_takes_h(tmp_path: Path) -> None:
    save = tmp_path / "r.json"
    match = warroom.new_game("patton", "normandy", seed=1)
    match.play("move 1I Lessay->Periers")
    warroom.save(match, save)
    out = io.StringIO()
    feed = iter(["h", "q"])
    replay = TerminalReplay(Replay(read_record(save)), Console(file=out, width=120), ask=lambda p: next(feed))
    replay.run()
    assert "Replay: Enter or n the next step" in out.getvalue() and "Battles:" in out.getvalue()


def test_dragoon_ffi_against_a_german_attack_shows_its_odds() -> None:
    # Dragoon: FFI — one re-roll defending; the German counterattack succeeds on 3+ (no DRM)
    from warroom.games.dragoon.render import action_label
    from warroom.games.dragoon.state import BOT_REROLL, BotAttack

    match = warroom.new_game("dragoon", seed=1)
    s = match.state
    s.phase, s.bot_attack, s.ffi[0], s.stalled[0] = BOT_REROLL, BotAttack(attacker=0, target=0, roll=5), True, False
    assert action_label(match, "reroll ffi").endswith(
        "[exactly 2/3 the re-roll succeeds again and stalls VI-Corps; 1/3 it fails]"
    )
    assert action_label(match, "accept").endswith("[the counterattack stands: it stalls VI-Corps]")


def test_plural_of_rp_left() -> None:
    match = warroom.new_game("dragoon", seed=1)
    match.state.rp = 1
    assert "the 1 RP left is lost" in match.ruleset.describe_action(match.state, "end")


# -- 16: the seed in a save -----------------------------------------------------------------------------------
def test_a_mid_game_save_leaves_out_a_secret_seed_and_save_seed_keeps_it(tmp_path: Path) -> None:
    # Hidden information: with the seed and the moves so far anyone could tell the cards to come
    sealed, kept, chosen = tmp_path / "sealed.json", tmp_path / "kept.json", tmp_path / "chosen.json"
    code, out = run(["play", "patton", "--vs", "human"], ["move 1I Lessay->Periers", f"s {sealed}", "q", "n"])
    assert code == 0 and "leaves out the dice seed" in out
    data = json.loads(sealed.read_text())
    assert data["header"]["seed"] is None and data["actions"] == ["move 1I Lessay->Periers"]
    loaded = warroom.load(sealed)
    assert loaded.actions == ["move 1I Lessay->Periers"] and not loaded.over  # it goes on, with fresh dice
    code, out = run(["play", "patton", "--vs", "human", "--save-seed"], [f"s {kept}", "q", "n"])
    assert "--save-seed: a save made before the end holds the seed" in out
    assert json.loads(kept.read_text())["header"]["seed"] is not None
    code, out = run(["play", "patton", "--vs", "human", "--seed", "8"], [f"s {chosen}", "q", "n"])
    assert json.loads(chosen.read_text())["header"]["seed"] == 8 and "leaves out" not in out


# -- done when: from the README to a finished game, in a real terminal, through the step menus --------------------
def test_a_whole_normandy_game_against_the_computer_through_the_step_menus(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "normandy.json"
    child = terminal_process(["play", "patton", "--scenario", "normandy", "--vs", "ai", "--seed", "11"])
    prompts = 0
    moves_this_phase = 0
    try:
        while True:
            found = child.expect(
                [
                    r"Choose 1-(\d+)(, 0 back)?, or type a name or all \(h help[^>]*> ",
                    r"Choose 1-(\d+) \(h help[^>]*> ",
                    r"Save this game to replay it later\? \[y/N\] ",
                ]
            )
            prompts += 1
            assert prompts < 3000
            if found == 2:
                child.sendline("y")
                child.expect(r"Save as \[")
                child.sendline(str(save))
                child.expect("Saved to")
                break
            menu = child.before
            if found == 1:
                child.sendline("1")  # a short list: its first choice (throw for reserves, a battle, ...)
                moves_this_phase = 0
                continue
            end = re.search(r"^\s*(\d+)\. End movement", menu, re.M)
            if end and moves_this_phase >= 3:
                child.sendline(end.group(1))
                moves_this_phase = 0
            else:
                child.sendline("1")  # step in: the first town, its first road, its smallest force
                if not re.search(r"▸ \d+ choices", menu.split("to decide")[-1]):
                    moves_this_phase += 1
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    played = warroom.load(save)
    assert played.over and played.result is not None
    assert any(a.startswith("move ") for a in played.actions)


def test_the_terminal_asks_the_spec_for_its_view_help_and_side_names() -> None:
    # issue 13: the terminal finds a game's drawing, help and side names through its spec, never by module name
    from warroom.games import get_spec
    from warroom.terminal import help_markup, load_renderer

    for game in ("dragoon", "patton"):
        spec = get_spec(game)
        assert spec.terminal is not None and spec.help
        renderer = load_renderer(game)
        assert renderer.render_board is spec.terminal().render_board
        for section in spec.help:  # the sections for the terminal (or both) with their rule; the browser's own left out
            shown = help_markup((section,), "", game)
            assert (section.title in renderer.help_text and (section.rule in shown)) == (section.only != "web"), section
    from rich.text import Text

    text = Text.from_markup(load_renderer("patton").help_text).plain  # plain words: "[G]" is text, not a tag
    assert "Battles: 1 die per Armored Unit" in text and "(Patton: Battles; Casualties; Retreating)" in text
    assert "([G] German)" in text and "console, [*Name])" in Text.from_markup(load_renderer("dragoon").help_text).plain
    match = warroom.new_game("patton", "bulge", seed=1)
    assert load_renderer("patton").side_name(match, "Axis") == "German"  # the scenario's terms
    sicily = warroom.new_game("patton", "sicily", seed=1)
    assert load_renderer("patton").side_name(sicily, "Axis") == "Axis"


def test_a_game_without_a_terminal_view_or_help_gets_the_generic_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    from warroom.engine.spec import GameSpec
    from warroom.games import get_spec
    from warroom.terminal import generic_board, load_renderer

    bare = GameSpec(id="patton", ruleset=get_spec("patton").ruleset)
    monkeypatch.setattr("warroom.games.get_spec", lambda game: bare)
    renderer = load_renderer("patton")
    assert renderer.render_board is generic_board and "see the rulebook" in renderer.help_text
    match = warroom.new_game("patton", "bulge", seed=1)
    assert renderer.side_name(match, "Axis") == "Axis" and renderer.action_path is None
