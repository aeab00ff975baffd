"""Exactness of track records: drawdown and curve in closing order, not-triggered ideas listed, and the stored
totals equal to a recomputation from the ideas after any sequence of completes, reopens, edits and deletes."""

import csv
import io
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from tests.trackrecords.test_track_records_api import FIGURES, buy, complete, record
from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.desk.service import Followers
from tradeideas.ideas.models import TradeIdea
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.schemas import VerifiedFigures
from tradeideas.trackrecords import figures
from tradeideas.trackrecords.cache import FOLLOWERS, VERIFIED, TrackRecordCache, Walk, part_key, record_key, summary_key
from tradeideas.trackrecords.figures import STORED_GROUPINGS, Book, Tally, total_rows
from tradeideas.trackrecords.models import TrackRecordTotal
from tradeideas.trackrecords.service import (
    RecordFilter,
    followers_of,
    refresh_totals,
    track_record_json,
    verified_of,
)

IDENTITY = {"marketType", "pair", "orderType", "ideaType", "timeFrame"}
CRYPTO = {"pair": "BTC/USDT", "marketType": "Crypto", "entry1": "100", "invalidationLevel": "90", "exit1": "120"}


def _at(json_time: str) -> datetime:
    return datetime.fromisoformat(json_time.replace("Z", "+00:00"))


async def test_drawdown_and_curve_follow_closing_order_across_groups(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    # Forex -1, crypto +2, forex -1 on one day: cumulative R -1, +1, 0, so the largest fall is 1 R
    # (combining each group's day first made it 2: forex alone falls from 0 to -2).
    ideas = [await buy(educator_a, tf), await buy(educator_a, tf, **CRYPTO), await buy(educator_a, tf)]
    for idea, status in zip(ideas, ("unsuccessful", "successful", "unsuccessful"), strict=True):
        clock.advance(timedelta(minutes=1))
        await complete(educator_a, idea, status=status)
    got = await record(customer, timeFrame=tf)
    assert (got["totalR"], got["maxDrawdownR"]) == (0.0, 1.0)
    assert [p["cumulativeR"] for p in got["equityCurve"]] == [-1.0, 1.0, 0.0]
    moments = [p["at"] for p in got["equityCurve"]]
    assert moments == sorted(moments)
    closed = [(await customer.get(f"/api/trade-ideas/{i['id']}")).json()["closedAt"] for i in ideas]
    assert [m.replace("Z", "+00:00") for m in moments] == [c.replace("Z", "+00:00") for c in closed]
    by_market = {g["key"]: g["maxDrawdownR"] for g in got["byMarket"]}
    assert by_market == {"crypto": 0.0, "forex": 2.0}
    # A re-graded earlier idea changes the curve from that point on, in place.
    await complete(educator_a, ideas[0], status="successful")  # -1 -> +2
    again = await record(customer, timeFrame=tf)
    assert [p["cumulativeR"] for p in again["equityCurve"]] == [2.0, 4.0, 3.0]
    assert again["maxDrawdownR"] == 1.0


async def test_not_triggered_ideas_are_listed_with_the_completed_ones(
    educator_b: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    won = await complete(educator_b, await buy(educator_b, tf), status="successful")
    skipped = await complete(educator_b, await buy(educator_b, tf), status="invalidated")
    await buy(educator_b, tf)  # open: not listed
    page = (await customer.get("/api/trade-ideas", params={"educatorId": 2, "status": "closed", "limit": 100})).json()
    mine = [i for i in page["items"] if i["timeFrame"] == tf]
    assert [(i["id"], i["outcome"], i["rMultiple"]) for i in mine] == [
        (skipped["id"], "not_triggered", None),
        (won["id"], "exit1", 2.0),
    ]
    rows = [
        r for r in csv.DictReader(io.StringIO((await customer.get("/api/educators/2/track-record/ideas.csv")).text))
    ]
    assert [(r["outcome"], r["rMultiple"]) for r in rows if r["timeFrame"] == tf] == [
        ("exit1", "2.00"),
        ("not_triggered", ""),
    ]
    assert (await record(customer, 2, timeFrame=tf))["notTriggered"] == 1


async def _stored(app: FastAPI, educator_id: int) -> dict[tuple[str, str], dict[str, Any]]:
    columns = [c.name for c in TrackRecordTotal.__table__.columns]
    async with app.state.db.sessionmaker() as s:
        rows = (await s.execute(select(TrackRecordTotal).where(TrackRecordTotal.educator_id == educator_id))).scalars()
        return {(r.grouping, r.key): {c: getattr(r, c) for c in columns} for r in rows}


async def _recomputed(app: FastAPI, educator_id: int) -> dict[tuple[str, str], dict[str, Any]]:
    async with app.state.db.sessionmaker() as s:
        ideas = (
            await s.execute(
                select(TradeIdea)
                .where(TradeIdea.educator_id == educator_id, TradeIdea.closed_at.is_not(None))
                .order_by(TradeIdea.closed_at, TradeIdea.id)
            )
        ).scalars()
        book = Book(STORED_GROUPINGS)
        for i in ideas:
            assert i.closed_at is not None
            book.add(i.id, i.market, i.idea_type, i.time_frame, i.status, i.r_multiple, i.closed_at)
    return {(r["grouping"], r["key"]): r for r in total_rows(educator_id, book)}


async def _walked_afresh(app: FastAPI, customer: httpx.AsyncClient, educator_id: int, tf: str) -> dict[str, Any]:
    """The record as sent, built by a cache that keeps nothing (so no kept walk either)."""
    nothing_kept = TrackRecordCache(0, 60, live=lambda: True)
    body = await track_record_json(app.state.db, nothing_kept, educator_id, RecordFilter(time_frame=tf))
    data: dict[str, Any] = json.loads(body)
    return data


def _same(stored: dict[tuple[str, str], dict[str, Any]], fresh: dict[tuple[str, str], dict[str, Any]]) -> None:
    assert stored.keys() == fresh.keys()
    for key, row in fresh.items():
        for column, value in row.items():
            if isinstance(value, float):
                assert stored[key][column] == pytest.approx(value, abs=1e-9), (key, column)
            else:
                assert stored[key][column] == value, (key, column)


OUTCOMES = [
    {"status": "successful"},
    {"status": "successful", "outcome": "exit2"},
    {"status": "unsuccessful"},
    {"status": "invalidated"},
    {"status": "successful", "outcome": "manual", "closePrice": "104.5"},
    {"status": "unsuccessful", "outcome": "manual", "closePrice": "93"},
]


async def test_stored_totals_equal_a_recomputation_after_any_changes(
    app: FastAPI,
    educator_a: httpx.AsyncClient,
    customer: httpx.AsyncClient,
    clock: Clock,
    tf: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A sparkline of 3 points, so ideas added at the end thin it out several times during the walk.
    monkeypatch.setattr(figures, "SPARKLINE_POINTS", 3)
    async with app.state.db.sessionmaker() as s, s.begin():
        await refresh_totals(s, 1)
    rng = random.Random(10)
    ideas: list[dict[str, Any]] = []
    closed: dict[int, dict[str, Any]] = {}  # idea id -> the body that recorded its current result
    shown: dict[int, dict[str, Any]] = {}  # idea id -> the idea as the server last returned it
    window = timedelta(minutes=15)
    seen: set[str] = set()  # which of the rules' branches the walk went through
    for step in range(60):
        action = rng.choice(["publish", "publish", "complete", "complete", "regrade", "reopen", "edit", "delete"])
        if action == "publish" or not ideas:
            idea = await buy(educator_a, tf, **(CRYPTO if rng.random() < 0.4 else {}))
            ideas.append(idea)
            shown[idea["id"]] = idea
        elif action in ("complete", "regrade", "reopen"):
            pool = [i for i in ideas if (i["id"] in closed) == (action != "complete")]
            if not pool:
                continue
            idea_id = rng.choice(pool)["id"]
            body = {"status": "pending"} if action == "reopen" else rng.choice(OUTCOMES)
            r = await educator_a.put(f"/api/trade-ideas/{idea_id}", json=body)
            recorded_at = shown[idea_id]["closedAt"]
            fixed = recorded_at is not None and clock.now() > _at(recorded_at) + window
            if fixed and body != closed.get(idea_id):
                # A result older than the correction window stays as it is.
                assert (r.status_code, r.json()["code"]) == (409, "result_fixed"), r.text
                seen.add("result fixed")
                continue
            if recorded_at is not None:
                seen.add("result corrected")
            assert r.status_code == 200, r.text
            shown[idea_id] = r.json()
            if action == "reopen":
                del closed[idea_id]
            else:
                closed[idea_id] = body
        elif action == "edit":
            # Within the window the levels count; after it they show but R stays. Moving an idea to the other
            # market moves it between groups within the window; after it the idea's identity stays.
            idea = rng.choice(ideas)
            forex = {"pair": "EUR/USD", "marketType": "Forex"}
            kind = {"ideaType": rng.choice(["Leverage", "Exchange"])}
            change = rng.choice([{"invalidationLevel": "95"}, {"exit1": "140"}, CRYPTO, forex, kind])
            before = shown[idea["id"]]
            r = await educator_a.patch(f"/api/trade-ideas/{idea['id']}", json=change)
            moves = any(k in IDENTITY and before[k] != v for k, v in change.items())
            if moves and clock.now() > _at(before["createdAt"]) + window:
                assert (r.status_code, r.json()["code"]) == (409, "identity_fixed"), r.text
                seen.add("identity fixed")
                continue
            if moves:
                seen.add("identity corrected")
            assert r.status_code == 200, r.text
            shown[idea["id"]] = r.json()
        elif action == "delete":
            idea = rng.choice(ideas)
            r = await educator_a.delete(f"/api/trade-ideas/{idea['id']}")
            assert r.status_code == (409 if idea["id"] in closed else 204), r.text
            if r.status_code == 204:
                ideas.remove(idea)
        clock.advance(timedelta(minutes=rng.choice([0, 1, 7, 16])))
        _same(await _stored(app, 1), await _recomputed(app, 1))
        # The record a customer reads (its walk kept and extended across completions) equals one walked afresh.
        assert await record(customer, 1, timeFrame=tf) == await _walked_afresh(app, customer, 1, tf)
        if step % 8 == 7:
            # What customers see: the list (stored rows) and the record (computed per request) agree.
            listed = next(
                s for s in (await customer.get("/api/educators/track-records")).json() if s["educator"]["id"] == 1
            )
            full = await record(customer, 1)
            assert {k: listed[k] for k in FIGURES} == {k: full[k] for k in FIGURES}
    assert closed, "the walk completed some ideas"
    assert seen == {"result fixed", "result corrected", "identity fixed", "identity corrected"}
    monkeypatch.undo()
    async with app.state.db.sessionmaker() as s, s.begin():
        await refresh_totals(s, 1)


async def test_a_kept_walk_is_extended_after_a_completion_and_walked_again_after_a_correction(
    app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, clock: Clock, tf: str
) -> None:
    cache = component_of(app, TrackRecordCache)
    first, second = await buy(educator_a, tf), await buy(educator_a, tf)
    await complete(educator_a, first, status="successful")
    assert (await record(customer, 1, timeFrame=tf))["wins"] == 1
    key = record_key(1, RecordFilter(time_frame=tf))
    kept = cache.walk(key)
    assert kept is not None and kept.rewrite_token is not None
    # A marker only the kept walk carries: one more win than the ideas hold.
    marked = kept.book.copy()
    marked.whole = Tally(**{**marked.whole.values(), "wins": marked.whole.wins + 1})
    cache.keep_walk(key, Walk(kept.rewrite_token, marked, kept.statistics))

    clock.advance(timedelta(minutes=1))
    await complete(educator_a, second, status="unsuccessful")  # closes after all the others: added in place
    extended = await record(customer, 1, timeFrame=tf)
    assert (extended["wins"], extended["losses"]) == (2, 1), "the kept walk was extended, not walked again"

    await complete(educator_a, first, status="unsuccessful")  # a counted idea corrected: the totals are rewritten
    again = await record(customer, 1, timeFrame=tf)
    assert (again["wins"], again["losses"]) == (0, 2)
    assert again == await _walked_afresh(app, customer, 1, tf)


async def test_the_educators_list_builds_again_only_the_summary_of_the_educator_who_changed(
    app: FastAPI, educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    cache = component_of(app, TrackRecordCache)
    first = await customer.get("/api/educators/track-records")
    by_id = {s["educator"]["id"]: s for s in first.json()}
    kept = cache.answer(summary_key(2))
    assert kept is not None and json.loads(kept) == by_id[2]
    # A marker only educator 2's kept part carries.
    marked = {**by_id[2], "wins": by_id[2]["wins"] + 1000}
    cache.put(summary_key(2), json.dumps(marked, separators=(",", ":")).encode(), cache.generation_of(summary_key(2)))

    await complete(educator_a, await buy(educator_a, tf), status="successful")
    listed = {s["educator"]["id"]: s for s in (await customer.get("/api/educators/track-records")).json()}
    assert listed[1]["wins"] == by_id[1]["wins"] + 1  # educator 1's part built again
    assert listed[2]["wins"] == by_id[2]["wins"] + 1000  # educator 2's part kept
    assert [s["educator"]["id"] for s in (await customer.get("/api/educators/track-records")).json()] == [
        s["educator"]["id"] for s in first.json()
    ]

    await complete(educator_b, await buy(educator_b, tf), status="unsuccessful")  # now educator 2 changed
    listed = {s["educator"]["id"]: s for s in (await customer.get("/api/educators/track-records")).json()}
    assert (listed[2]["wins"], listed[2]["losses"]) == (by_id[2]["wins"], by_id[2]["losses"] + 1)


async def _summary(customer: httpx.AsyncClient, educator_id: int) -> dict[str, Any]:
    listed = (await customer.get("/api/educators/track-records")).json()
    found: dict[str, Any] = next(s for s in listed if s["educator"]["id"] == educator_id)
    return found


async def _counted_afresh(app: FastAPI, educator_id: int) -> dict[str, Any]:
    """The summary's verified figures and followers as the database counts them now (no cache)."""
    async with app.state.db.sessionmaker() as s:
        (verified, agreement), followers = (
            (await verified_of(s, [educator_id]))[educator_id],
            (await followers_of(s, [educator_id]))[educator_id],
        )
    return {
        "verified": verified.model_dump(mode="json", by_alias=True),
        "agreementRate": agreement,
        "followersCount": followers.members,
        "followersAverageR": followers.average_r,
    }


def _shown(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: summary[k] for k in ("verified", "agreementRate", "followersCount", "followersAverageR")}


async def test_a_completion_reuses_the_verified_figures_and_followers_and_their_own_changes_count_them_again(
    app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, tf: str
) -> None:
    cache = component_of(app, TrackRecordCache)
    checked, plain, other, gone = [await buy(educator_a, tf) for _ in range(4)]
    async with app.state.db.sessionmaker() as s, s.begin():
        s.add(
            IdeaVerification(
                idea_id=checked["id"], educator_id=1, feed="oanda", symbol="EURUSD", state="settled", done=True,
                outcome="exit1", r_multiple=2.0, settled_at=datetime.now(UTC), receipts=[], progress={}, levels={},
                published_at=datetime.now(UTC), levels_fixed=True, educator_outcome=None,
            )
        )  # fmt: skip
    cache.drop_all()  # written behind the events' back
    assert _shown(await _summary(customer, 1)) == await _counted_afresh(app, 1)

    def mark() -> None:
        """Markers only the kept parts carry: a thousand more settled checks and followers than there are."""
        key = part_key(VERIFIED, 1)
        figures_, agreement = cast(tuple[VerifiedFigures, float | None], cache.part(key))
        cache.keep_part(key, (figures_.model_copy(update={"settled": figures_.settled + 1000}), agreement),
                        cache.generation_of(key))  # fmt: skip
        key = part_key(FOLLOWERS, 1)
        followers = cast(Followers, cache.part(key))
        cache.keep_part(key, followers._replace(members=followers.members + 1000), cache.generation_of(key))

    afresh = await _counted_afresh(app, 1)
    mark()
    await complete(educator_a, plain, status="successful")  # no price check of its own: neither part changes
    after = await _summary(customer, 1)
    assert after["wins"] >= 1 and after["verified"]["settled"] == afresh["verified"]["settled"] + 1000
    assert after["followersCount"] == afresh["followersCount"] + 1000

    await complete(educator_a, checked, status="successful")  # the educator's call beside a checked idea
    after = await _summary(customer, 1)
    assert after["verified"] == (await _counted_afresh(app, 1))["verified"], "verified figures counted again"
    assert after["agreementRate"] == (await _counted_afresh(app, 1))["agreementRate"]
    assert after["followersCount"] == afresh["followersCount"] + 1000, "followers still kept"

    mark()
    taken = await customer.post("/api/me/journal", json={"ideaId": other["id"], "fillPrice": 100, "size": 1})
    assert taken.status_code == 201, taken.text
    after = await _summary(customer, 1)
    assert after["followersCount"] == (await _counted_afresh(app, 1))["followersCount"], "followers counted again"
    assert after["verified"]["settled"] == afresh["verified"]["settled"] + 1000, "verified figures still kept"

    mark()
    assert (await educator_a.delete(f"/api/trade-ideas/{gone['id']}")).status_code == 204
    assert _shown(await _summary(customer, 1)) == await _counted_afresh(app, 1), "a deletion counts both again"
    entries = (await customer.get("/api/me/journal")).json()["entries"]
    for entry in entries:
        if entry.get("ideaId") == other["id"]:
            assert (await customer.delete(f"/api/me/journal/{entry['id']}")).status_code == 204
