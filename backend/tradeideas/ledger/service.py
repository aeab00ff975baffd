"""Appending to the ledger and reading it back. Services never commit: an entry is written in the transaction of
the change it records, so no change commits without its entry (and a failed append fails the change).

The chain has one head, so appends take turns: on PostgreSQL a transaction-level advisory lock is taken before the
head is read and held until commit, so the next writer reads the head this one wrote (decision 0051). A change's
entries are appended as its transaction commits, so that the turn is held for the appends alone (decision 0065).
SQLite has one writer at a time, and the ideas domain has already written its row (holding the write lock) when its
event arrives.
In both, `seq` is the primary key: a writer that somehow read a stale head fails on insert instead of forking.
"""

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import func, insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.errors import NotFound
from tradeideas.db import utcnow
from tradeideas.ideas.events import IdeaCreated, IdeaDeleted, IdeaStatusChanged, IdeaUpdated
from tradeideas.ledger import timestamps
from tradeideas.ledger.chain import (
    GENESIS,
    LESSON_KIND,
    STATE_KINDS,
    Entry,
    Kind,
    Payload,
    Planned,
    canonical,
    format_at,
    idea_payload,
    lesson_payload,
)
from tradeideas.ledger.models import LedgerDay, LedgerEntry
from tradeideas.ledger.schemas import DayFingerprint, EntryOut, Head, LedgerPage, Proof, TimestampOut, VerifierOut
from tradeideas.prices.events import IdeaPriceChecked
from tradeideas.settings import REPO_ROOT

# "ledger" in ASCII: the advisory lock that serialises appends (events use 111559182283891, housekeeping 7370421012).
APPEND_LOCK = 0x6C6564676572
DAY_NOT_FOUND = "No ledger entries on that day"


async def take_turn(db: AsyncSession) -> None:
    """Wait for the right to append, held until this transaction ends. Idempotent within one.

    PostgreSQL: the advisory lock. SQLite: the database's write lock, taken by a write that changes nothing (a
    transaction that has not written yet would otherwise read the head, then find another writer got there first).
    """
    if db.get_bind().dialect.name == "postgresql":
        await db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": APPEND_LOCK})
    else:
        await db.execute(text("UPDATE ledger_days SET entries = entries WHERE 0 = 1"))


async def head(db: AsyncSession) -> LedgerEntry | None:
    return (await db.execute(select(LedgerEntry).order_by(LedgerEntry.seq.desc()).limit(1))).scalar_one_or_none()


async def append(db: AsyncSession, kind: Kind, subject_id: int, payload: Payload, at: datetime | None = None) -> int:
    """Add one entry at the end of the chain, in the caller's transaction; its position is returned. Every payload
    value is a string or null (numbers as strings); anything else is a TypeError, so an entry that could be hashed
    two ways is never written.

    The entry is dated `at` (by default: now, once the turn is this transaction's), and never before the head it
    follows, so dates rise with positions and a UTC day that has ended gains no entries: its fingerprint, once
    posted, stays its fingerprint (decision 0070). Only entries written before any day was posted (the backfill of
    an old database, the demo's first start) pass a moment of their own.

    Three steps: the turn, the head, and the entry; on PostgreSQL the first two are one call (decision 0068). The
    entry's day fingerprint (`ledger_days`) is kept by a trigger inside the insert (decision 0058). On PostgreSQL,
    once the change being recorded has begun the transaction, they run on the transaction's own asyncpg
    connection: through the session each cost 0.4-0.8 ms of SQLAlchemy's execution path, through the driver 0.1 ms,
    and the ledger is on the path of every change to an idea (bench/RESULTS.md, decision 0058)."""
    for key, value in payload.items():
        if value is not None and not isinstance(value, str):
            raise TypeError(f"ledger payload {key!r} must be a string or null, not {type(value).__name__}")
    driver = await _driver_in_transaction(db)
    if driver is not None:
        last = await driver.fetchrow(TURN_AND_HEAD_SQL, APPEND_LOCK)
    else:
        await take_turn(db)  # through the session: it begins the transaction if nothing has yet
        last = (
            await db.execute(
                select(LedgerEntry.seq, LedgerEntry.hash, LedgerEntry.at).order_by(LedgerEntry.seq.desc()).limit(1)
            )
        ).first()
    dated = format_at(at or utcnow())
    entry = Entry(
        seq=1 if last is None else last[0] + 1,
        at=dated if last is None else max(dated, last[2]),  # one fixed-width UTC spelling: text order is time order
        kind=kind,
        subject_id=subject_id,
        payload=payload,
        prev_hash=GENESIS if last is None else last[1],
    )
    row = (
        entry.seq,
        entry.at,
        entry.kind,
        entry.subject_id,
        canonical(entry.payload),
        entry.prev_hash,
        entry.hash(),
        utcnow(),
    )
    if driver is not None:
        await driver.execute(INSERT_SQL, *row)
    else:
        await db.execute(insert(LedgerEntry).values(dict(zip(ENTRY_COLUMNS, row, strict=True))))
    return entry.seq


ENTRY_COLUMNS = ("seq", "at", "kind", "subject_id", "payload", "prev_hash", "hash", "recorded_at")
# Takes the turn, then reads the head with a snapshot taken after it (migrations 0019 and 0020, decision 0068).
TURN_AND_HEAD_SQL = "SELECT seq, hash, at FROM ledger_head_after_turn($1)"
INSERT_SQL = f"INSERT INTO ledger_entries ({', '.join(ENTRY_COLUMNS)}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"  # noqa: S608 - constant columns


async def _driver_in_transaction(db: AsyncSession) -> Any | None:
    """The asyncpg connection of the session's transaction, when it is PostgreSQL and the transaction has begun on
    it (SQLAlchemy begins it with the first statement); else None, and the session runs the statements."""
    connection = await db.connection()
    if connection.dialect.name != "postgresql":
        return None
    driver = (await connection.get_raw_connection()).driver_connection
    return driver if driver is not None and driver.is_in_transaction() else None


async def append_all(db: AsyncSession, planned: list[Planned]) -> None:
    for p in planned:
        await append(db, p.kind, p.subject_id, p.payload, p.at)


async def last_payload(db: AsyncSession, subject_id: int) -> Payload | None:
    """What the ledger last said about this subject's state (None when it never said anything)."""
    row = (
        await db.execute(
            select(LedgerEntry.payload)
            .where(LedgerEntry.subject_id == subject_id, LedgerEntry.kind.in_(STATE_KINDS))
            .order_by(LedgerEntry.seq.desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    return None if row is None else json.loads(row)


# ---------------------------------------------------------------- appending as the transaction commits
#
# The chain's turn is held from the moment it is taken until commit, and every change to an idea appends. Taken
# where the change publishes its event, it was held through the rest of the change: about twenty round trips for a
# completion (the track record, pushes, the price check, the answer), each waiting for a busy worker's event loop,
# so completions queued behind each other (decision 0065). The reactions below are therefore the bus's
# before-commit handlers (`EventBus.before_commit`): they run when the transaction commits, still inside it (a
# failed append fails the commit), with the turn held for the appends alone. The turn is taken last in every
# transaction, after any other lock: the same order everywhere, so no deadlock.


# ---------------------------------------------------------------- reactions to the ideas domain's events


async def on_idea_published(db: AsyncSession, event: IdeaCreated) -> None:
    await append(db, "idea.published", event.id, idea_payload(event))


async def last_lesson(db: AsyncSession, subject_id: int) -> Payload | None:
    """What the ledger last said about this idea's lesson (None when it never said anything)."""
    row = (
        await db.execute(
            select(LedgerEntry.payload)
            .where(LedgerEntry.subject_id == subject_id, LedgerEntry.kind == LESSON_KIND)
            .order_by(LedgerEntry.seq.desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    return None if row is None else json.loads(row)


async def on_idea_edited(db: AsyncSession, event: IdeaUpdated) -> None:
    """Only edits that change what the record shows (levels, identity, R) are entries; notes and media are not.
    A lesson added or corrected is an `idea.lesson` entry (decision 0171)."""
    payload = idea_payload(event)
    lesson = (
        None
        if event.lesson is None
        else lesson_payload(event.educator_id, event.lesson.what_happened, event.lesson.lesson)
    )

    await take_turn(db)  # before reading the last payload, so a concurrent edit cannot slip in between
    if payload != await last_payload(db, event.id):
        await append(db, "idea.edited", event.id, payload)
    if lesson is not None and lesson != await last_lesson(db, event.id):
        await append(db, LESSON_KIND, event.id, lesson)


async def on_idea_result(db: AsyncSession, event: IdeaStatusChanged) -> None:
    await append(db, "idea.result", event.id, idea_payload(event))


async def on_idea_deleted(db: AsyncSession, event: IdeaDeleted) -> None:
    """The idea as the ledger last knew it, marked deleted (its row is gone by now)."""

    await take_turn(db)
    known = await last_payload(db, event.id) or {"educatorId": str(event.educator_id), "pair": event.pair}
    await append(db, "idea.deleted", event.id, {**known, "status": "deleted"})


async def on_price_checked(db: AsyncSession, event: IdeaPriceChecked) -> None:
    """Each step of the independent settlement, with the price and the time of the candle that proves it (in the
    payload: the entry itself is dated when the step is recorded, which can be a day after its candle)."""
    payload: Payload = {
        "step": event.step,
        "candleAt": format_at(event.at),
        "feed": event.feed,
        "symbol": event.symbol,
        "price": event.price,
        "outcome": event.outcome,
        "rMultiple": None if event.r_multiple is None else f"{event.r_multiple:.2f}",
    }
    await append(db, "idea.price_check", event.idea_id, payload)


# ---------------------------------------------------------------- reading


def entry_out(row: LedgerEntry) -> EntryOut:
    return EntryOut(
        seq=row.seq,
        at=row.at,
        kind=row.kind,
        subject_id=row.subject_id,
        payload=json.loads(row.payload),
        prev_hash=row.prev_hash,
        hash=row.hash,
    )


async def ledger_page(db: AsyncSession, after: int, limit: int) -> LedgerPage:
    """Entries after position `after`, oldest first; `nextAfter` is where the next page starts (null at the end)."""
    rows = list(
        (
            await db.execute(
                select(LedgerEntry).where(LedgerEntry.seq > after).order_by(LedgerEntry.seq).limit(limit + 1)
            )
        ).scalars()
    )
    more = len(rows) > limit
    rows = rows[:limit]
    return LedgerPage(entries=[entry_out(r) for r in rows], next_after=rows[-1].seq if more else None)


def day_out(day: LedgerDay, stamps: list[TimestampOut]) -> DayFingerprint:
    return DayFingerprint(
        date=day.day,
        first_seq=day.first_seq,
        last_seq=day.last_seq,
        entries=day.entries,
        hash=day.hash,
        timestamps=stamps,
    )


VERIFIER_PATH = REPO_ROOT / "tools" / "verify_ledger.py"
VERIFIER_URL = "/proof/verify_ledger.py"


@dataclass(frozen=True)
class Verifier:
    text: bytes
    sha256: str


@cache
def verifier() -> Verifier:
    """The standalone verifier as this server ships it, read once, with its SHA-256."""
    text = VERIFIER_PATH.read_bytes()
    return Verifier(text, hashlib.sha256(text).hexdigest())


async def proof(db: AsyncSession) -> Proof:
    """The head of the chain and every day's fingerprint, newest day first, and where to get the verifier."""
    last = await head(db)
    days = list((await db.execute(select(LedgerDay).order_by(LedgerDay.day.desc()))).scalars())
    stamps = await timestamps.of_seqs(db, [d.last_seq for d in days])
    return Proof(
        head=Head(seq=last.seq, hash=last.hash) if last is not None else Head(seq=0, hash=GENESIS),
        days=[day_out(d, stamps.get(d.last_seq, [])) for d in days],
        timestamps=await timestamps.latest(db),
        verifier=VerifierOut(url=VERIFIER_URL, sha256=verifier().sha256),
    )


async def proof_day(db: AsyncSession, day: date) -> DayFingerprint:
    row = await db.get(LedgerDay, day)
    if row is None:
        raise NotFound(DAY_NOT_FOUND, code="no_ledger_day")
    return day_out(row, await timestamps.between(db, row.first_seq, row.last_seq))


# Completed days whose fingerprint is still posted when the channel learns of it late (a server down over midnight);
# older ones stay unposted rather than flooding the channel when it is first configured.
POST_DAYS_BACK = 3
# How long after midnight (UTC) a day is posted: entries are dated by their writer's clock, and a writer whose clock
# runs a little behind could still date one in the day that has just ended (decision 0070).
POST_GRACE = timedelta(minutes=5)


def fingerprint_text(app_name: str, day: LedgerDay, proof_url: str | None) -> str:
    check = f"\nCheck it: {proof_url}" if proof_url else ""
    return (
        f"{app_name} record fingerprint for {day.day.isoformat()} (UTC)\n{day.hash}\n"
        f"The hash of ledger entry #{day.last_seq}, which fixes every entry before it.{check}"
    )


async def post_fingerprints(
    db: AsyncSession, now: datetime, post: Callable[[str], Awaitable[bool]], app_name: str, proof_url: str | None
) -> int:
    """Post each completed UTC day's fingerprint once (the recent ones not posted yet), in the caller's
    transaction; `post` queues one message and says whether a channel took it. A day counts as completed
    `POST_GRACE` after it ends."""
    today = (now - POST_GRACE).astimezone(UTC).date()
    days = (
        await db.execute(
            select(LedgerDay)
            .where(
                LedgerDay.posted_at.is_(None),
                LedgerDay.day < today,
                LedgerDay.day >= today - timedelta(days=POST_DAYS_BACK),
            )
            .order_by(LedgerDay.day)
            .with_for_update()
        )
    ).scalars()
    posted = 0
    for day in days:
        if not await post(fingerprint_text(app_name, day, proof_url)):
            break
        day.posted_at = now
        posted += 1
    await db.flush()
    return posted


async def entry_count(db: AsyncSession) -> int:
    return int((await db.execute(select(func.count()).select_from(LedgerEntry))).scalar_one())
