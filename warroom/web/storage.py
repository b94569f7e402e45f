"""Game storage: each game is its record header plus the ordered steps (decisions and dice), in SQL.

SQLite by default (one file, WAL mode), PostgreSQL through the same URL. The schema is made and
upgraded by the Alembic migrations shipped beside this module, run at startup, so an upgrade keeps
old games. A step is committed before the server acknowledges it: a server killed at any moment
loses no acknowledged move.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).parent / "migrations"

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("header", JSON, nullable=False),  # the record header: game, scenario, options, seed, dice mode, version, position
    Column("initial_dice", JSON, nullable=False),  # dice rolled before the first decision
    Column("version", Integer, nullable=False),  # bumped by every accepted change: the stale-move check
    Column("over", Boolean, nullable=False),
    Column("result", JSON, nullable=True),
    Column("turn", String(32), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

seats_table = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("side", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),  # "human" or "computer"
    Column("token_hash", String(64), nullable=True, unique=True),  # sha256 of the seat's secret token
    Column("agent", JSON, nullable=True),  # computer seats: {"name", "budget_ms"}
)

steps_table = Table(
    "steps",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "decision", or "roll" (a die typed in with manual dice)
    Column("action", Text, nullable=False),
    Column("dice", JSON, nullable=False),  # the dice this step rolled, in order
    Column("side", String(64), nullable=True),
    Column("created", Float, nullable=False),
)


# The hot path's statements, built once (building a statement costs more than running it on SQLite).
_BUMP = (
    update(games_table)
    .where(games_table.c.id == bindparam("gid"), games_table.c.version == bindparam("expected"))
    .values(version=bindparam("version"), over=bindparam("over"), result=bindparam("result"), turn=bindparam("turn"),
            updated=bindparam("updated"))
)
_ADD_STEP = insert(steps_table)


def token_hash(token: str) -> str:
    """Seat tokens are stored hashed: a copy of the database does not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def normalize_url(db: str) -> str:
    """Accept a bare file name for SQLite, and pick the installed driver for PostgreSQL."""
    if "://" not in db:
        return f"sqlite:///{db}"
    if db.startswith(("postgresql://", "postgres://")):
        rest = db.split("://", 1)[1]
        try:
            import psycopg  # noqa: F401

            return f"postgresql+psycopg://{rest}"
        except ImportError:
            return f"postgresql://{rest}"
    return db


@dataclass
class Seat:
    side: str
    kind: str
    token_hash: str | None
    agent: dict[str, Any] | None = None


@dataclass
class Step:
    kind: str
    action: str
    dice: list[int]
    side: str | None = None


@dataclass
class StoredGame:
    """A game as stored: enough to rebuild its Match record and its seats."""

    id: str
    game: str
    mode: str
    header: dict[str, Any]
    initial_dice: list[int]
    version: int
    over: bool
    result: dict[str, Any] | None
    created: float
    updated: float
    turn: str | None = None
    seats: list[Seat] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    def record_json(self) -> dict[str, Any]:
        """The Match record (`m.record().to_json()`): header, decisions and every die in order."""
        from warroom.engine.record import RECORD_FORMAT, RECORD_VERSION

        dice = list(self.initial_dice)
        actions = []
        for step in self.steps:
            dice.extend(step.dice)
            if step.kind == "decision":
                actions.append(step.action)
        return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "header": dict(self.header), "actions": actions, "dice": dice}


class StaleError(Exception):
    """The stored game moved on since this process last read it (another server process wrote)."""


class Store:
    """All SQL access; one instance per server. Methods are short transactions."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.engine: Engine = _make_engine(self.url)
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- writes ---------------------------------------------------------------------------------
    def create(self, game: StoredGame) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(games_table).values(
                id=game.id, game=game.game, mode=game.mode, header=game.header, initial_dice=game.initial_dice,
                version=game.version, over=game.over, result=game.result, turn=game.turn, created=game.created, updated=game.updated,
            ))
            if game.seats:
                conn.execute(insert(seats_table), [
                    {"game_id": game.id, "side": s.side, "kind": s.kind, "token_hash": s.token_hash, "agent": s.agent} for s in game.seats
                ])
            if game.steps:
                now = time.time()
                conn.execute(insert(steps_table), [
                    {"game_id": game.id, "seq": n, "kind": st.kind, "action": st.action, "dice": st.dice, "side": st.side, "created": now}
                    for n, st in enumerate(game.steps)
                ])

    def append_step(self, game_id: str, expected_version: int, seq: int, step: Step, over: bool, result: dict[str, Any] | None, turn: str) -> None:
        """Add one step and bump the version, in one transaction; StaleError if another writer got there first."""
        now = time.time()
        with self.engine.begin() as conn:
            changed = conn.execute(_BUMP, {"gid": game_id, "expected": expected_version, "version": expected_version + 1,
                                           "over": over, "result": result, "turn": turn, "updated": now}).rowcount
            if changed != 1:
                raise StaleError(game_id)
            conn.execute(_ADD_STEP, {"game_id": game_id, "seq": seq, "kind": step.kind, "action": step.action, "dice": step.dice,
                                     "side": step.side, "created": now})

    def remove_last_steps(self, game_id: str, expected_version: int, from_seq: int, turn: str) -> None:
        """Undo: drop the steps from `from_seq` on (they rolled no dice: undo never crosses a roll), bump the version."""
        now = time.time()
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(games_table)
                .where(games_table.c.id == game_id, games_table.c.version == expected_version)
                .values(version=expected_version + 1, over=False, result=None, turn=turn, updated=now)
            ).rowcount
            if changed != 1:
                raise StaleError(game_id)
            conn.execute(delete(steps_table).where(steps_table.c.game_id == game_id, steps_table.c.seq >= from_seq))

    # -- reads ----------------------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(select(seats_table).where(seats_table.c.game_id == game_id)).mappings().all()
            steps = conn.execute(
                select(steps_table).where(steps_table.c.game_id == game_id).order_by(steps_table.c.seq)
            ).mappings().all()
        return StoredGame(
            id=row["id"], game=row["game"], mode=row["mode"], header=row["header"], initial_dice=list(row["initial_dice"]),
            version=row["version"], over=row["over"], result=row["result"], created=row["created"], updated=row["updated"],
            turn=row["turn"], seats=[Seat(s["side"], s["kind"], s["token_hash"], s["agent"]) for s in seats],
            steps=[Step(s["kind"], s["action"], list(s["dice"]), s["side"]) for s in steps],
        )

    def version(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(games_table.c.version).where(games_table.c.id == game_id)).scalar()

    def seat_for_token(self, token: str) -> tuple[str, str] | None:
        """(game id, side) of the seat a token opens, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(seats_table.c.game_id, seats_table.c.side).where(seats_table.c.token_hash == token_hash(token))
            ).first()
        return (row[0], row[1]) if row else None

    def summaries(self, tokens: list[str]) -> list[dict[str, Any]]:
        """The lobby: one line per game that one of these tokens opens."""
        hashes = {token_hash(t): t for t in tokens[:500]}
        if not hashes:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats_table.c.token_hash, seats_table.c.side, games_table)
                .join(games_table, games_table.c.id == seats_table.c.game_id)
                .where(seats_table.c.token_hash.in_(list(hashes)))
                .order_by(games_table.c.updated.desc())
            ).mappings().all()
        out = []
        for r in rows:
            out.append({
                "id": r["id"], "game": r["game"], "mode": r["mode"], "side": r["side"], "token": hashes[r["token_hash"]],
                "scenario": r["header"].get("scenario"), "version": r["version"], "over": r["over"], "result": r["result"],
                "turn": r["turn"], "created": r["created"], "updated": r["updated"],
            })
        return out


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # WAL: readers never block the writer; synchronous=NORMAL in WAL mode is durable across a
            # killed process (only a power cut can lose the last commits); foreign keys for cascades.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration (creating it in an empty database)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
