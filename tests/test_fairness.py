"""Verifiable dice: the keyed generator (HMAC-SHA256 in counter mode), records that name their
generator, the commitment, `verify_record` and `warroom verify`.

The derivation is checked against a re-implementation written from docs/fairness.md alone, so the
documentation and the code cannot drift apart unnoticed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import warroom
from warroom.ai import agent_seed, get_agent
from warroom.cli import app
from warroom.engine import dice as dice_module
from warroom.engine.dice import HMAC_SHA256, MT19937, DiceSource, KeyedDice, ScriptedDice, keyed_outcome, make_dice
from warroom.engine.errors import RecordError, WarroomError
from warroom.engine.fairness import NotVerifiableError, commitment, new_secret, verify_record
from warroom.engine.record import Record

KEY = "00" * 32
OTHER = bytes(range(32)).hex()
D6 = tuple((face, 1 / 6) for face in range(1, 7))
RUNNER = CliRunner()


# -- the derivation, as docs/fairness.md states it -------------------------------------------------
def reference_die(key_hex: str, k: int, outcomes: list[tuple[int, float]]) -> int:
    """docs/fairness.md, step by step, written without warroom's code."""
    key = bytes.fromhex(key_hex)

    def block(j: int) -> bytes:
        return hmac.new(key, b"warroom-dice-v1" + k.to_bytes(8, "big") + j.to_bytes(4, "big"), hashlib.sha256).digest()

    if all(p == outcomes[0][1] for _, p in outcomes):
        n = len(outcomes)
        j = 0
        while True:
            b = block(j)
            for i in range(4):
                w = int.from_bytes(b[8 * i : 8 * i + 8], "big")
                if w < 2**64 - 2**64 % n:
                    return outcomes[w % n][0]
            j += 1
    u = (int.from_bytes(block(0)[:8], "big") >> 11) / 2**53
    total = 0.0
    for _, p in outcomes:
        total += p
    t, c = u * total, 0.0
    for value, p in outcomes:
        c += p
        if t < c:
            return value
    return [v for v, p in outcomes if p > 0][-1]


def test_the_stream_follows_the_documented_derivation() -> None:
    cards = [
        (v, c / 16) for v, c in zip(range(1, 8), (1, 2, 3, 4, 3, 2, 1), strict=True)
    ]  # a weighted draw (a deck's counts)
    d12 = [(v, 1 / 12) for v in range(1, 13)]
    for outcomes in (list(D6), d12, cards):
        source = KeyedDice(OTHER)
        assert [source.roll(outcomes) for _ in range(300)] == [reference_die(OTHER, k, outcomes) for k in range(300)]
    # the vectors docs/fairness.md lists, for anyone re-implementing it
    assert [keyed_outcome(bytes(32), k, D6) for k in range(10)] == [3, 3, 1, 6, 3, 4, 3, 5, 6, 5]
    weighted = [(1, 0.5), (2, 0.25), (3, 0.0), (4, 0.25)]
    assert [keyed_outcome(bytes(32), k, weighted) for k in range(10)] == [2, 2, 1, 1, 2, 1, 4, 1, 1, 1]


def test_the_stream_is_the_keys_alone() -> None:
    first = [KeyedDice(KEY).roll(D6)]
    a, b, c = KeyedDice(KEY), KeyedDice(KEY.upper()), KeyedDice(OTHER)
    rolls_a = [a.roll(D6) for _ in range(200)]
    assert rolls_a == [b.roll(D6) for _ in range(200)]  # the same key: the same dice, however it is spelt
    assert rolls_a != [c.roll(D6) for _ in range(200)]  # another key: other dice
    assert rolls_a[:1] == first
    assert KeyedDice().seed != KeyedDice().seed  # no key given: a fresh secret each time


def test_uniform_dice_are_fair_and_weighted_draws_follow_their_weights() -> None:
    source = KeyedDice(OTHER)
    counts = [0] * 6
    rolls = 60_000
    for _ in range(rolls):
        counts[source.roll(D6) - 1] += 1
    chi2 = sum((n - rolls / 6) ** 2 / (rolls / 6) for n in counts)
    assert chi2 < 20.5, counts  # 5 degrees of freedom: p = 0.001
    weighted = [(1, 0.5), (2, 0.25), (3, 0.0), (4, 0.25)]
    drawn = [source.roll(weighted) for _ in range(20_000)]
    assert drawn.count(3) == 0  # an outcome of weight 0 never comes up
    assert abs(drawn.count(1) / len(drawn) - 0.5) < 0.02 and abs(drawn.count(4) / len(drawn) - 0.25) < 0.02


def test_a_word_in_the_biased_tail_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rejection sampling: a word at or above 2^64 - (2^64 mod n) is thrown away, not folded onto a face."""
    top = (2**64 - 1).to_bytes(8, "big")  # 2^64 - 1 >= the limit for a d6 (2^64 mod 6 = 4)
    seven = (7).to_bytes(8, "big")  # 7 mod 6 = 1: the second face
    blocks = {0: top * 4, 1: top + seven + top * 2}
    monkeypatch.setattr(dice_module, "_block", lambda key, index, block: blocks[block])
    assert keyed_outcome(bytes(32), 0, D6) == 2


def test_skip_is_counting_and_a_copy_goes_on_alike() -> None:
    rolled = KeyedDice(KEY)
    first = [rolled.roll(D6) for _ in range(25)]
    skipped = KeyedDice(KEY)
    skipped.skip(25)
    assert skipped.counter == rolled.counter == 25
    twin = rolled.copy()
    assert (
        [rolled.roll(D6) for _ in range(10)]
        == [skipped.roll(D6) for _ in range(10)]
        == [twin.roll(D6) for _ in range(10)]
    )
    assert first[:5] == [reference_die(KEY, k, list(D6)) for k in range(5)]


def test_scripted_dice_hand_over_to_the_key() -> None:
    source = make_dice([6, 6, 6], KEY, HMAC_SHA256)
    assert isinstance(source, ScriptedDice) and source.scheme == HMAC_SHA256
    copy = source.copy()
    assert [source.roll(D6) for _ in range(6)] == [6, 6, 6, *[reference_die(KEY, k, list(D6)) for k in range(3)]]
    assert [copy.roll(D6) for _ in range(6)] == [6, 6, 6, *[reference_die(KEY, k, list(D6)) for k in range(3)]]
    assert (
        make_dice("auto", 5).scheme == MT19937 and type(make_dice("auto", 5)) is DiceSource
    )  # the fast default is untouched


def test_a_seed_must_fit_its_generator() -> None:
    with pytest.raises(WarroomError, match="64 hex digits"):
        warroom.new_game("dragoon", seed=7, rng=HMAC_SHA256)
    with pytest.raises(WarroomError, match="64 hex digits"):
        warroom.new_game("dragoon", seed="12ab", rng=HMAC_SHA256)
    with pytest.raises(WarroomError, match="integer"):
        warroom.new_game("dragoon", seed="not a key")
    with pytest.raises(WarroomError, match="rng"):
        warroom.new_game("dragoon", seed=7, rng="xorshift")
    drawn = warroom.new_game("dragoon", rng=HMAC_SHA256)
    assert isinstance(drawn.seed, str) and len(drawn.seed) == 64 and isinstance(drawn.dice, KeyedDice)
    assert warroom.new_game("dragoon", seed=KEY.upper()).seed == KEY  # a key is known by its 64 hex digits


# -- matches and records ------------------------------------------------------------------------
def play_out(match: warroom.Match, limit: int = 5000) -> warroom.Match:
    """Both sides play the game's own heuristic to the end."""
    agent = get_agent("heuristic", match.ruleset.info.id)
    for _ in range(limit):
        if match.over:
            break
        action, _why = agent.choose(match)
        match.play(action)
    assert match.over
    return match


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    """A whole Patton game (cards and dice) with keyed dice, as its record."""
    return play_out(warroom.new_game("patton", "normandy", seed=KEY)).record().to_json()


def test_a_clone_rolls_what_the_original_rolls() -> None:
    m = warroom.new_game("dragoon", seed=OTHER)
    for _ in range(6):
        m.play(m.legal_actions()[0])
    twin = m.clone()
    for _ in range(30):
        if m.over:
            break
        action = m.legal_actions()[-1]
        m.play(action)
        twin.play(action)
    assert twin.dice_rolled == m.dice_rolled and twin.view() == m.view()


def test_a_record_names_its_generator_and_a_loaded_game_goes_on_with_the_same_dice() -> None:
    m = warroom.new_game("patton", "bulge", seed=KEY)
    for _ in range(12):
        m.play("end" if "end" in m.legal_actions() else m.legal_actions()[0])
    data = m.record().to_json()
    assert data["header"]["rng"] == HMAC_SHA256 and data["header"]["seed"] == KEY
    back = Record.from_json(json.loads(json.dumps(data)))
    assert back.rng == HMAC_SHA256 and back.seed == KEY and back.to_json() == data
    loaded = warroom.load(data)
    assert isinstance(loaded.dice, KeyedDice) and loaded.dice.counter == len(m.dice_rolled)
    for _ in range(12):
        action = "end" if "end" in m.legal_actions() else m.legal_actions()[0]
        m.play(action)
        loaded.play(action)
    assert loaded.dice_rolled == m.dice_rolled and loaded.record().to_json() == m.record().to_json()
    clone = loaded.clone()
    assert clone.record().to_json()["header"]["rng"] == HMAC_SHA256


def test_older_records_without_rng_still_load_and_are_written_as_before() -> None:
    m = warroom.new_game("dragoon", seed=7)
    for _ in range(4):
        m.play(m.legal_actions()[0])
    data = m.record().to_json()
    assert "rng" not in data["header"]  # the default generator: records stay byte for byte as they were
    assert Record.from_json(data).rng == MT19937
    assert warroom.load(data).view() == m.view()
    explicit = {**data, "header": {**data["header"], "rng": "mt19937"}}
    assert warroom.load(explicit).view() == m.view()


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"rng": HMAC_SHA256, "seed": 7}, "64 hex digits"),
        ({"rng": HMAC_SHA256, "seed": "ab" * 31}, "64 hex digits"),
        ({"rng": HMAC_SHA256, "seed": "zz" * 32}, "64 hex digits"),
        ({"rng": "xorshift"}, "'rng' must be one of"),
        ({"rng": 5}, "'rng' must be one of"),
        ({"seed": KEY}, "'seed' must be an integer"),
    ],
)
def test_a_record_with_a_seed_that_does_not_fit_is_refused(header: dict[str, Any], message: str) -> None:
    data = warroom.new_game("dragoon", seed=7).record().to_json()
    data["header"].update(header)
    with pytest.raises(RecordError, match=message):
        Record.from_json(data)


def test_a_keyed_record_with_its_seed_withheld_loads_with_a_fresh_key() -> None:
    m = warroom.new_game("dragoon", seed=KEY)
    data = m.record().to_json()
    data["header"]["seed"] = None
    loaded = warroom.load(data)
    assert loaded.seed is None and isinstance(loaded.dice, KeyedDice) and loaded.dice.seed != KEY
    assert loaded.record().to_json()["header"]["rng"] == HMAC_SHA256


def test_agent_seed_takes_a_key() -> None:
    assert agent_seed(KEY, "Axis") == agent_seed(KEY, "Axis") != agent_seed(OTHER, "Axis")
    assert agent_seed(KEY, "Axis") != agent_seed(KEY, "Allied")
    assert agent_seed(7) == agent_seed(7)  # an integer seed hashes as it always did


# -- the commitment and verify ------------------------------------------------------------------
def test_the_commitment_is_sha256_of_the_keys_bytes() -> None:
    assert (
        commitment(KEY)
        == hashlib.sha256(bytes(32)).hexdigest()
        == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )
    assert commitment(KEY.upper()) == commitment(KEY)
    secret = new_secret()
    assert len(secret) == 64 and len(bytes.fromhex(secret)) * 8 == 256 and new_secret() != secret
    with pytest.raises(WarroomError):
        commitment("abc")


def test_verify_passes_on_an_honest_record(finished: dict[str, Any]) -> None:
    report = verify_record(finished, commitment(KEY))
    assert (
        report.verified and report.commitment_ok and report.mismatch is None and report.problem is None and report.over
    )
    assert report.checked == report.dice == len(finished["dice"]) > 50 and report.given == 0
    assert report.message.startswith(
        f"all {report.dice} dice match the seed (commitment ok); all {len(finished['actions'])} decisions match the "
        "record's chain"
    )
    assert verify_record(finished).commitment_ok is None  # nothing to check it against: still every die


def other_face(value: int) -> int:
    """Another value a die or a movement card (1..12) can show."""
    return value % 6 + 1 if value <= 6 else value - 1


def test_a_changed_die_is_caught_with_its_number(finished: dict[str, Any]) -> None:
    for n in (0, 17, len(finished["dice"]) - 1):
        tampered = json.loads(json.dumps(finished))
        honest = tampered["dice"][n]
        tampered["dice"][n] = other_face(honest)
        report = verify_record(tampered, commitment(KEY))
        assert not report.verified and report.mismatch is not None, n
        assert (
            report.mismatch.die == n + 1
            and report.mismatch.recorded == tampered["dice"][n]
            and report.mismatch.derived == honest
        )
        assert report.checked == n and f"die {n + 1} does not match" in report.message
        if report.mismatch.decisions:
            assert report.mismatch.action == finished["actions"][report.mismatch.decisions - 1]
            assert f"after decision {report.mismatch.decisions} ({report.mismatch.action})" in report.message


def test_a_wrong_commitment_is_caught(finished: dict[str, Any]) -> None:
    report = verify_record(finished, commitment(OTHER))
    assert not report.verified and report.commitment_ok is False and report.mismatch is None
    assert "commitment does not match" in report.message
    swapped = {
        **finished,
        "header": {**finished["header"], "seed": OTHER},
    }  # a key swapped after the game: the dice give it away
    assert not verify_record(swapped).verified


def test_what_cannot_be_verified_says_why(finished: dict[str, Any]) -> None:
    with pytest.raises(NotVerifiableError, match="mt19937"):
        verify_record(warroom.new_game("dragoon", seed=3).record())
    with pytest.raises(NotVerifiableError, match="withheld"):
        verify_record({**finished, "header": {**finished["header"], "seed": None}})
    manual = warroom.new_game("dragoon", seed=KEY, dice="manual").record().to_json()
    assert manual["header"]["rng"] == HMAC_SHA256
    with pytest.raises(NotVerifiableError, match="typed in"):
        verify_record(manual)
    with pytest.raises(WarroomError, match="commitment is 64 hex"):
        verify_record(finished, "not hex")


def test_a_record_that_does_not_replay_is_not_verified(finished: dict[str, Any]) -> None:
    broken = json.loads(json.dumps(finished))
    broken["actions"][3] = "fly to the moon"
    report = verify_record(broken)
    assert not report.verified and report.problem is not None and "action 4" in report.message


def test_dice_given_before_the_key_are_counted_apart(finished: dict[str, Any]) -> None:
    """An uploaded record continued online: its dice so far are the header's script, the key rolls after."""
    m = warroom.new_game("patton", "normandy", seed=5)
    for _ in range(10):
        m.play("end" if "end" in m.legal_actions() else m.legal_actions()[0])
    given = list(m.dice_rolled)
    record = m.record()
    record.seed, record.rng, record.dice_mode = KEY, HMAC_SHA256, given
    online = play_out(warroom.load(record))
    report = verify_record(online.record())
    assert report.verified and report.given == len(given) > 0 and report.checked == report.dice
    assert f"dice 1-{len(given)} were played before" in report.message
    data = online.record().to_json()
    data["dice"][1] = other_face(data["dice"][1])  # a given die changed: the header says otherwise
    report = verify_record(data)
    assert (
        not report.verified
        and report.mismatch is not None
        and report.mismatch.die == 2
        and report.mismatch.source == "script"
    )


# -- warroom verify -----------------------------------------------------------------------------
def run(args: list[str]) -> tuple[int, str]:
    result = RUNNER.invoke(app, args, env={"COLUMNS": "200"})
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def test_warroom_verify(finished: dict[str, Any], tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(finished))
    code, out = run(["verify", str(good), "--commitment", commitment(KEY)])
    assert code == 0 and f"all {len(finished['dice'])} dice match the seed (commitment ok)" in out
    code, out = run(["verify", str(good), "--json"])
    assert code == 0 and json.loads(out)["verified"] is True
    code, out = run(["verify", str(good), "--commitment", commitment(OTHER)])
    assert code == 1 and "commitment does not match" in out
    tampered = json.loads(json.dumps(finished))
    tampered["dice"][5] = other_face(tampered["dice"][5])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    code, out = run(["verify", str(bad)])
    assert code == 1 and "die 6 does not match" in out
    code, out = run(["verify", str(bad), "--json"])
    assert code == 1 and json.loads(out)["mismatch"]["die"] == 6
    plain = tmp_path / "plain.json"
    warroom.save(warroom.new_game("dragoon", seed=3), plain)
    code, out = run(["verify", str(plain)])
    assert code != 0 and "mt19937" in out
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps({**finished, "header": {**finished["header"], "seed": None}}))
    code, out = run(["verify", str(unfinished)])
    assert code != 0 and "withheld" in out
    for name, text in (("junk.json", "{not json"), ("other.json", "[1, 2]")):
        (tmp_path / name).write_text(text)
        code, out = run(["verify", str(tmp_path / name)])
        assert code != 0 and "Error" in out
    code, out = run(["verify", str(tmp_path / "missing.json")])
    assert code != 0 and "cannot read" in out
