"""The ledger: every change that shapes the record appends one hash-chained entry in its own transaction, the chain
recomputes from its documented form alone, and `verify-ledger` names what was changed behind the app's back."""

import asyncio
import hashlib
import itertools
import json
from datetime import timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import delete, inspect, select, update

from tests.conftest import CUSTOMER, login_client, make_client
from tradeideas.core.clock import Clock
from tradeideas.core.deps import component_of
from tradeideas.db import utcnow
from tradeideas.ideas.commands import set_status
from tradeideas.ideas.models import TradeIdea
from tradeideas.ledger import service
from tradeideas.ledger.chain import canonical, format_at
from tradeideas.ledger.models import LedgerDay, LedgerEntry
from tradeideas.ledger.verify import verify
from tradeideas.prices.events import IdeaPriceChecked
from tradeideas.realtime.service import publish

# The ledger's database holds the full demo, where educator1 keeps setups (written first: ids 1-3), so each idea
# names one and says why; both are identity fields of the ledger's payload (decision 0170).
TEACHER_SETUP_ID = 1
IDEA = {
    "setupId": TEACHER_SETUP_ID,
    "reason": "Retest of the broken weekly level.",
    "marketType": "Forex",
    "orderType": "BUY",
    "ideaType": "Leverage",
    "pair": "EUR/CHF",
    "timeFrame": "4H",
    "entry1": "0.9400",
    "invalidationLevel": "0.9350",
    "exit1": "0.9500",
}


def documented_hash(entry: dict[str, Any]) -> str:
    """The issue's definition, written out again here without the app's code: SHA-256 hex of prevHash, a newline
    and the entry without `hash` as RFC 8785 JSON (for these ASCII keys and string values: sorted keys, no spaces,
    UTF-8, and integers as plain decimals)."""
    body = {k: v for k, v in entry.items() if k != "hash"}
    text_form = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((entry["prevHash"] + "\n" + text_form).encode("utf-8")).hexdigest()


async def whole_ledger(client: httpx.AsyncClient, limit: int = 7) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        r = await client.get("/api/proof/ledger", params={"after": after, "limit": limit})
        assert r.status_code == 200, r.text
        entries += r.json()["entries"]
        after = r.json()["nextAfter"]
    return entries


async def test_changes_append_entries_that_recompute_from_the_documented_form(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    clock = component_of(ledger_app, Clock)
    created = (await teacher.post("/api/trade-ideas", json=IDEA)).json()
    idea_id = created["id"]
    assert (await teacher.patch(f"/api/trade-ideas/{idea_id}", json={"exit1": "0.9520"})).status_code == 200
    assert (await teacher.patch(f"/api/trade-ideas/{idea_id}", json={"notes": "London open"})).status_code == 200
    clock.advance(timedelta(hours=1))
    try:
        r = await teacher.put(f"/api/trade-ideas/{idea_id}", json={"status": "successful"})
        assert r.status_code == 200, r.text
        other = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "EUR/SEK"})).json()["id"]
        clock.advance(timedelta(hours=1))  # after the correction window: a delete that stays counted
        assert (await teacher.delete(f"/api/trade-ideas/{other}")).status_code in (200, 204)
    finally:
        clock.reset()

    member = await login_client(ledger_app, CUSTOMER)
    entries = await whole_ledger(member)
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    assert entries[0]["prevHash"] == "0" * 64
    for before, entry in zip([None, *entries], entries, strict=False):
        assert entry["hash"] == documented_hash(entry)
        if before is not None:
            assert entry["prevHash"] == before["hash"]
        assert all(v is None or isinstance(v, str) for v in entry["payload"].values())  # numbers as strings

    mine = [(e["kind"], e["payload"]) for e in entries if e["subjectId"] == idea_id]
    # The notes edit shapes nothing in the record: no entry.
    assert [k for k, _ in mine] == ["idea.published", "idea.edited", "idea.result"]
    assert mine[0][1]["exit1"] == "0.9500" and mine[1][1]["exit1"] == "0.9520"
    assert mine[2][1] | {} == {
        **mine[1][1],
        "status": "successful",
        "outcome": "exit1",
        "closePrice": None,
        "rMultiple": mine[2][1]["rMultiple"],
        "closedAt": mine[2][1]["closedAt"],
    }
    assert mine[0][1]["closedAt"] is None and mine[2][1]["closedAt"] is not None
    assert mine[2][1]["createdAt"] == mine[0][1]["createdAt"] is not None
    assert mine[2][1]["rMultiple"] == "2.40"  # (0.9520 - 0.9400) / (0.9400 - 0.9350), as stored
    gone = [(e["kind"], e["payload"]["status"]) for e in entries if e["subjectId"] == other]
    assert gone == [("idea.published", "active"), ("idea.deleted", "deleted")]

    anyone = make_client(ledger_app)
    proof = (await anyone.get("/api/proof")).json()
    assert proof["head"] == {"seq": entries[-1]["seq"], "hash": entries[-1]["hash"]}
    by_seq = {e["seq"]: e for e in entries}
    for day in proof["days"]:
        last = by_seq[day["lastSeq"]]
        assert last["hash"] == day["hash"] and last["at"].startswith(day["date"])
        assert (await anyone.get(f"/api/proof/days/{day['date']}")).json() == day
    assert sum(d["entries"] for d in proof["days"]) == len(entries)
    r = await anyone.get("/api/proof/days/1999-01-01")
    assert r.status_code == 404 and r.json()["code"] == "no_ledger_day"
    assert (await anyone.get("/api/proof/ledger")).status_code == 401
    await member.aclose()
    await anyone.aclose()

    async with ledger_app.state.db.sessionmaker() as s:
        report = await verify(s)
    assert report.intact, report.problems
    assert report.entries == len(entries) and report.head_hash == entries[-1]["hash"]


def test_canonical_json_follows_rfc_8785() -> None:
    assert canonical({"b": "1", "a": None, "c": [True, 2]}) == '{"a":null,"b":"1","c":[true,2]}'
    assert canonical('é\n\u001f"\\') == '"é\\n\\u001f\\"\\\\"'
    # RFC 8785 sorts by UTF-16 code units: U+1F600 (D83D DE00) before U+FF61.
    assert canonical({"\uff61": "1", "\U0001f600": "2"}) == '{"\U0001f600":"2","\uff61":"1"}'
    for number in (1.5, 2**60):
        try:
            canonical({"x": number})
        except (TypeError, ValueError):
            continue
        raise AssertionError(f"{number!r} was accepted")


async def test_append_refuses_numbers_in_a_payload(ledger_app: FastAPI) -> None:
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        try:
            await service.append(s, "idea.price_check", 1, {"price": 1.5}, utcnow())  # type: ignore[dict-item]
        except TypeError as exc:
            assert "price" in str(exc)
        else:
            raise AssertionError("a float went into the ledger")
        await s.rollback()


async def _problems(app: FastAPI) -> list[str]:
    async with app.state.db.sessionmaker() as s:
        return (await verify(s)).problems


async def test_verify_names_an_edited_ledger_row(ledger_app: FastAPI, teacher: httpx.AsyncClient) -> None:
    await teacher.post("/api/trade-ideas", json=IDEA)
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        row = (await s.execute(select(LedgerEntry).where(LedgerEntry.seq == 3))).scalar_one()
        original = row.payload
        row.payload = original.replace('"status":"active"', '"status":"successful"').replace('"exit1":"', '"exit1":"9')
    try:
        problems = await _problems(ledger_app)
        assert problems == ["Ledger entry seq 3 was changed: its hash does not match its content"]
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(update(LedgerEntry).where(LedgerEntry.seq == 3).values(payload=original))
    assert await _problems(ledger_app) == []


async def test_verify_names_an_idea_changed_behind_the_apps_back(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    idea_id = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "GBP/CHF"})).json()["id"]
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        await s.execute(update(TradeIdea).where(TradeIdea.id == idea_id).values(entry1="0.9410"))
    try:
        problems = await _problems(ledger_app)
        assert len(problems) == 1
        assert problems[0].startswith(f"Idea #{idea_id} GBP/CHF differs from the ledger")
        assert "trade_ideas.entry_1 '0.9410' (ledger: '0.9400')" in problems[0]
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(update(TradeIdea).where(TradeIdea.id == idea_id).values(entry1="0.9400"))
    assert await _problems(ledger_app) == []


async def test_the_publish_entry_holds_the_setup_and_reason_and_verify_compares_them(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    """Issue #42: which setup an idea is and why it was taken are identity fields, in the entry of the publish; a
    reason or setup changed behind the app's back is named by verify-ledger like a level."""
    idea_id = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "CHF/SEK"})).json()["id"]
    async with ledger_app.state.db.sessionmaker() as s:
        published = (
            await s.execute(
                select(LedgerEntry.payload).where(
                    LedgerEntry.subject_id == idea_id, LedgerEntry.kind == "idea.published"
                )
            )
        ).scalar_one()
    payload = json.loads(published)
    assert payload["setupId"] == str(TEACHER_SETUP_ID) and payload["reason"] == IDEA["reason"]
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        await s.execute(update(TradeIdea).where(TradeIdea.id == idea_id).values(reason="Changed later.", setup_id=2))
    try:
        problems = await _problems(ledger_app)
        assert len(problems) == 1, problems
        assert "trade_ideas.reason 'Changed later.' (ledger: 'Retest of the broken weekly level.')" in problems[0]
        assert "trade_ideas.setup_id '2' (ledger: '1')" in problems[0]
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(update(TradeIdea).where(TradeIdea.id == idea_id).values(reason=IDEA["reason"], setup_id=1))
    assert await _problems(ledger_app) == []


async def test_verify_names_a_deleted_ledger_row_and_a_deleted_idea(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    idea_id = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "AUD/CHF"})).json()["id"]
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        row = (await s.execute(select(LedgerEntry).where(LedgerEntry.seq == 2))).scalar_one()
        kept = {a.key: getattr(row, a.key) for a in inspect(LedgerEntry).column_attrs}
        await s.execute(delete(LedgerEntry).where(LedgerEntry.seq == 2))
    try:
        assert await _problems(ledger_app) == ["Ledger entry seq 2 is missing (the next one is seq 3)"]
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            s.add(LedgerEntry(**kept))
    assert await _problems(ledger_app) == []

    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        idea = (await s.execute(select(TradeIdea).where(TradeIdea.id == idea_id))).scalar_one()
        saved = {a.key: getattr(idea, a.key) for a in inspect(TradeIdea).column_attrs}
        await s.execute(delete(TradeIdea).where(TradeIdea.id == idea_id))
    try:
        problems = await _problems(ledger_app)
        assert len(problems) == 1 and problems[0].startswith(f"Idea #{idea_id} AUD/CHF is gone without a ledger entry")
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            s.add(TradeIdea(**saved))
    assert await _problems(ledger_app) == []


async def test_concurrent_changes_never_fork_the_chain(ledger_app: FastAPI) -> None:
    """Many transactions append at once (on PostgreSQL each on its own connection): positions stay consecutive
    and every entry follows the one before it. Half of them have begun with a statement of their own, as a change
    does (on PostgreSQL the append then runs on the driver), half append first (through the session): both take
    the same turn."""

    async def one(i: int) -> None:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            if i % 2:
                await s.execute(select(TradeIdea.id).limit(1))  # the change being recorded
            await service.append(s, "idea.price_check", 900_000 + i, {"n": str(i)}, utcnow())
            await asyncio.sleep(0.01)  # hold the turn a moment, so others wait on it

    before = (await service_head(ledger_app))[0]
    await asyncio.gather(*(one(i) for i in range(12)))
    async with ledger_app.state.db.sessionmaker() as s:
        rows = list(
            (await s.execute(select(LedgerEntry).where(LedgerEntry.seq > before).order_by(LedgerEntry.seq))).scalars()
        )
        assert [r.seq for r in rows] == list(range(before + 1, before + 13))
        assert all(b.hash == a.prev_hash for b, a in itertools.pairwise(rows))
    assert await _problems(ledger_app) == []


async def service_head(app: FastAPI) -> tuple[int, str]:
    async with app.state.db.sessionmaker() as s:
        last = await service.head(s)
        return (0, "0" * 64) if last is None else (last.seq, last.hash)


async def _days(app: FastAPI) -> dict[str, tuple[int, int, str]]:
    async with app.state.db.sessionmaker() as s:
        return {
            d.day.isoformat(): (d.last_seq, d.entries, d.hash) for d in (await s.execute(select(LedgerDay))).scalars()
        }


async def test_a_price_check_step_is_an_entry_and_leaves_the_ideas_state_alone(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    """Each step of the independent settlement is appended as `idea.price_check` by the app's own wiring (the
    event the price checks publish in their transaction); the idea's state in the ledger stays its last
    publish, edit or result, so verify-ledger still holds and a later edit compares against that state.

    The step is recorded after its candle, here one from two days ago (a backlog, a restart): its entry is dated
    when it is recorded and carries the candle's time in its payload, so the days that have ended, and the
    fingerprints already posted for them, stay as they were (decision 0070)."""
    idea_id = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "AUD/NZD"})).json()["id"]
    candle = utcnow() - timedelta(days=2, hours=3)
    step = IdeaPriceChecked(
        idea_id=idea_id,
        educator_id=1,
        step="triggered",
        at=candle,
        feed="oanda",
        symbol="AUD_NZD",
        price="0.9400",
        outcome=None,
        r_multiple=None,
    )
    days_before, head_before = await _days(ledger_app), await service_head(ledger_app)
    recorded_from = utcnow()
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        await publish(s, step)
    async with ledger_app.state.db.sessionmaker() as s:
        last = (
            (await s.execute(select(LedgerEntry).where(LedgerEntry.subject_id == idea_id).order_by(LedgerEntry.seq)))
            .scalars()
            .all()
        )
        assert [entry.kind for entry in last] == ["idea.published", "idea.price_check"]
        assert json.loads(last[-1].payload) == {
            "step": "triggered",
            "candleAt": format_at(candle),
            "feed": "oanda",
            "symbol": "AUD_NZD",
            "price": "0.9400",
            "outcome": None,
            "rMultiple": None,
        }
        assert last[-1].seq == head_before[0] + 1
        assert format_at(recorded_from) <= last[-1].at <= format_at(utcnow())
        assert (await service.last_payload(s, idea_id)) == json.loads(last[0].payload)
    days_after = await _days(ledger_app)
    today = last[-1].at[:10]
    assert {d: v for d, v in days_after.items() if d != today} == {d: v for d, v in days_before.items() if d != today}
    assert days_after[today][0] == last[-1].seq
    assert await _problems(ledger_app) == []


async def test_an_entry_is_never_dated_before_the_one_it_follows(ledger_app: FastAPI) -> None:
    """Dates rise with positions, whatever moment a writer passes or however its clock stands, so a day that has
    ended gains nothing: an entry for a change nine days ago is dated as the head it follows."""
    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        first = await service.append(s, "idea.price_check", 990_101, {"n": "now"})
        second = await service.append(s, "idea.price_check", 990_102, {"n": "late"}, utcnow() - timedelta(days=9))
    async with ledger_app.state.db.sessionmaker() as s:
        rows = (await s.execute(select(LedgerEntry).where(LedgerEntry.seq >= first).order_by(LedgerEntry.seq))).all()
        assert [(r.seq, r.subject_id) for (r,) in rows] == [(first, 990_101), (second, 990_102)]
        assert rows[1][0].at == rows[0][0].at
    days = await _days(ledger_app)
    assert days[rows[1][0].at[:10]][0] == second
    nine_days_ago = (utcnow() - timedelta(days=9)).date().isoformat()
    assert days.get(nine_days_ago, (0,))[0] < first
    assert await _problems(ledger_app) == []


async def test_a_change_takes_the_ledger_turn_only_as_it_commits_and_a_rollback_appends_nothing(
    ledger_app: FastAPI, teacher: httpx.AsyncClient
) -> None:
    """The turn is held for the appends alone (decision 0065): while a completion is written but not committed,
    another transaction appends without waiting for it, and the completion's entry follows that one at commit. A
    change that rolls back leaves no entry."""
    idea_id = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "EUR/NOK"})).json()["id"]
    before = (await service_head(ledger_app))[0]
    database = ledger_app.state.db

    async def meanwhile() -> None:
        async with database.sessionmaker() as other, other.begin():
            await service.append(other, "idea.price_check", 990_001, {"n": "meanwhile"}, utcnow())

    async with database.sessionmaker() as s:
        async with s.begin():
            idea = await s.get(TradeIdea, idea_id)
            assert idea is not None
            await set_status(s, idea, idea.educator_id, "successful")
            if s.get_bind().dialect.name == "postgresql":  # SQLite: one writer at a time, the change holds it
                await asyncio.wait_for(meanwhile(), timeout=5)  # the old order waited here for the commit
        async with s.begin():
            idea = await s.get(TradeIdea, idea_id)
            assert idea is not None
            await set_status(s, idea, idea.educator_id, "active")
            await s.rollback()
    async with database.sessionmaker() as s:
        rows = list(await s.execute(select(LedgerEntry).where(LedgerEntry.seq > before).order_by(LedgerEntry.seq)))
    kinds = [(r.kind, r.subject_id) for (r,) in rows]
    if database.engine.dialect.name == "postgresql":
        assert kinds == [("idea.price_check", 990_001), ("idea.result", idea_id)]
    else:
        assert kinds == [("idea.result", idea_id)]
    assert await _problems(ledger_app) == []
