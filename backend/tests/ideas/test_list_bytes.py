"""The idea list sends exactly the bytes that presenting each idea as `IdeaOut` and encoding the page with orjson
would: every field, in order, in the same format, for customers (with NEW flags) and educators, with the caches
on and off. The reference below reads ORM rows and builds `IdeaOut`s, as the list did before it was read with
plain columns; any change of a field's name, order or format in the list fails here."""

import base64
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import orjson
import pytest
from fastapi import FastAPI
from sqlalchemy import and_, case, delete, false, or_, select, true

from tests.conftest import customer_client
from tradeideas.auth.cache import SessionCache
from tradeideas.auth.models import Role, User
from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.desk.models import IdeaTaken
from tradeideas.desk.taken import shown_taken
from tradeideas.ideas.cache import IdeaCache, SeenMarks
from tradeideas.ideas.models import IdeaImage, IdeaSetup, IdeaStatus, IdeaView, TradeIdea
from tradeideas.ideas.queries import NO_PICTURES, shown_idea
from tradeideas.ideas.schemas import IdeaOut, LessonOut, Taken
from tradeideas.media.models import MediaFile
from tradeideas.media.schemas import media_url
from tradeideas.notifications.models import CustomerIdeaState, MutedEducator
from tradeideas.prices import rows as price_checks
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.schemas import ReceiptOut, Verification

EDUCATOR_A_ID = 1
READER = "bytes.reader@example.com"
# Far in the future, so these ideas head every list and the cursor pages walk through them.
T0 = datetime(2100, 1, 2, 3, 4, 5, tzinfo=UTC)


@dataclass
class Seeded:
    educator_id: int
    idea_ids: list[int]


def _level_fields(n: int) -> dict[str, Any]:
    return {
        "order_type": "BUY" if n % 2 else "SELL",
        "idea_type": "Leverage" if n % 3 else "Exchange",
        "pair": f"BYT{n}/USD",
        "time_frame": "4H",
        "entry1": "1.0850",
        "invalidation_level": "1.0795",
        "exit1": "1.0910",
    }


def _verification(idea_id: int, educator_id: int) -> IdeaVerification:
    receipt = {
        "step": "triggered",
        "at": "2100-01-02T03:05:00.250000Z",
        "granularity": "1s",
        "candleTime": "2100-01-02T03:05:00Z",
        "open": "1.0851",
        "high": "1.0852",
        "low": "1.0849",
        "close": "1.0850",
        "side": "ask",
        "price": "1.0850",
    }
    return IdeaVerification(
        idea_id=idea_id,
        educator_id=educator_id,
        feed="oanda",
        symbol="BYT2_USD",
        state="settled",
        done=True,
        outcome="exit1",
        r_multiple=1.09,
        settlement_price="1.0912",
        triggered_at=T0 + timedelta(minutes=1),
        settled_at=T0 + timedelta(hours=2, microseconds=7),
        mae_r=-0.25,
        mfe_r=1.09,
        reason=None,
        receipts=[receipt],
        progress={},
        levels={},
        published_at=T0,
        levels_fixed=True,
        educator_outcome="exit2",
    )


@pytest.fixture
async def seeded(app: FastAPI) -> AsyncIterator[Seeded]:
    """Ideas covering every field and format, by a seeded educator and by one without name, slug or specialty."""
    async with app.state.db.sessionmaker() as s, s.begin():
        nameless = User(
            email="bytes.educator@example.com",
            password_hash="x",
            role=Role.EDUCATOR,
            avatar_path="avatar-bytes.jpg",
        )
        s.add(nameless)
        await s.flush()
        media = [
            MediaFile(
                owner_id=nameless.id, file_name="bytes-card-1.jpg", full_file_name="bytes-full-1.jpg", width=8, height=8
            ),
            MediaFile(owner_id=nameless.id, file_name="bytes-card-2.jpg", width=8, height=8),
            MediaFile(
                owner_id=nameless.id, file_name="bytes-card-3.jpg", full_file_name="bytes-full-3.jpg", width=8, height=8
            ),
        ]
        s.add_all(media)
        setup = IdeaSetup(
            educator_id=nameless.id, name='Breakout \u00e9 "retest"', description="Old ceiling, new floor"
        )
        s.add(setup)
        await s.flush()
        ideas = [
            # Everything set: two entries, three exits, notes, video, audio, edited after publish, microseconds.
            TradeIdea(
                educator_id=nameless.id,
                market_type="Forex",
                market="forex",
                **_level_fields(1),
                entry2="1.0840",
                exit2="1.0950",
                exit3="1.1000",
                notes='Line one\nline "two" \u00e9 \u2603',
                setup_id=setup.id,
                reason='Why "this" \u00e9\nsecond line',
                lesson_what_happened='It "ran" \u00e9\nthen stalled',
                lesson_text="Trail the stop \u2603",
                lesson_at=T0 + timedelta(hours=3, microseconds=5),
                lesson_updated_at=T0 + timedelta(hours=3, minutes=2, microseconds=9),
                video_url="https://youtu.be/abc",
                audio_url="/media/voice.m4a",
                edited=True,
                edited_after_publish=True,
                created_at=T0 + timedelta(microseconds=123456),
                updated_at=T0 + timedelta(minutes=20, microseconds=1),
            ),
            # Completed successfully with an R multiple, closed at a whole second.
            TradeIdea(
                educator_id=nameless.id,
                market_type="Forex",
                market="forex",
                **_level_fields(2),
                status="successful",
                completed=True,
                outcome="exit2",
                r_multiple=2.0,
                closed_at=T0 + timedelta(hours=5),
                created_at=T0,
                updated_at=T0 + timedelta(hours=5),
            ),
            # Same created_at as the one above (the cursor must break the tie on id); a manual close at a price.
            TradeIdea(
                educator_id=nameless.id,
                market_type="Crypto",
                market="crypto",
                **_level_fields(3),
                status="unsuccessful",
                completed=True,
                outcome="manual",
                close_price="1.0801",
                r_multiple=-0.37,
                closed_at=T0 + timedelta(hours=6, microseconds=500),
                created_at=T0,
                updated_at=T0,
            ),
            # Invalidated: open, with an outcome but no R.
            TradeIdea(
                educator_id=nameless.id,
                market_type="Forex",
                market="forex",
                **_level_fields(4),
                status="invalidated",
                outcome="not_triggered",
                closed_at=T0 - timedelta(seconds=1),
                created_at=T0 - timedelta(minutes=1, microseconds=10),
                updated_at=T0 - timedelta(seconds=1),
            ),
            # Open and unseen by the reader (after its watermark): the NEW one, now that invalidated ideas never are.
            TradeIdea(
                educator_id=nameless.id,
                market_type="Forex",
                market="forex",
                **_level_fields(7),
                created_at=T0 - timedelta(seconds=30),
                updated_at=T0 - timedelta(seconds=30),
            ),
            # Pending (reset), crypto, listed by the seeded educator.
            TradeIdea(
                educator_id=EDUCATOR_A_ID,
                market_type="Crypto",
                market="crypto",
                **_level_fields(5),
                status="pending",
                created_at=T0 - timedelta(minutes=2),
                updated_at=T0 - timedelta(minutes=2),
            ),
            # SPX: listed under forex although of the crypto type, by the seeded educator.
            TradeIdea(
                educator_id=EDUCATOR_A_ID,
                market_type="Crypto",
                market="forex",
                **_level_fields(6),
                created_at=T0 - timedelta(minutes=3, microseconds=120000),
                updated_at=T0 - timedelta(minutes=3, microseconds=120000),
            ),
        ]
        s.add_all(ideas)
        await s.flush()
        s.add_all(
            [
                IdeaImage(idea_id=ideas[0].id, position=0, media_id=media[0].id),
                IdeaImage(idea_id=ideas[0].id, position=1, media_id=media[1].id),
                IdeaImage(idea_id=ideas[0].id, position=2, media_id=media[2].id),
                IdeaImage(idea_id=ideas[2].id, position=0, media_id=media[1].id),
            ]
        )
        # A price check that settled (decision 0050): receipts, times with microseconds, a gap fill.
        checked = _verification(ideas[1].id, nameless.id)
        checked.shown = orjson.dumps(price_checks.shown(checked, feed_off=False)).decode()
        s.add(checked)
        # Called versus taken (decision 0056): six members' sums shown, four members' hidden.
        s.add(IdeaTaken(idea_id=ideas[1].id, members=6, slippage_count=6, slippage_sum_r=-1.234,
                        realised_count=3, realised_sum_r=3.3, slippage_median_r=-0.1867,
                        realised_median_r=1.104))  # fmt: skip
        s.add(IdeaTaken(idea_id=ideas[2].id, members=4, slippage_count=4, slippage_sum_r=0.4,
                        realised_count=0, realised_sum_r=0.0, slippage_median_r=0.1))  # fmt: skip
        educator_id, idea_ids, media_ids = nameless.id, [idea.id for idea in ideas], [m.id for m in media]
    component_of(app, IdeaCache).clear()  # inserted behind the app's back: no event dropped its pages
    yield Seeded(educator_id, idea_ids)
    async with app.state.db.sessionmaker() as s, s.begin():
        await s.execute(delete(TradeIdea).where(TradeIdea.id.in_(idea_ids)))
        await s.execute(delete(MediaFile).where(MediaFile.id.in_(media_ids)))
        await s.execute(delete(IdeaSetup).where(IdeaSetup.educator_id == educator_id))
        await s.execute(delete(User).where(User.id == educator_id))
    component_of(app, IdeaCache).clear()


@pytest.fixture
async def reader(app: FastAPI, seeded: Seeded) -> AsyncIterator[httpx.AsyncClient]:
    """A customer with every kind of seen state: a forex watermark, one idea seen, crypto off, an educator muted."""
    client = await customer_client(app, READER, "Byte", "Reader")
    async with app.state.db.sessionmaker() as s, s.begin():
        user_id = (await s.execute(select(User.id).where(User.email == READER))).scalar_one()
        await s.execute(delete(CustomerIdeaState).where(CustomerIdeaState.user_id == user_id))
        await s.execute(delete(MutedEducator).where(MutedEducator.user_id == user_id))
        s.add(CustomerIdeaState(user_id=user_id, forex_seen_until=T0 - timedelta(minutes=2), notify_crypto=False))
        s.add(IdeaView(user_id=user_id, idea_id=seeded.idea_ids[0]))
        s.add(MutedEducator(user_id=user_id, educator_id=3))
    component_of(app, IdeaCache).clear()
    yield client
    await client.aclose()


# ---------------------------------------------------------------- the reference: ORM rows, IdeaOut, orjson


def _encode_cursor(idea: TradeIdea, active: bool) -> str:
    part = "|1" if active and idea.status == IdeaStatus.INVALIDATED else ""
    return base64.urlsafe_b64encode(f"{idea.created_at.isoformat()}|{idea.id}{part}".encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, int, int]:
    at, idea_id, *part = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().split("|")
    return datetime.fromisoformat(at).astimezone(UTC), int(idea_id), int(part[0]) if part else 0


async def expected_page(app: FastAPI, params: dict[str, Any], customer_id: int | None) -> bytes:
    limit = int(params.get("limit", 20))
    async with app.state.db.sessionmaker() as db:
        query = select(TradeIdea, User).join(User, User.id == TradeIdea.educator_id)
        if "market" in params:
            query = query.where(TradeIdea.market == params["market"])
        status = params.get("status")
        active = status == "active"
        # The active list: invalidated ideas after every live one, and only for 24 h after they were invalidated.
        invalidated = case((TradeIdea.status == IdeaStatus.INVALIDATED, 1), else_=0)
        if active:
            since = component_of(app, Clock).now() - timedelta(hours=24)
            query = query.where(
                TradeIdea.completed == false(),
                or_(
                    TradeIdea.status != IdeaStatus.INVALIDATED,
                    TradeIdea.closed_at.is_(None),
                    TradeIdea.closed_at > since,
                ),
            )
        elif status == "completed":
            query = query.where(TradeIdea.completed == true())
        elif status == "closed":
            query = query.where(TradeIdea.closed_at.is_not(None))
        elif status is not None:
            query = query.where(TradeIdea.status == status)
        if "ideaType" in params:
            query = query.where(TradeIdea.idea_type == params["ideaType"].capitalize())
        if "educatorId" in params:
            query = query.where(TradeIdea.educator_id == int(params["educatorId"]))
        if "cursor" in params:
            at, last_id, group = _decode_cursor(params["cursor"])
            after = or_(TradeIdea.created_at < at, and_(TradeIdea.created_at == at, TradeIdea.id < last_id))
            if active:
                query = query.where(or_(invalidated > group, and_(invalidated == group, after)))
            else:
                query = query.where(TradeIdea.created_at <= at, after)
        newest_first = (TradeIdea.created_at.desc(), TradeIdea.id.desc())
        query = query.order_by(*((invalidated, *newest_first) if active else newest_first)).limit(limit + 1)
        rows = [(idea, user) for idea, user in (await db.execute(query)).all()]
        next_cursor = _encode_cursor(rows[limit - 1][0], active) if len(rows) > limit else None
        rows = rows[:limit]
        items = [await _expected_item(db, idea, educator, customer_id) for idea, educator in rows]
    return orjson.dumps({"items": items, "nextCursor": next_cursor, "lockedEducators": 0})  # readers with access


async def _expected_item(db: Any, idea: TradeIdea, educator: User, customer_id: int | None) -> dict[str, Any]:
    pictures = (
        (
            await db.execute(
                select(MediaFile)
                .join(IdeaImage, IdeaImage.media_id == MediaFile.id)
                .where(IdeaImage.idea_id == idea.id)
                .order_by(IdeaImage.position)
            )
        )
        .scalars()
        .all()
    )
    is_new = None
    if customer_id is not None:
        marks = await _expected_marks(db, customer_id)
        # Invalidated ideas are never NEW (issue #26), like completed ones.
        never_new = idea.completed or idea.status == IdeaStatus.INVALIDATED
        is_new = marks.is_new(idea.id, idea.market, idea.created_at, never_new, idea.educator_id)
    urls = [media_url(m.file_name) for m in pictures]
    return IdeaOut(
        id=idea.id,
        educator_id=idea.educator_id,
        educator_name=educator.display_name,
        educator_slug=educator.slug,
        educator_image=educator.avatar_url,
        specialty=educator.specialty,
        pair=idea.pair,
        time_frame=idea.time_frame,
        order_type=idea.order_type,
        idea_type=idea.idea_type,
        market_type=idea.market_type,
        market=idea.market,
        entry1=idea.entry1,
        entry2=idea.entry2,
        invalidation_level=idea.invalidation_level,
        exit1=idea.exit1,
        exit2=idea.exit2,
        exit3=idea.exit3,
        notes=idea.notes,
        setup_id=idea.setup_id,
        setup_name=None if idea.setup_id is None else (await db.get(IdeaSetup, idea.setup_id)).name,
        reason=idea.reason,
        status=idea.status,
        completed=idea.completed,
        image_ids=[m.id for m in pictures],
        image_urls=urls,
        image_full_urls=[media_url(m.full_file_name or m.file_name) for m in pictures],
        chart_url=urls[0] if urls else None,
        video_url=idea.video_url,
        audio_url=idea.audio_url,
        created_at=idea.created_at,
        updated_at=idea.updated_at,
        edited=idea.edited,
        edited_after_publish=idea.edited_after_publish,
        outcome=idea.outcome,
        close_price=idea.close_price,
        closed_at=idea.closed_at,
        r_multiple=idea.r_multiple,
        # Its lesson, correctable for 15 minutes from when it was first written.
        lesson=None
        if idea.lesson_at is None
        else LessonOut(
            what_happened=idea.lesson_what_happened,
            lesson=idea.lesson_text,
            updated_at=idea.lesson_updated_at,
            fixed_at=idea.lesson_at + timedelta(minutes=15),
        ),
        # 15 minutes to correct, after publishing and after recording a result.
        identity_fixed_at=idea.created_at + timedelta(minutes=15),
        result_fixed_at=None if idea.closed_at is None else idea.closed_at + timedelta(minutes=15),
        is_new=is_new,
        verification=await _expected_verification(db, idea.id),
        taken=await _expected_taken(db, idea.id),
    ).model_dump(mode="json", by_alias=True)


async def _expected_taken(db: Any, idea_id: int) -> Taken | None:
    row = await db.get(IdeaTaken, idea_id)
    if row is None or row.members < 5:
        return None
    return Taken(
        count=row.members,
        # The idea shows the members' medians (decision 0101).
        average_entry_slippage_r=None if row.slippage_median_r is None else round(row.slippage_median_r, 2),
        average_realised_r=None if row.realised_median_r is None else round(row.realised_median_r, 2),
    )


async def _expected_verification(db: Any, idea_id: int) -> Verification | None:
    row = await db.get(IdeaVerification, idea_id)
    if row is None:
        return None
    return Verification(
        state=row.state,
        outcome=row.outcome,
        r_multiple=row.r_multiple,
        settlement_price=row.settlement_price,
        triggered_at=row.triggered_at,
        settled_at=row.settled_at,
        mae_r=row.mae_r,
        mfe_r=row.mfe_r,
        feed=row.feed,
        symbol=row.symbol,
        reason=row.reason,
        receipts=[ReceiptOut.model_validate(r) for r in row.receipts],
        agrees=row.outcome == row.educator_outcome,
    )


async def _expected_marks(db: Any, user_id: int) -> SeenMarks:
    state = await db.get(CustomerIdeaState, user_id)
    viewed = (await db.execute(select(IdeaView.idea_id).where(IdeaView.user_id == user_id))).scalars()
    muted = (await db.execute(select(MutedEducator.educator_id).where(MutedEducator.user_id == user_id))).scalars()
    return SeenMarks(
        forex_until=state.forex_seen_until if state else None,
        crypto_until=state.crypto_seen_until if state else None,
        idea_ids=frozenset(viewed),
        notify_forex=state is None or state.notify_forex,
        notify_crypto=state is None or state.notify_crypto,
        muted_educators=frozenset(muted),
    )


# ---------------------------------------------------------------- the comparison


def _queries(seeded: Seeded) -> list[dict[str, Any]]:
    return [
        {"market": "forex", "status": "active", "limit": 100},
        {"market": "crypto", "status": "active", "limit": 100},
        {"market": "forex", "status": "completed", "limit": 100},
        {"market": "forex", "ideaType": "exchange", "status": "completed"},
        {"status": "closed", "limit": 100},
        {"status": "invalidated"},
        {"educatorId": seeded.educator_id},
        {"educatorId": EDUCATOR_A_ID, "market": "forex"},
        {},
    ]


async def _assert_same_bytes(app: FastAPI, client: httpx.AsyncClient, seeded: Seeded, customer_id: int | None) -> None:
    for params in _queries(seeded):
        for _ in range(2):  # the second answer may come from the caches
            r = await client.get("/api/trade-ideas", params=params)
            assert r.status_code == 200, r.text
            assert r.content == await expected_page(app, params, customer_id), params
    # Cursor pages of two, through ideas sharing a created_at, to the end of the educator's list.
    page_params: dict[str, Any] = {"educatorId": seeded.educator_id, "limit": 2}
    pages = 0
    while True:
        r = await client.get("/api/trade-ideas", params=page_params)
        assert r.content == await expected_page(app, page_params, customer_id), page_params
        pages += 1
        cursor = r.json()["nextCursor"]
        if cursor is None:
            break
        page_params = {**page_params, "cursor": cursor}
    assert pages == 3
    # A single idea is presented the same way as in the list.
    for educator_id in (seeded.educator_id, EDUCATOR_A_ID):
        listed = orjson.loads(await expected_page(app, {"educatorId": educator_id, "limit": 100}, customer_id))
        for item in listed["items"]:
            if item["id"] in seeded.idea_ids:
                r = await client.get(f"/api/trade-ideas/{item['id']}")
                assert r.content == orjson.dumps(item)


@pytest.fixture(params=["cached", "uncached"])
def caches(request: pytest.FixtureRequest, app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways a list is answered: from the caches, and as with CACHE_ENTRIES=0 (every request reads)."""
    if request.param == "uncached":
        for cache in (component_of(app, IdeaCache), component_of(app, SessionCache)):
            cache.clear()
            monkeypatch.setattr(cache, "_enabled", False)
    return str(request.param)


async def test_customer_list_bytes_match_the_presented_ideas(
    app: FastAPI, seeded: Seeded, reader: httpx.AsyncClient, caches: str
) -> None:
    async with app.state.db.sessionmaker() as s:
        reader_id = (await s.execute(select(User.id).where(User.email == READER))).scalar_one()
    await _assert_same_bytes(app, reader, seeded, reader_id)
    # The fixture's ideas show every kind of NEW flag.
    active = (await reader.get("/api/trade-ideas", params={"educatorId": seeded.educator_id})).json()["items"]
    assert {item["isNew"] for item in active} == {True, False}


async def test_educator_list_bytes_match_the_presented_ideas(
    app: FastAPI, seeded: Seeded, educator_a: httpx.AsyncClient, caches: str
) -> None:
    await _assert_same_bytes(app, educator_a, seeded, None)


async def test_reference_covers_every_field(app: FastAPI, seeded: Seeded) -> None:
    """Every field of IdeaOut takes a non-null value somewhere in the fixture, so none goes unchecked."""
    items = [
        item
        for educator_id in (seeded.educator_id, EDUCATOR_A_ID)
        for item in orjson.loads(await expected_page(app, {"educatorId": educator_id, "limit": 100}, None))["items"]
    ]
    fields = {field.alias for field in IdeaOut.model_fields.values()} - {"isNew"}
    filled = {key for item in items for key, value in item.items() if value not in (None, [], "")}
    assert fields <= filled, fields - filled


def test_the_list_builds_ideas_by_their_field_names_only() -> None:
    """The list writes no camelCase name of its own: `shown_idea` keys each field by its Python name, and the
    model alone turns them into the API's names (a field added to `IdeaOut` and not read here fails too)."""

    class Row(dict[str, Any]):
        def __missing__(self, key: str) -> Any:
            return None

    row = Row(created_at=T0, first_name="Alex", last_name="Morgan", role="educator", lesson_at=T0)
    shown = shown_idea(row, NO_PICTURES, None)
    assert set(shown) == set(IdeaOut.model_fields)
    assert set(shown["lesson"]) == set(LessonOut.model_fields)
    assert set(shown_taken(5, 0.1, None) or {}) == set(Taken.model_fields)
