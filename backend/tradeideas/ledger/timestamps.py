"""Time-stamping the chain (decision 0100): each finished UTC day's fingerprint and, every hour, the running head
are sent to each authority in TSA_URLS; a checked token is kept per authority and position.

`stamp_due` does one round: for each authority not waiting out a backoff, what is due (the recent finished days
whose fingerprint it has not stamped, then the head when its last stamp is an hour old and the head has moved) is
asked for, one request at a time, outside any transaction. A failure stops that authority's round and puts it off:
one minute after the first failure, doubling up to an hour; the next success clears it. The leading process runs
a round every minute beside its housekeeping (`housekeeping.Housekeeping`), and `tradeideas housekeeping` runs one.
"""

import base64
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.db import Database, utcnow
from tradeideas.ledger import tsa
from tradeideas.ledger.models import LedgerDay, LedgerEntry, LedgerTimestamp, TimestampAuthority
from tradeideas.ledger.schemas import TimestampOut
from tradeideas.settings import Settings

log = logging.getLogger(__name__)

HEAD_EVERY = timedelta(hours=1)
FIRST_BACKOFF = timedelta(minutes=1)
MAX_BACKOFF = timedelta(hours=1)
# Finished days stamped when the stamper learns of them late (a server down over midnight, a new authority); older
# days are covered by the head's stamps, whose hash fixes every entry before it.
DAYS_BACK = 3
# A day counts as finished this long after midnight UTC (as for the channel's posts: writers' clocks may lag).
DAY_GRACE = timedelta(minutes=5)


@dataclass(frozen=True)
class Due:
    seq: int
    hash: str
    what: str  # "the fingerprint of 2026-11-28" or "the head"


@dataclass
class Round:
    stamped: list[tuple[str, int]] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


def backoff(failures: int) -> timedelta:
    """How long an authority that failed `failures` times in a row is left alone."""
    longer: timedelta = FIRST_BACKOFF * (2 ** min(max(failures - 1, 0), 12))
    return min(longer, MAX_BACKOFF)


async def due(db: AsyncSession, authority: str, now: datetime) -> list[Due]:
    """What `authority` should time-stamp now: finished recent days it has not, then the head once an hour."""
    stamped = select(LedgerTimestamp.seq).where(LedgerTimestamp.authority == authority)
    today = (now - DAY_GRACE).astimezone(UTC).date()
    days = (
        await db.execute(
            select(LedgerDay.day, LedgerDay.last_seq, LedgerDay.hash)
            .where(
                LedgerDay.day < today,
                LedgerDay.day >= today - timedelta(days=DAYS_BACK),
                LedgerDay.last_seq.not_in(stamped),
            )
            .order_by(LedgerDay.day)
        )
    ).all()
    out = [Due(seq, hash_, f"the fingerprint of {day.isoformat()}") for day, seq, hash_ in days]
    head = (
        await db.execute(select(LedgerEntry.seq, LedgerEntry.hash).order_by(LedgerEntry.seq.desc()).limit(1))
    ).first()
    if head is not None and all(d.seq != head[0] for d in out):
        last = (
            await db.execute(
                select(LedgerTimestamp.seq, LedgerTimestamp.recorded_at)
                .where(LedgerTimestamp.authority == authority)
                .order_by(LedgerTimestamp.seq.desc())
                .limit(1)
            )
        ).first()
        if last is None or (last[0] < head[0] and now - last[1] >= HEAD_EVERY):
            out.append(Due(head[0], head[1], "the head"))
    return out


async def _state(db: AsyncSession, url: str) -> TimestampAuthority:
    row = await db.get(TimestampAuthority, url)
    if row is None:
        row = TimestampAuthority(url=url, failures=0)
        db.add(row)
    return row


async def stamp_due(
    database: Database, settings: Settings, client: httpx.AsyncClient, now: datetime | None = None
) -> Round:
    """One round for every authority in TSA_URLS (nothing when it is empty)."""
    result = Round()
    for url in settings.tsa_url_list:
        moment = now or utcnow()
        async with database.sessionmaker() as db:
            state = await db.get(TimestampAuthority, url)
            if state is not None and state.next_try_at is not None and state.next_try_at > moment:
                continue
            todo = await due(db, url, moment)
        for item in todo:
            try:
                got = await tsa.stamp(client, url, item.hash, utcnow())  # the reply's time: against the real clock
            except (tsa.TsaError, httpx.HTTPError) as exc:
                error = f"{item.what} (seq {item.seq}): {exc or type(exc).__name__}"
                result.failed[url] = error
                log.warning("time-stamp authority %s failed on %s", url, error)
                async with database.sessionmaker() as db, db.begin():
                    state = await _state(db, url)
                    state.failures = (state.failures or 0) + 1
                    state.last_failure = now or utcnow()
                    state.last_error = error[:2000]
                    state.next_try_at = state.last_failure + backoff(state.failures)
                break
            async with database.sessionmaker() as db, db.begin():
                db.add(
                    LedgerTimestamp(
                        authority=url,
                        seq=item.seq,
                        hash=item.hash,
                        at=got.at,
                        token=got.token,
                        recorded_at=now or utcnow(),
                    )
                )
                state = await _state(db, url)
                state.failures = 0
                state.last_success = now or utcnow()
                state.next_try_at = None
            result.stamped.append((url, item.seq))
    return result


def timestamp_out(row: LedgerTimestamp) -> TimestampOut:
    return TimestampOut(
        authority=tsa.authority_name(row.authority),
        at=row.at,
        seq=row.seq,
        hash=row.hash,
        token=base64.b64encode(row.token).decode("ascii"),
    )


async def of_seqs(db: AsyncSession, seqs: Sequence[int]) -> dict[int, list[TimestampOut]]:
    """The time-stamps of these positions (a list of days' fingerprints), by position."""
    out: dict[int, list[TimestampOut]] = {}
    if not seqs:
        return out
    rows = (
        await db.execute(
            select(LedgerTimestamp).where(LedgerTimestamp.seq.in_(seqs)).order_by(LedgerTimestamp.authority)
        )
    ).scalars()
    for row in rows:
        out.setdefault(row.seq, []).append(timestamp_out(row))
    return out


async def between(db: AsyncSession, first: int, last: int) -> list[TimestampOut]:
    """Every time-stamp of a position in `first`..`last` (a day's entries), oldest first."""
    rows = (
        await db.execute(
            select(LedgerTimestamp)
            .where(LedgerTimestamp.seq.between(first, last))
            .order_by(LedgerTimestamp.seq, LedgerTimestamp.authority)
        )
    ).scalars()
    return [timestamp_out(r) for r in rows]


async def latest(db: AsyncSession) -> list[TimestampOut]:
    """Each authority's most recent time-stamp (of the running head, or of the last day's fingerprint)."""
    newest = (
        select(LedgerTimestamp.authority, func.max(LedgerTimestamp.seq).label("seq"))
        .group_by(LedgerTimestamp.authority)
        .subquery()
    )
    rows = (
        await db.execute(
            select(LedgerTimestamp)
            .join(newest, and_(LedgerTimestamp.authority == newest.c.authority, LedgerTimestamp.seq == newest.c.seq))
            .order_by(LedgerTimestamp.authority)
        )
    ).scalars()
    return [timestamp_out(r) for r in rows]


@dataclass(frozen=True)
class AuthorityHealth:
    url: str
    last_success: datetime | None
    last_failure: datetime | None
    last_error: str | None
    failures: int


async def health(db: AsyncSession, settings: Settings) -> list[AuthorityHealth]:
    """Each configured authority's last success and, while it fails, its last error."""
    urls = settings.tsa_url_list
    if not urls:
        return []
    rows = {
        r.url: r
        for r in (await db.execute(select(TimestampAuthority).where(TimestampAuthority.url.in_(urls)))).scalars()
    }
    out = []
    for url in urls:
        row = rows.get(url)
        out.append(
            AuthorityHealth(
                url=url,
                last_success=None if row is None else row.last_success,
                last_failure=None if row is None else row.last_failure,
                last_error=None if row is None or not row.failures else row.last_error,
                failures=0 if row is None else row.failures,
            )
        )
    return out
