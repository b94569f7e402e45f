"""Game storage: each game is its record header plus the ordered steps (decisions and dice), in SQL.

SQLite by default (one file, WAL mode), PostgreSQL through the same URL. The schema is made and
upgraded by the Alembic migrations shipped beside this module, run at startup, so an upgrade keeps
old games. A step is committed before the server acknowledges it: a server killed at any moment
loses no acknowledged move.

On PostgreSQL several server processes share one database. Every committed change to a game also
sends `NOTIFY warroom_games, '<game id> <version>'` in its own transaction (so it is heard exactly
when the change is visible), and each process runs a `ChangeListener` that hands those to its
GameService, which pushes the new view to the WebSockets it holds. SQLite is one process: no notices.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
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
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from warroom.engine.errors import WarroomError

MIGRATIONS = Path(__file__).parent / "migrations"
CHANNEL = "warroom_games"
"""The PostgreSQL notification channel every server process on one database listens on."""

log = logging.getLogger("warroom.web")

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("mode", String(16), nullable=False),
    Column(
        "header", JSON, nullable=False
    ),  # the record header: game, scenario, options, seed, dice mode, version, position
    Column("initial_dice", JSON, nullable=False),  # dice rolled before the first decision
    Column("version", Integer, nullable=False),  # bumped by every accepted change: the stale-move check
    Column("over", Boolean, nullable=False),
    Column("result", JSON, nullable=True),
    Column("turn", String(32), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("origin", JSON, nullable=True),  # what the game started from, told to every seat (migration 0002)
)

seats_table = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("side", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),  # "human" or "computer"
    Column("token_hash", String(64), nullable=True, unique=True),  # sha256 of the seat's secret token
    Column("agent", JSON, nullable=True),  # computer seats: {"name", "budget_ms"}
    Column("invite_hash", String(64), nullable=True, unique=True),  # sha256 of the one-time invite of an unclaimed seat
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
    Column("reason", Text, nullable=True),  # a computer seat's reason for the decision (migration 0003)
)


# The hot path's statements, built once (building a statement costs more than running it on SQLite).
_BUMP = (
    update(games_table)
    .where(games_table.c.id == bindparam("gid"), games_table.c.version == bindparam("expected"))
    .values(
        version=bindparam("version"),
        over=bindparam("over"),
        result=bindparam("result"),
        turn=bindparam("turn"),
        updated=bindparam("updated"),
    )
)
_ADD_STEP = insert(steps_table)
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def token_hash(token: str) -> str:
    """Seat tokens are stored hashed: a copy of the database does not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class StorageConfigError(WarroomError):
    """The database given to the server cannot be used: not a database URL, a missing driver, a folder
    that does not exist, a file it may not write. Said in one line at startup, before serving anything."""

    code = "storage_config"


SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def normalize_url(db: str) -> str:
    """The SQLAlchemy URL of `--db`: `sqlite:///FILE`, `postgresql://...` (run by psycopg), or a bare file
    name ending in .db, .sqlite or .sqlite3. Anything else is refused (StorageConfigError), never
    taken for a file name: `--db garbage` must not quietly make a database file called "garbage"."""
    db = db.strip()
    scheme = db.split("://", 1)[0].lower() if "://" in db else ""
    if not scheme:
        if db.lower().endswith(SQLITE_SUFFIXES) and not db.endswith(("/", "\\")):
            return f"sqlite:///{db}"
        raise StorageConfigError(
            f"{db[:80]!r} is no database URL: give sqlite:///FILE, postgresql://USER@HOST/DATABASE, "
            f"or a file name ending in {', '.join(SQLITE_SUFFIXES)}"
        )
    dialect, _, driver = scheme.partition("+")
    rest = db.split("://", 1)[1]
    if dialect == "sqlite":
        return db
    if dialect in ("postgresql", "postgres"):
        if driver and driver != "psycopg":
            return f"postgresql+{driver}://{rest}"  # a driver the operator chose; the engine says if it is missing
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise StorageConfigError(
                "a PostgreSQL database needs the psycopg driver: pip install 'warroom[postgres]'"
            ) from None
        return f"postgresql+psycopg://{rest}"
    raise StorageConfigError(
        f"warroom keeps games in SQLite or PostgreSQL, not {dialect!r}: give sqlite:///FILE or postgresql://USER@HOST/DATABASE"
    )


def _check_sqlite_file(url: str) -> None:
    """A SQLite file's folder must exist (SQLite would only say "unable to open database file")."""
    database = make_url(url).database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    folder = Path(database).expanduser().resolve().parent
    if not folder.is_dir():
        raise StorageConfigError(f"the folder of the database file {database} does not exist: {folder}")


def _check_writable(engine: Engine) -> None:
    """A write transaction at startup (changing nothing, rolled back), so a read-only database is said
    now, in one line, and not as a failed move later."""
    with engine.connect() as conn, conn.begin() as transaction:
        conn.execute(update(games_table).where(games_table.c.id == "").values(version=games_table.c.version))
        transaction.rollback()


def _one_line(exc: BaseException) -> str:
    """The database's own words for a failure, without SQLAlchemy's statement dump and links."""
    text_ = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return text_[0][:200] if text_ else type(exc).__name__


@dataclass
class Seat:
    """A side's seat: a human seat is held by whoever has its token; an online seat nobody holds yet
    has only an `invite_hash` until its one-time invite is claimed (then `token_hash` is set)."""

    side: str
    kind: str
    token_hash: str | None
    agent: dict[str, Any] | None = None
    invite_hash: str | None = None

    @property
    def claimed(self) -> bool:
        return self.kind != "human" or self.token_hash is not None


@dataclass
class Step:
    kind: str
    action: str
    dice: list[int]
    side: str | None = None
    reason: str | None = None
    """A computer seat's one-line reason for this decision (not part of the record: shown in the log)."""


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
    origin: dict[str, Any] | None = None

    def record_json(self) -> dict[str, Any]:
        """The Match record (`m.record().to_json()`): header, decisions and every die in order."""
        from warroom.engine.record import RECORD_FORMAT, RECORD_VERSION

        dice = list(self.initial_dice)
        actions = []
        for step in self.steps:
            dice.extend(step.dice)
            if step.kind == "decision":
                actions.append(step.action)
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "header": dict(self.header),
            "actions": actions,
            "dice": dice,
        }


class StaleError(Exception):
    """The stored game moved on since this process last read it (another server process wrote)."""


class InviteUsedError(Exception):
    """The seat of this invite was claimed already: an invite opens its seat once."""


class Store:
    """All SQL access; one instance per server. Methods are short transactions."""

    def __init__(self, url: str) -> None:
        """Open, migrate and check the database; StorageConfigError (one line) when it cannot be used."""
        self.url = normalize_url(url)
        if self.url.startswith("sqlite"):
            _check_sqlite_file(self.url)
        try:
            self.engine: Engine = _make_engine(self.url)
            upgrade(self.engine)
            _check_writable(self.engine)
        except (SQLAlchemyError, ImportError) as exc:
            shown = make_url(self.url)
            where = url if shown.password is None else shown.render_as_string(hide_password=True)
            raise StorageConfigError(f"cannot use the database {where}: {_one_line(exc)}") from None
        self.shared = self.engine.dialect.name == "postgresql"  # other server processes may use this database too

    def close(self) -> None:
        self.engine.dispose()

    def listen(self, on_change: Callable[[str | None, int | None], None]) -> ChangeListener | None:
        """Start hearing the changes every process commits (PostgreSQL); None on SQLite, which one process owns.

        `on_change(game_id, version)` runs on the listener's thread; `(None, None)` after a lost
        connection came back means notices may have been missed: check every game of interest.
        """
        if not self.shared:
            return None
        listener = ChangeListener(
            self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False), on_change
        )
        listener.start()
        return listener

    def _announce(self, conn: Connection, game_id: str, version: int) -> None:
        """Tell every server process on this database, on commit of `conn`'s transaction, that a game changed."""
        if self.shared:
            conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{game_id} {version}"})

    # -- writes ---------------------------------------------------------------------------------
    def create(self, game: StoredGame) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(games_table).values(
                    id=game.id,
                    game=game.game,
                    mode=game.mode,
                    header=game.header,
                    initial_dice=game.initial_dice,
                    version=game.version,
                    over=game.over,
                    result=game.result,
                    turn=game.turn,
                    created=game.created,
                    updated=game.updated,
                    origin=game.origin,
                )
            )
            if game.seats:
                conn.execute(
                    insert(seats_table),
                    [
                        {
                            "game_id": game.id,
                            "side": s.side,
                            "kind": s.kind,
                            "token_hash": s.token_hash,
                            "agent": s.agent,
                            "invite_hash": s.invite_hash,
                        }
                        for s in game.seats
                    ],
                )
            if game.steps:
                now = time.time()
                conn.execute(
                    insert(steps_table),
                    [
                        {
                            "game_id": game.id,
                            "seq": n,
                            "kind": st.kind,
                            "action": st.action,
                            "dice": st.dice,
                            "side": st.side,
                            "created": now,
                            "reason": st.reason,
                        }
                        for n, st in enumerate(game.steps)
                    ],
                )

    def append_step(
        self,
        game_id: str,
        expected_version: int,
        seq: int,
        step: Step,
        over: bool,
        result: dict[str, Any] | None,
        turn: str,
    ) -> None:
        """Add one step and bump the version, in one transaction; StaleError if another writer got there first."""
        now = time.time()
        with self.engine.begin() as conn:
            changed = conn.execute(
                _BUMP,
                {
                    "gid": game_id,
                    "expected": expected_version,
                    "version": expected_version + 1,
                    "over": over,
                    "result": result,
                    "turn": turn,
                    "updated": now,
                },
            ).rowcount
            if changed != 1:
                raise StaleError(game_id)
            conn.execute(
                _ADD_STEP,
                {
                    "game_id": game_id,
                    "seq": seq,
                    "kind": step.kind,
                    "action": step.action,
                    "dice": step.dice,
                    "side": step.side,
                    "created": now,
                    "reason": step.reason,
                },
            )
            self._announce(conn, game_id, expected_version + 1)

    def remove_last_steps(self, game_id: str, expected_version: int, from_seq: int, turn: str) -> None:
        """Undo: drop the steps from `from_seq` on (they rolled no dice: undo never crosses a roll), bump the
        version."""
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
            self._announce(conn, game_id, expected_version + 1)

    # -- reads ----------------------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(select(seats_table).where(seats_table.c.game_id == game_id)).mappings().all()
            steps = (
                conn.execute(select(steps_table).where(steps_table.c.game_id == game_id).order_by(steps_table.c.seq))
                .mappings()
                .all()
            )
        return StoredGame(
            id=row["id"],
            game=row["game"],
            mode=row["mode"],
            header=row["header"],
            initial_dice=list(row["initial_dice"]),
            version=row["version"],
            over=row["over"],
            result=row["result"],
            created=row["created"],
            updated=row["updated"],
            turn=row["turn"],
            seats=[Seat(s["side"], s["kind"], s["token_hash"], s["agent"], s["invite_hash"]) for s in seats],
            steps=[Step(s["kind"], s["action"], list(s["dice"]), s["side"], s["reason"]) for s in steps],
            origin=row["origin"],
        )

    def claim_seat(self, game_id: str, invite: str, token: str) -> str:
        """Give the seat this one-time invite opens to `token`; answers its side.

        One UPDATE that only matches an unclaimed seat, so two claims racing (here or in another
        server process) cannot both win. InviteUsedError when the seat was claimed already,
        KeyError when the invite opens no seat of this game.
        """
        wanted = token_hash(invite)
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.game_id == game_id,
                    seats_table.c.invite_hash == wanted,
                    seats_table.c.token_hash.is_(None),
                )
                .values(token_hash=token_hash(token))
            ).rowcount
            side = conn.execute(
                select(seats_table.c.side).where(seats_table.c.game_id == game_id, seats_table.c.invite_hash == wanted)
            ).scalar()
            if changed == 1 and self.shared:  # other server processes: this game's seats changed
                conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{game_id} seats"})
        if side is None:
            raise KeyError(invite)
        if changed != 1:
            raise InviteUsedError(side)
        return str(side)

    def seats(self, game_id: str) -> list[Seat]:
        """A game's seats as stored now (another server process may have handed one out since this one read the
        game)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats_table).where(seats_table.c.game_id == game_id)).mappings().all()
        return [Seat(s["side"], s["kind"], s["token_hash"], s["agent"], s["invite_hash"]) for s in rows]

    def unfinished_computer_games(self, limit: int = 10000) -> list[str]:
        """Games against the computer not over yet, newest first: a restarted server resumes their computer seats."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id)
                .where(games_table.c.mode == "computer", games_table.c.over.is_(False))
                .order_by(games_table.c.updated.desc())
                .limit(limit)
            ).all()
        return [r[0] for r in rows]

    def version(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(games_table.c.version).where(games_table.c.id == game_id)).scalar()

    def steps_after(self, game_id: str, seq: int) -> tuple[int, list[Step]] | None:
        """(version, the steps from `seq` on), read in one statement so both come from one snapshot; None: no such game.

        A process whose copy has `seq` steps at version v catches up by playing only these when the
        version grew by exactly their number (nothing but appends happened), instead of replaying the game.
        """
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    games_table.c.version,
                    steps_table.c.kind,
                    steps_table.c.action,
                    steps_table.c.dice,
                    steps_table.c.side,
                    steps_table.c.reason,
                )
                .select_from(
                    games_table.outerjoin(
                        steps_table, and_(steps_table.c.game_id == games_table.c.id, steps_table.c.seq >= seq)
                    )
                )
                .where(games_table.c.id == game_id)
                .order_by(steps_table.c.seq)
            ).all()
        if not rows:
            return None
        return rows[0][0], [Step(r[1], r[2], list(r[3]), r[4], r[5]) for r in rows if r[1] is not None]

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
            rows = (
                conn.execute(
                    select(seats_table.c.token_hash, seats_table.c.side, games_table)
                    .join(games_table, games_table.c.id == seats_table.c.game_id)
                    .where(seats_table.c.token_hash.in_(list(hashes)))
                    .order_by(games_table.c.updated.desc())
                )
                .mappings()
                .all()
            )
        out = []
        for r in rows:
            out.append(
                {
                    "id": r["id"],
                    "game": r["game"],
                    "mode": r["mode"],
                    "side": r["side"],
                    "token": hashes[r["token_hash"]],
                    "scenario": r["header"].get("scenario"),
                    "version": r["version"],
                    "over": r["over"],
                    "result": r["result"],
                    "turn": r["turn"],
                    "created": r["created"],
                    "updated": r["updated"],
                }
            )
        return out


class ChangeListener:
    """`LISTEN warroom_games` on a connection of its own, in a daemon thread, for one server process.

    A dropped connection is opened again (after a pause that grows to a few seconds); since notices
    sent meanwhile are lost, the callback then gets `(None, None)`: look at everything again.
    """

    def __init__(self, conninfo: str, on_change: Callable[[str | None, int | None], None], poll_s: float = 0.5) -> None:
        self.conninfo = conninfo
        self.on_change = on_change
        self.poll_s = poll_s
        self.listening = threading.Event()  # set while LISTEN is in force
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="warroom-listen", daemon=True)

    def start(self, wait_s: float = 10.0) -> None:
        """Start, and wait until it listens, so that no change committed after this returns goes unheard."""
        self._thread.start()
        if not self.listening.wait(wait_s):
            log.warning(
                "not listening to PostgreSQL notices yet (still trying): pushes from other server processes may be late"
            )

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.poll_s + 5)

    def _run(self) -> None:
        import psycopg

        pause = 0.1
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    pause = 0.1
                    if not first:
                        self._deliver(None, None)  # notices sent while the connection was down are gone
                    first = False
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=self.poll_s):
                            game_id, version = _parse_notice(notice.payload)
                            if game_id is not None:
                                self._deliver(game_id, version)
            except Exception as exc:  # psycopg.Error, OSError: the database went away; try again
                self.listening.clear()
                if self._stop.is_set():
                    return
                log.warning("listening to PostgreSQL notices failed (%s); trying again in %.1f s", exc, pause)
                self._stop.wait(pause)
                pause = min(pause * 2, 5.0)
        self.listening.clear()

    def _deliver(self, game_id: str | None, version: int | None) -> None:
        try:
            self.on_change(game_id, version)
        except Exception:  # a failing receiver must not cost the connection
            log.exception("handling the notice that game %s changed failed", game_id)


def _parse_notice(payload: str) -> tuple[str | None, int | None]:
    """`'<game id> <version>'` → (game id, version); `'<game id> seats'` (a seat was claimed) → (game id, None):
    look at that game again; anything else (another program's notice) → (None, None)."""
    parts = payload.split()
    if len(parts) != 2 or not (parts[1].isdigit() or parts[1] == "seats"):
        return None, None
    return parts[0], int(parts[1]) if parts[1].isdigit() else None


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


MIGRATION_LOCK = 0x77617272  # "warr": the PostgreSQL advisory lock the schema upgrade holds


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration (creating it in an empty database).

    On PostgreSQL several server processes may start at once: the upgrade holds an advisory lock for
    its transaction, so one migrates and the others, waiting, then find the schema at the newest version.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
