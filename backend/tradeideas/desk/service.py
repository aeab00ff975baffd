"""The customer's desk: risk settings and the private journal of trades taken from ideas.

Entries belong to one customer: anyone else gets 404, as if the entry did not exist. Results in R follow
the idea's invalidation level copied when the trade was taken; P/L in account currency is R times the
risk amount the customer had set then (docs/decisions/0021-journal-results-in-r.md).
"""

from datetime import datetime
from statistics import median
from typing import NamedTuple

from sqlalchemy import Select, distinct, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.core.errors import Invalid, NotFound
from tradeideas.db import lock_until_commit, utcnow
from tradeideas.desk.events import IdeaTakenChanged, JournalChanged
from tradeideas.desk.management import CostedEntry, by_setup, management_cost_r, mean_interval95
from tradeideas.desk.models import IdeaTaken, JournalEntry, RiskSettings
from tradeideas.desk.schemas import (
    MAX_RISK_PERCENT,
    ConversionRateOut,
    JournalCreate,
    JournalEntryOut,
    JournalOut,
    JournalSummaryOut,
    JournalTotals,
    JournalUpdate,
    ManagementCost,
    RiskSettingsBody,
    SetupCost,
)
from tradeideas.desk.taken import (
    MAX_PRICE_R,
    TAKEN_THRESHOLD,
    Sums,
    average,
    level_number,
    price_r,
    r_multiple,
    rounded,
    sums_of,
    taken_of_row,
)
from tradeideas.ideas import service as ideas
from tradeideas.prices import reads as prices
from tradeideas.realtime.service import publish
from tradeideas.settings import Settings
from tradeideas.trackrecords.statistics import rounded_r

ENTRY_NOT_FOUND = "Journal entry not found"
KEY_REUSED = "This Idempotency-Key was already used for another trade: make a new key for a new entry"


# ---------------------------------------------------------------- risk settings


async def get_risk_settings(db: AsyncSession, user_id: int) -> RiskSettingsBody:
    row = await db.get(RiskSettings, user_id)
    if row is None:
        return RiskSettingsBody()
    # Saved before the 10 % limit existed: read as the limit (the next save stores a valid value).
    return RiskSettingsBody(
        account_size=row.account_size,
        account_currency=row.account_currency,
        risk_percent=min(row.risk_percent, MAX_RISK_PERCENT),
        leverage=row.leverage,
    )


async def set_risk_settings(db: AsyncSession, user_id: int, body: RiskSettingsBody) -> RiskSettingsBody:
    row = await db.get(RiskSettings, user_id)
    if row is None:
        try:
            # A first save sent twice at once (a kept write repeated on reconnect) meets on the primary key.
            async with db.begin_nested():
                row = RiskSettings(user_id=user_id, **body.model_dump(), updated_at=utcnow())
                db.add(row)
        except IntegrityError:
            row = await db.get(RiskSettings, user_id)
            assert row is not None, "the row that won the race"
    row.account_size = body.account_size
    row.account_currency = body.account_currency
    row.risk_percent = body.risk_percent
    row.leverage = body.leverage
    row.updated_at = utcnow()
    await db.flush()
    return RiskSettingsBody.model_validate(row)


async def conversion_rate(
    db: AsyncSession, settings: Settings, from_currency: str, to_currency: str, now: datetime
) -> ConversionRateOut:
    """The rate position sizing needs for crosses, metals and indices (quote -> account currency), from the price
    feed's latest price when it has one; otherwise null, and the customer types it (remembered on their device)."""
    source, target = from_currency.upper(), to_currency.upper()
    found = await prices.latest_rate(db, settings, source, target, now)
    if found is None:
        return ConversionRateOut(from_currency=source, to_currency=target, rate=None, as_of=None, feed=None)
    rate, at, feed = found
    shown = f"{rate:.6g}" if rate < 1 else f"{rate:.6f}".rstrip("0").rstrip(".")
    return ConversionRateOut(from_currency=source, to_currency=target, rate=shown, as_of=at, feed=feed)


# ---------------------------------------------------------------- results


def entry_out(
    entry: JournalEntry, idea_status: str | None, idea_r: float | None = None, checked_r: float | None = None
) -> JournalEntryOut:
    # Prices are kept as typed; the arithmetic reads them as numbers, as it always has.
    fill, exit_price = level_number(entry.fill_price), level_number(entry.exit_price)
    r = r_multiple(entry.order_type, fill, exit_price, entry.invalidation_level)
    cost = management_cost_r(r, checked_r)
    return JournalEntryOut(
        id=entry.id,
        idea_id=entry.idea_id,
        educator_name=entry.educator_name,
        market=entry.market,
        pair=entry.pair,
        order_type=entry.order_type,
        idea_type=entry.idea_type,
        entry1=entry.entry1,
        entry2=entry.entry2,
        invalidation_level=entry.invalidation_level,
        exit1=entry.exit1,
        exit2=entry.exit2,
        exit3=entry.exit3,
        fill_price=entry.fill_price,
        size=entry.size,
        exit_price=entry.exit_price,
        note=entry.note,
        status="closed" if entry.exit_price is not None else "open",
        r_multiple=None if r is None else round(r, 4),
        pnl=None if r is None else round(r * entry.risk_amount, 2),
        risk_amount=entry.risk_amount,
        account_currency=entry.account_currency,
        idea_status=idea_status,
        idea_r_multiple=idea_r,
        checked_r_multiple=checked_r,
        management_cost_r=None if cost is None else round(cost, 4),
        created_at=entry.created_at,
        closed_at=entry.closed_at,
    )


def totals(entries: list[JournalEntryOut], currency: str) -> JournalTotals:
    closed = [e for e in entries if e.status == "closed"]
    scored = [e for e in closed if e.r_multiple is not None]
    wins = sum(1 for e in scored if (e.r_multiple or 0) > 0)
    # Taken versus called: the caller's own R beside the educator's recorded R, over the same (closed) ideas.
    both = [(e.r_multiple, e.idea_r_multiple) for e in scored if e.idea_r_multiple is not None]
    return JournalTotals(
        entries=len(entries),
        open=len(entries) - len(closed),
        closed=len(closed),
        wins=wins,
        win_rate=round(wins / len(scored), 4) if scored else None,
        total_r=round(sum(e.r_multiple or 0 for e in scored), 4),
        total_pnl=round(sum(e.pnl or 0 for e in scored), 2),
        account_currency=currency,
        compared=len(both),
        own_average_r=average(sum(own or 0 for own, _ in both), len(both)),
        called_average_r=average(sum(called or 0 for _, called in both), len(both)),
    )


# ---------------------------------------------------------------- journal


async def list_journal(db: AsyncSession, user_id: int) -> JournalOut:
    """The caller's entries, newest first, each with the educator's current status of the idea, and totals."""
    rows = await db.execute(
        select(JournalEntry)
        .where(JournalEntry.user_id == user_id)
        .order_by(JournalEntry.created_at.desc(), JournalEntry.id.desc())
    )
    journal = list(rows.scalars())
    idea_ids = {e.idea_id for e in journal if e.idea_id is not None}
    results = await ideas.idea_results(db, idea_ids)
    checked = await prices.price_checked_r(db, idea_ids)
    entries = [entry_out(entry, *_result(results, checked, entry)) for entry in journal]
    settings = await get_risk_settings(db, user_id)
    return JournalOut(entries=entries, totals=totals(entries, settings.account_currency))


def _result(
    results: dict[int, ideas.IdeaResult], checked: dict[int, float], entry: JournalEntry
) -> tuple[str | None, float | None, float | None]:
    """The educator's recorded status and R of the entry's idea, and its price-checked R (all None once deleted)."""
    result = results.get(entry.idea_id) if entry.idea_id is not None else None
    if result is None or entry.idea_id is None:
        return None, None, None
    return result.status, result.r_multiple, checked.get(entry.idea_id)


async def _idea_record(db: AsyncSession, entry: JournalEntry) -> tuple[str | None, float | None, float | None]:
    ids = [entry.idea_id] if entry.idea_id is not None else []
    return _result(await ideas.idea_results(db, ids), await prices.price_checked_r(db, ids), entry)


async def journal_summary(db: AsyncSession, user_id: int) -> JournalSummaryOut:
    """The caller's management cost over their closed entries linked to a price-checked idea, and by setup."""
    rows = await db.execute(
        select(JournalEntry).where(
            JournalEntry.user_id == user_id, JournalEntry.exit_price.is_not(None), JournalEntry.idea_id.is_not(None)
        )
    )
    journal = list(rows.scalars())
    idea_ids = {e.idea_id for e in journal if e.idea_id is not None}
    checked = await prices.price_checked_r(db, idea_ids)
    setups = await ideas.setups_of_ideas(db, set(checked))
    costed: list[CostedEntry] = []
    for entry in journal:
        own = r_multiple(
            entry.order_type, level_number(entry.fill_price), level_number(entry.exit_price), entry.invalidation_level
        )
        cost = management_cost_r(own, checked.get(entry.idea_id)) if entry.idea_id is not None else None
        if cost is not None and entry.idea_id is not None:
            setup_id, name = setups.get(entry.idea_id, (None, None))
            costed.append(CostedEntry(cost, setup_id, name, entry.educator_name))
    costs = [c.cost_r for c in costed]
    return JournalSummaryOut(
        management_cost=ManagementCost(
            count=len(costs),
            average_cost_r=rounded_r(sum(costs) / len(costs)) if costs else None,
            interval95=mean_interval95(costs),
            by_setup=[
                SetupCost(
                    setup_id=setup_id, setup_name=name, educator_name=educator, count=count, average_cost_r=average_cost
                )
                for setup_id, name, educator, count, average_cost in by_setup(costed)
            ],
        )
    )


def check_price(entry: JournalEntry, field: str, price: str | None) -> None:
    """422 naming the field when a fill or exit of an entry linked to an idea lies more than `MAX_PRICE_R` from the
    idea's entry (the manual-close rule)."""
    if price is None or entry.idea_id is None:
        return
    r = price_r(entry.order_type, entry.entry1, entry.entry2, entry.invalidation_level, price)
    if r is not None and abs(r) > MAX_PRICE_R:
        what = "A fill" if field == "fillPrice" else "An exit"
        raise Invalid(
            f"{what} at {price} would be {r:+.2f} R from the idea's entry: it can be at most {MAX_PRICE_R:g} R from "
            "the entry. Check the price.",
            code="implausible_price",
            extra={"field": field},
        )


async def take_idea(
    db: AsyncSession, user_id: int, body: JournalCreate, idempotency_key: str | None = None
) -> tuple[JournalEntryOut, bool]:
    """Record a trade taken from an idea, copying its levels and the customer's current risk amount.

    With a key (the device's, made once when the customer saved): a repeat returns the entry the first request
    made, and says so (`True`), instead of recording the trade twice; concurrent repeats meet on the unique key
    (docs/decisions/0057-idempotent-journal-entries.md).
    """
    if idempotency_key is not None:
        earlier = await _entry_for_key(db, user_id, idempotency_key)
        if earlier is not None:
            return await _repeat(db, earlier, body), True
    idea = await ideas.public_idea(db, body.idea_id)
    risk = await get_risk_settings(db, user_id)
    now = utcnow()
    entry = JournalEntry(
        user_id=user_id,
        idea_id=idea.id,
        educator_name=idea.educator_name,
        market=idea.market,
        pair=idea.pair,
        order_type=idea.order_type,
        idea_type=idea.idea_type,
        entry1=idea.entry1,
        entry2=idea.entry2,
        invalidation_level=idea.invalidation_level,
        exit1=idea.exit1,
        exit2=idea.exit2,
        exit3=idea.exit3,
        fill_price=body.fill_price,
        size=body.size,
        note=body.note,
        risk_amount=round(risk.account_size * risk.risk_percent / 100, 2),
        account_currency=risk.account_currency,
        created_at=now,
        updated_at=now,
        idempotency_key=idempotency_key,
    )
    check_price(entry, "fillPrice", entry.fill_price)
    if idempotency_key is None:
        db.add(entry)
        await db.flush()
    else:
        try:
            # A concurrent repeat (same member, same key) waits on the unique key and fails here once the first
            # commits: only its savepoint is rolled back, and it answers with the first one's entry.
            async with db.begin_nested():
                db.add(entry)
        except IntegrityError:
            earlier = await _entry_for_key(db, user_id, idempotency_key)
            if earlier is None:
                raise
            return await _repeat(db, earlier, body), True
    await refresh_taken(db, idea.id, idea.educator_id)
    await publish(db, JournalChanged(user_id=user_id, idea_id=idea.id))
    return entry_out(entry, idea.status), False


async def _entry_for_key(db: AsyncSession, user_id: int, key: str) -> JournalEntry | None:
    query = select(JournalEntry).where(JournalEntry.user_id == user_id, JournalEntry.idempotency_key == key)
    return (await db.execute(query)).scalar_one_or_none()


async def _repeat(db: AsyncSession, earlier: JournalEntry, body: JournalCreate) -> JournalEntryOut:
    """The entry a key already made, if the request is the same trade; a key reused for another one is refused."""
    same_idea = earlier.idea_id is None or earlier.idea_id == body.idea_id  # None: the idea was deleted since
    if not same_idea or earlier.fill_price != body.fill_price or earlier.size != body.size:
        raise Invalid(KEY_REUSED, code="idempotency_key_reused")
    return entry_out(earlier, *await _idea_record(db, earlier))


async def owned_entry(db: AsyncSession, user_id: int, entry_id: int) -> JournalEntry:
    """The caller's entry; 404 for anyone else's, so other customers cannot even learn it exists."""
    entry = await db.get(JournalEntry, entry_id)
    if entry is None or entry.user_id != user_id:
        raise NotFound(ENTRY_NOT_FOUND)
    return entry


async def update_entry(db: AsyncSession, user_id: int, entry_id: int, body: JournalUpdate) -> JournalEntryOut:
    entry = await owned_entry(db, user_id, entry_id)
    sent = body.model_fields_set
    if "exit_price" in sent:
        check_price(entry, "exitPrice", body.exit_price)
        entry.exit_price = body.exit_price
        entry.closed_at = utcnow() if body.exit_price is not None else None
    if "note" in sent:
        entry.note = body.note
    entry.updated_at = utcnow()
    await db.flush()
    await refresh_taken(db, entry.idea_id)
    await publish(db, JournalChanged(user_id=user_id, idea_id=entry.idea_id))
    return entry_out(entry, *await _idea_record(db, entry))


async def delete_entry(db: AsyncSession, user_id: int, entry_id: int) -> None:
    entry = await owned_entry(db, user_id, entry_id)
    await db.delete(entry)
    await db.flush()
    await refresh_taken(db, entry.idea_id)
    await publish(db, JournalChanged(user_id=user_id, idea_id=entry.idea_id))


# ---------------------------------------------------------------- called versus taken


async def refresh_taken(db: AsyncSession, idea_id: int | None, educator_id: int | None = None) -> None:
    """Recompute the idea's stored "taken" sums from its journal entries, in the transaction of the change.

    The idea's entries are few (one per member who took it, give or take), so they are summed anew rather than
    adjusted. `IdeaTakenChanged` tells the idea pages (when what the idea shows changed) and the educator's
    record (followers) to drop their cached answers.
    """
    if idea_id is None:  # the idea was deleted: nothing shows its aggregate any more
        return
    await _lock_taken(db, idea_id)
    if educator_id is None:
        educator_id = await ideas.educator_of(db, idea_id)
        if educator_id is None:
            return
    entries = (await db.execute(select(JournalEntry).where(JournalEntry.idea_id == idea_id))).scalars().all()
    sums = sums_of(entries)
    row = await db.get(IdeaTaken, idea_id, with_for_update=True)
    shown_before = taken_of_row(row)
    if sums == Sums():
        if row is not None:
            await db.delete(row)
    else:
        if row is None:
            row = IdeaTaken(idea_id=idea_id)
            db.add(row)
        row.members, row.slippage_count, row.slippage_sum_r = sums.members, sums.slippage_count, sums.slippage_sum_r
        row.realised_count, row.realised_sum_r = sums.realised_count, sums.realised_sum_r
        row.slippage_median_r, row.realised_median_r = sums.slippage_median_r, sums.realised_median_r
    await db.flush()
    shown = None if sums == Sums() else taken_of_row(row)
    await publish(db, IdeaTakenChanged(idea_id=idea_id, educator_id=educator_id, shown_changed=shown != shown_before))


# PostgreSQL advisory locks of one idea's "taken" row (pg_advisory_xact_lock(class, idea id)), a class no other
# two-key lock uses (track records use "trec").
TAKEN_LOCK_CLASS = 0x74616B6E  # "takn"


async def _lock_taken(db: AsyncSession, idea_id: int) -> None:
    """One refresh of an idea's sums at a time, until the transaction ends: members journaling the same idea at once
    would each sum only the entries they can see and both insert the row (a 500 for one, a wrong sum for the other).
    Once the lock is ours, the entries committed by the one before are visible."""
    await lock_until_commit(db, TAKEN_LOCK_CLASS, idea_id)


class Followers(NamedTuple):
    members: int
    average_r: float | None


NO_FOLLOWERS = Followers(0, None)


async def followers(db: AsyncSession, ideas_of: Select[int, int]) -> dict[int, Followers]:
    """Per educator, the members who journaled any of their ideas and the median R of those members' closed
    journal entries (decision 0101: a few accounts with absurd prices cannot move a median far).

    `ideas_of` selects (idea id, educator id) of the ideas that count (a record's filters). Two statements however
    many ideas: distinct members per educator, and the closed entries' prices, whose R is computed here as the
    journal computes it. The median is shown only from `TAKEN_THRESHOLD` members, like an idea's own `taken`.
    """
    picked = ideas_of.subquery()
    idea_id, educator_id = picked.c[0], picked.c[1]
    members = await db.execute(
        select(educator_id, func.count(distinct(JournalEntry.user_id)))
        .join_from(picked, JournalEntry, JournalEntry.idea_id == idea_id)
        .group_by(educator_id)
    )
    counts = {educator: count for educator, count in members}
    shown = [educator for educator, count in counts.items() if count >= TAKEN_THRESHOLD]
    results: dict[int, list[float]] = {}
    if shown:
        closed = await db.execute(
            select(
                educator_id,
                JournalEntry.order_type,
                JournalEntry.fill_price,
                JournalEntry.exit_price,
                JournalEntry.invalidation_level,
            )
            .join_from(picked, JournalEntry, JournalEntry.idea_id == idea_id)
            .where(educator_id.in_(shown), JournalEntry.exit_price.is_not(None))
        )
        for educator, order_type, fill, exit_price, stop in closed:
            r = r_multiple(order_type, level_number(fill), level_number(exit_price), stop)
            if r is not None:
                results.setdefault(educator, []).append(r)
    return {
        educator: Followers(
            count, rounded(median(results[educator])) if count >= TAKEN_THRESHOLD and educator in results else None
        )
        for educator, count in counts.items()
    }
