"""The decision chain: an online game's decisions bound as its dice are (docs/fairness.md, "The decisions").

Every seat of a keyed game is shown a running digest of the decisions so far, the record carries the
chain, and `verify` names the first decision that does not match it or a digest a seat saw. A decision
changed to another legal one replays and leaves every die matching: only the chain catches it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from pathlib import Path
from typing import Any

import pytest
from random_play import play_randomly
from typer.testing import CliRunner

import warroom
from warroom.cli import app
from warroom.engine.chain import chain_header, compute_chain, next_digest
from warroom.engine.errors import RecordError, WarroomError
from warroom.engine.fairness import SeenDigest, commitment, verify_record
from warroom.engine.record import Record

KEY = "5a" * 32


def seen_digests(match: warroom.Match, seed: int) -> list[dict[str, Any]]:
    """Play `match` randomly to its end, noting the digest every view showed the side not deciding."""
    seen = [match.view(match.ruleset.info.sides[-1])["moves"]]
    chooser = random.Random(seed)
    while not match.over:
        side = match.to_act
        match.play(chooser.choice(match.legal_actions()))
        other = next(s for s in match.ruleset.info.sides if s != side)
        seen.append({**match.view(other)["moves"], "seen_by": other})
    return seen


def find_swap(game: str, record: dict[str, Any], start: int) -> tuple[int, str, str]:
    """A decision (0-based, at `start` or before) that can be changed to another legal action of the same piece
    with every later decision still legal and every die the same: (index, played, other)."""
    replay = warroom.new_game(game, record["header"]["scenario"], seed=KEY, keep_log=False)
    actions = record["actions"]
    before = []
    for action in actions:
        before.append(replay.clone())
        replay.play(action)
    for k in range(start, -1, -1):
        played = actions[k]
        for other in before[k].legal_actions():
            if other == played or other.split()[:2] != played.split()[:2]:
                continue
            twin = before[k].clone()
            try:
                for action in [other, *actions[k + 1 :]]:
                    twin.play(action)
            except WarroomError:
                continue
            if twin.over and twin.dice_rolled == record["dice"]:
                return k, played, other
    raise AssertionError(f"no decision of this {game} game at or before {start} can be swapped")


def rechained(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its chain worked out afresh from the revealed key, as anyone can once the game is over."""
    back = Record.from_json(record)
    assert isinstance(back.seed, str)
    header = chain_header(back.game, back.scenario, back.options, back.position, back.dice_mode)
    return {**record, "moves": compute_chain(back.seed, header, back.actions)}


@pytest.fixture(scope="module", params=[("patton", "normandy", 0.6), ("tunisia", None, 1.0)], ids=["patton", "tunisia"])
def played(request: pytest.FixtureRequest) -> dict[str, Any]:
    game, scenario, where = request.param
    match = warroom.new_game(game, scenario, seed=KEY)
    seen = seen_digests(match, seed=11)
    record = match.record().to_json()
    k, honest, other = find_swap(game, record, int(len(record["actions"]) * where) - 1)
    return {"game": game, "record": record, "seen": seen, "k": k, "honest": honest, "other": other}


# -- the derivation, as docs/fairness.md states it -------------------------------------------------------------
def reference_chain(seed: str, header: dict[str, Any], actions: list[str]) -> list[str]:
    """docs/fairness.md, "The decisions", written without warroom's code."""
    key = bytes.fromhex(seed)
    k = hmac.new(key, b"warroom-moves-v1", hashlib.sha256).digest()
    canonical = json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    chain = [hmac.new(k, b"\x00" + hashlib.sha256(key).digest() + canonical, hashlib.sha256).hexdigest()]
    for i, action in enumerate(actions, start=1):
        message = b"\x01" + bytes.fromhex(chain[-1]) + i.to_bytes(4, "big") + action.encode()
        chain.append(hmac.new(k, message, hashlib.sha256).hexdigest())
    return chain


def test_the_chain_follows_the_documented_derivation() -> None:
    m = play_randomly(warroom.new_game("dragoon", seed=KEY), seed=2, limit=40)
    data = m.record().to_json()
    header = data["header"]
    start = {k: header.get(k) for k in ("game", "scenario", "options", "position", "dice")}
    assert data["version"] == 2 and data["moves"] == reference_chain(KEY, start, data["actions"])
    assert m.view("Allied")["moves"] == {"decisions": len(data["actions"]), "digest": data["moves"][-1]}
    # the vector docs/fairness.md lists: the start of a new Dragoon game keyed by 32 zero bytes
    fresh = warroom.new_game("dragoon", seed="00" * 32).record().to_json()
    assert fresh["moves"] == [documented_start()]


def documented_start() -> str:
    """h_0 as docs/fairness.md gives it, so the page and the code cannot drift apart."""
    text = (Path(__file__).parent.parent / "docs" / "fairness.md").read_text(encoding="utf-8")
    item = text[text.index("- h_0 of a new Dragoon game") :].split("\n\n")[0]
    return item.split("`")[-2]


def test_only_keyed_games_are_chained() -> None:
    """A seed the players may know would let them try each legal action against a digest: no chain there."""
    plain = play_randomly(warroom.new_game("dragoon", seed=3), seed=1, limit=10)
    assert "moves" not in plain.view("Allied") and plain.moves_chain() is None
    data = plain.record().to_json()
    assert data["version"] == 1 and "moves" not in data  # as every record before the chain


def test_undo_and_copies_keep_the_chain_of_the_decisions_made() -> None:
    m = warroom.new_game("patton", "normandy", seed=KEY)
    while not m.can_undo:
        m.play(m.legal_actions()[0])
    before = m.view()["moves"]
    m.play(m.legal_actions()[-1])
    after = m.view()["moves"]
    twin = m.clone()
    m.undo()
    assert m.view()["moves"] == before != after and twin.view()["moves"] == after
    assert warroom.load(m.record().to_json()).moves_chain() == m.moves_chain()


# -- verify ----------------------------------------------------------------------------------------------------
def test_an_untouched_record_verifies_and_a_seats_digest_binds_its_prefix(played: dict[str, Any]) -> None:
    record, seen = played["record"], played["seen"]
    n = len(record["actions"])
    report = verify_record(record, commitment(KEY))
    assert report.verified and report.moves.chained and report.moves.broken is None and report.moves.decisions == n
    assert f"all {n} decisions match the record's chain" in report.message
    last, middle = seen[-1], seen[n // 2]
    full = verify_record(record, commitment(KEY), [SeenDigest(last["digest"], last["decisions"], last["seen_by"])])
    assert full.verified and f"the decisions match the digest seen at decision {n}" in full.message
    prefix = verify_record(record, digests=[f"{middle['decisions']}:{middle['digest']}"])
    assert prefix.verified and f"decisions {n // 2 + 1}-{n} are bound by no digest given" in prefix.message
    bare = verify_record(record, digests=[middle["digest"][:16]])  # the short form the page shows, found in the chain
    assert bare.verified and bare.moves.seen[0].decisions == n // 2


def test_a_decision_changed_to_another_legal_one_is_named(played: dict[str, Any]) -> None:
    record, seen, k = played["record"], played["seen"], played["k"]
    tampered = json.loads(json.dumps(record))
    tampered["actions"][k] = played["other"]
    report = verify_record(tampered, commitment(KEY))
    # every die still matches: the dice alone vouch for nothing here
    assert report.mismatch is None and report.problem is None and report.checked == len(record["dice"])
    assert not report.verified and report.moves.broken is not None
    assert (report.moves.broken.first, report.moves.broken.last, report.moves.broken.against) == (
        k + 1,
        k + 1,
        "record",
    )
    assert report.message.startswith(f"decision {k + 1} (") and f": {played['other']}) does not match" in report.message
    last = seen[-1]  # the seat's last digest is the record's own chain's: the decisions changed after the game
    confirmed = verify_record(tampered, digests=[SeenDigest(last["digest"], last["decisions"], last["seen_by"])])
    assert confirmed.moves.broken is not None and confirmed.moves.broken.first == k + 1
    assert f"the digest seen by {last['seen_by']} at decision {last['decisions']} is the record's chain's" in (
        confirmed.message
    )


def test_a_record_chained_afresh_is_caught_by_the_digest_a_seat_saw(played: dict[str, Any]) -> None:
    """Once the key is revealed anyone can chain a doctored record anew: only a digest shown during the game
    tells. The digests of decisions k and k+1 pin the change to decision k+1."""
    record, seen, k = played["record"], played["seen"], played["k"]
    doctored = json.loads(json.dumps(record))
    doctored["actions"][k] = played["other"]
    doctored = rechained(doctored)
    assert verify_record(doctored).verified  # consistent with itself...
    last = seen[-1]
    report = verify_record(doctored, digests=[SeenDigest(last["digest"], last["decisions"], last["seen_by"])])
    assert not report.verified and report.moves.broken is not None  # ...but not with what a seat was shown
    assert report.moves.broken.against == "seen" and report.moves.broken.last == last["decisions"]
    assert f"does not match the digest seen by {last['seen_by']} at decision {last['decisions']}" in report.message
    before, at = seen[k], seen[k + 1]
    named = verify_record(
        doctored,
        digests=[
            SeenDigest(before["digest"], before["decisions"], before.get("seen_by")),
            SeenDigest(at["digest"], at["decisions"], at["seen_by"]),
        ],
    )
    broken = named.moves.broken
    assert broken is not None and (broken.first, broken.last, broken.action) == (k + 1, k + 1, played["other"])
    assert named.message.startswith(f"decision {k + 1} (") and (
        f"does not match the digest seen by {at['seen_by']} at decision {k + 1}" in named.message
    )


def test_a_record_cut_short_is_caught_by_a_later_digest(played: dict[str, Any]) -> None:
    record, seen = played["record"], played["seen"]
    match = warroom.new_game(played["game"], record["header"]["scenario"], seed=KEY)
    for action in record["actions"][:-3]:
        match.play(action)
    short = match.record().to_json()
    report = verify_record(short, digests=[f"{seen[-1]['decisions']}:{seen[-1]['digest']}"])
    assert not report.verified and report.moves.broken is not None and report.moves.broken.against == "cut"
    assert f"the record ends after decision {len(record['actions']) - 3}" in report.message


def test_a_hidden_decision_shows_the_other_seat_nothing_but_a_digest_it_cannot_work_out() -> None:
    """Two games that differ only in a face-down deployment (Saint-Lo 4.3: the opponent sees a back): the other
    seat's views are equal but for the digest, and the digest cannot be worked out from what that seat holds."""
    m = warroom.new_game("saintlo", seed=KEY)
    chooser = random.Random(2)
    for _ in range(60):
        side = m.to_act
        other = next(s for s in m.ruleset.info.sides if s != side)
        by_hex: dict[str, list[str]] = {}
        for action in m.legal_actions():
            if action.startswith("deploy "):
                by_hex.setdefault(action.split()[-1], []).append(action)
        pair = next((acts[:2] for acts in by_hex.values() if len(acts) > 1), None)
        if pair is not None:
            break
        m.play(chooser.choice(m.legal_actions()))
    assert pair is not None, "no face-down deployment with a choice of kind"
    games = []
    for action in pair:
        twin = m.clone()
        twin.play(action)
        games.append(twin)
    views = [g.view(other) for g in games]
    digests = [v.pop("moves")["digest"] for v in views]
    assert views[0] == views[1]  # the other seat cannot tell the two deployments apart...
    assert games[0].view()["state"] != games[1].view()["state"]  # ...which differ
    assert digests[0] != digests[1]  # the chain runs over every decision, hidden ones too
    # what the other seat holds: the digest before, the decision's number, the candidates, the commitment
    previous, number = m.view(other)["moves"]["digest"], m.view(other)["moves"]["decisions"] + 1
    public = [bytes.fromhex(commitment(KEY)), b"", hashlib.sha256(b"warroom-moves-v1").digest()]
    for action in pair:
        step = b"\x01" + bytes.fromhex(previous) + number.to_bytes(4, "big") + action.encode()
        guesses = {hashlib.sha256(step).hexdigest()} | {hmac.new(k, step, hashlib.sha256).hexdigest() for k in public}
        guesses |= {next_digest(k, previous, number, action) for k in public}
        assert not guesses & set(digests)
    # with the key (revealed when the game is over) the digest tells which it was
    key = hmac.new(bytes.fromhex(KEY), b"warroom-moves-v1", hashlib.sha256).digest()
    assert [next_digest(key, previous, number, action) for action in pair] == digests


def test_older_records_verify_their_dice_with_a_note(played: dict[str, Any]) -> None:
    old = {k: v for k, v in played["record"].items() if k != "moves"} | {"version": 1}
    report = verify_record(old, commitment(KEY))
    assert report.verified and not report.moves.chained
    assert "the record carries no chain of its decisions" in report.message and "would not be caught" in report.message
    assert warroom.load(old).moves_chain() == played["record"]["moves"]  # a loaded game chains again


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 3}, r"version 3 is not supported \(this warroom reads versions 1 and 2\)"),
        ({"version": 1}, "belongs to record format version 2"),
        ({"moves": ["ab" * 32]}, "one digest more than the record has decisions"),
        ({"moves": "abc"}, "list of decision digests"),
    ],
)
def test_a_record_with_a_bad_chain_or_version_is_refused(change: dict[str, Any], message: str) -> None:
    data = play_randomly(warroom.new_game("dragoon", seed=KEY), seed=1, limit=5).record().to_json()
    with pytest.raises(RecordError, match=message):
        Record.from_json({**data, **change})


def test_warroom_verify_takes_the_digests_a_seat_saw(played: dict[str, Any], tmp_path: Path) -> None:
    record, seen, k = played["record"], played["seen"], played["k"]
    doctored = json.loads(json.dumps(record))
    doctored["actions"][k] = played["other"]
    path = tmp_path / "doctored.json"
    path.write_text(json.dumps(rechained(doctored)))
    runner = CliRunner()
    args = ["verify", str(path), "--digest", f"{k}:{seen[k]['digest']}", "--digest", f"{k + 1}:{seen[k + 1]['digest']}"]
    result = runner.invoke(app, [*args, "--seen-by", "Umpire"], env={"COLUMNS": "300"})
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"decision {k + 1} (" in result.output and "seen by Umpire" in result.output
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    result = runner.invoke(app, ["verify", str(good), "--digest", seen[-1]["digest"][:16], "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["moves"]["seen"][0]["ok"] is True
    result = runner.invoke(app, ["verify", str(good), "--digest", "xyz"])
    assert result.exit_code != 0 and "16 to 64 hex digits" in result.output
