"""Trade ideas API: create and validation, ownership, status, revisions, delete, lists, seen state."""

import io
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image
from sqlalchemy import delete, func, select

from tests.factories import open_idea
from tradeideas.core.deps import component_of
from tradeideas.ideas.cache import IdeaCache
from tradeideas.ideas.models import IdeaImage, IdeaRevision, IdeaStatus, IdeaView, TradeIdea
from tradeideas.ideas.queries import STATUS_ALIASES, UNSEEN_COUNT_CAP
from tradeideas.ideas.schemas import INVALID_STATUS, STATUS_VALUES

REQUIRED = "Please fill in all required fields"


def idea_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "marketType": "Forex",
        "orderType": "BUY",
        "ideaType": "Leverage",
        "pair": "EUR/USD",
        "timeFrame": "4H",
        "entry1": "1.0850",
        "invalidationLevel": "1.0795",
        "exit1": "1.0910",
    }
    body.update(overrides)
    return body


async def create(client: httpx.AsyncClient, **overrides: Any) -> dict[str, Any]:
    r = await client.post("/api/trade-ideas", json=idea_body(**overrides))
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def png_bytes(width: int = 64, height: int = 32) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (10, 200, 30)).save(buf, "PNG")
    return buf.getvalue()


async def upload(client: httpx.AsyncClient) -> int:
    r = await client.post("/api/media", files={"file": ("chart.png", png_bytes(), "image/png")})
    assert r.status_code == 201, r.text
    media_id: int = r.json()["id"]
    return media_id


async def count(app: FastAPI, model: Any, **where: Any) -> int:
    async with app.state.db.sessionmaker() as s:
        query = select(func.count()).select_from(model)
        for key, value in where.items():
            query = query.where(getattr(model, key) == value)
        n: int = (await s.execute(query)).scalar_one()
        return n


# ------------------------------------------------------------------ create


async def test_educator_creates_an_idea_and_gets_the_full_shape(educator_a: httpx.AsyncClient) -> None:
    idea = await create(educator_a, entry2="  1.0830 ", exit2="", notes="  Bounce  ", videoUrl="https://v.example/1")
    assert idea["educatorId"] == 1
    assert idea["educatorName"] == "Alex Morgan"
    assert idea["specialty"] == "Forex Trading"
    assert idea["educatorImage"] is None
    assert idea["status"] == "active"
    assert idea["market"] == "forex" and idea["marketType"] == "Forex"
    assert idea["entry2"] == "1.0830"  # trimmed
    assert idea["exit2"] is None and idea["exit3"] is None  # empty -> null
    assert idea["notes"] == "Bounce"
    assert idea["imageUrls"] == [] and idea["chartUrl"] is None
    assert idea["videoUrl"] == "https://v.example/1" and idea["audioUrl"] is None
    assert idea["edited"] is False
    assert idea["isNew"] is None  # only customers get NEW flags
    for key in ("createdAt", "updatedAt", "timeFrame", "orderType", "ideaType", "invalidationLevel"):
        assert key in idea


async def test_enum_values_are_normalised(educator_a: httpx.AsyncClient) -> None:
    idea = await create(educator_a, marketType="crypto", orderType="sell", ideaType="EXCHANGE", pair="BTC/USDT")
    assert (idea["marketType"], idea["orderType"], idea["ideaType"], idea["market"]) == (
        "Crypto",
        "SELL",
        "Exchange",
        "crypto",
    )


async def test_spx_pair_is_listed_under_forex(educator_a: httpx.AsyncClient) -> None:
    idea = await create(educator_a, marketType="Crypto", pair="SPX/USDT")
    assert idea["marketType"] == "Crypto" and idea["market"] == "forex"


@pytest.mark.parametrize("missing", ["pair", "timeFrame", "entry1", "invalidationLevel", "exit1", "marketType"])
async def test_required_fields(educator_a: httpx.AsyncClient, missing: str) -> None:
    body = idea_body()
    del body[missing]
    r = await educator_a.post("/api/trade-ideas", json=body)
    assert r.status_code == 422
    assert r.json()["message"] == REQUIRED
    r = await educator_a.post("/api/trade-ideas", json=idea_body(**{missing: "   "}))
    assert r.status_code == 422
    assert r.json()["message"] in (REQUIRED, "marketType must be Forex or Crypto")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("entry1", "1" * 65, "entry1 must be at most 64 characters"),
        ("pair", "X" * 33, "pair must be at most 32 characters"),
        ("timeFrame", "H" * 33, "timeFrame must be at most 32 characters"),
        ("notes", "n" * 5001, "notes must be at most 5000 characters"),
        ("orderType", "HOLD", "orderType must be BUY or SELL"),
        ("ideaType", "Options", "ideaType must be Leverage or Exchange"),
        ("marketType", "Stocks", "marketType must be Forex or Crypto"),
        ("videoUrl", "javascript:alert(1)", "videoUrl must be an https:// link of at most 500 characters"),
        ("imageIds", [1, 2, 3, 4], "You can upload maximum 3 photos per trade idea."),
    ],
)
async def test_field_limits(educator_a: httpx.AsyncClient, field: str, value: Any, message: str) -> None:
    r = await educator_a.post("/api/trade-ideas", json=idea_body(**{field: value}))
    assert r.status_code == 422
    assert r.json()["message"] == message


@pytest.mark.parametrize(
    "extra", [{"educatorId": 2}, {"id": 5}, {"createdAt": "2020-01-01T00:00:00Z"}, {"status": "successful"}]
)
async def test_mass_assignment_is_rejected(educator_a: httpx.AsyncClient, extra: dict[str, Any]) -> None:
    r = await educator_a.post("/api/trade-ideas", json=idea_body(**extra))
    assert r.status_code == 422
    assert r.json()["code"] == "validation_error"


async def test_images_are_linked_in_order_and_must_be_own(
    app: FastAPI, educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient, anon: httpx.AsyncClient
) -> None:
    first, second = await upload(educator_a), await upload(educator_a)
    idea = await create(educator_a, imageIds=[second, first])
    assert len(idea["imageUrls"]) == 2
    assert idea["imageIds"] == [second, first]
    assert idea["chartUrl"] == idea["imageUrls"][0]
    assert (await anon.get(idea["chartUrl"])).status_code == 200
    # Educator B cannot attach A's images; nothing is created.
    before = await count(app, TradeIdea)
    r = await educator_b.post("/api/trade-ideas", json=idea_body(imageIds=[first]))
    assert r.status_code == 422
    assert await count(app, TradeIdea) == before
    r = await educator_a.post("/api/trade-ideas", json=idea_body(imageIds=[999_999]))
    assert r.status_code == 422


# ------------------------------------------------------------------ permissions and ownership


async def test_permission_matrix_for_one_idea(
    anon: httpx.AsyncClient,
    customer: httpx.AsyncClient,
    educator_a: httpx.AsyncClient,
    educator_b: httpx.AsyncClient,
) -> None:
    idea = await create(educator_a)
    url = f"/api/trade-ideas/{idea['id']}"
    writes: list[tuple[str, str, dict[str, Any] | None]] = [
        ("PATCH", url, {"entry1": "1.0"}),
        ("PUT", url, {"status": "successful"}),
        ("DELETE", url, None),
    ]
    for method, path, body in writes:
        assert (await anon.request(method, path, json=body)).status_code == 401
        assert (await customer.request(method, path, json=body)).status_code == 403
        r = await educator_b.request(method, path, json=body)
        assert r.status_code == 403, (method, r.text)
        assert r.json()["code"] == "not_owner"
    assert (await anon.post("/api/trade-ideas", json=idea_body())).status_code == 401
    assert (await customer.post("/api/trade-ideas", json=idea_body())).status_code == 403
    for client in (customer, educator_a, educator_b):
        assert (await client.get(url)).status_code == 200
        assert (await client.get(url + "/revisions")).status_code == 200
        assert (await client.get("/api/trade-ideas")).status_code == 200
    assert (await anon.get(url)).status_code == 401
    assert (await anon.get("/api/trade-ideas")).status_code == 401
    # The untouched idea is still as created.
    assert (await educator_a.get(url)).json()["entry1"] == "1.0850"
    for path in ("/api/me/unseen-counts", "/api/me/notification-settings"):
        assert (await anon.get(path)).status_code == 401
        assert (await educator_a.get(path)).status_code == 403
        assert (await customer.get(path)).status_code == 200
    assert (await educator_a.post("/api/trade-ideas/seen", json={"ideaIds": [idea["id"]]})).status_code == 403


async def test_unknown_idea_is_404(educator_a: httpx.AsyncClient) -> None:
    for method in ("GET", "PATCH", "DELETE"):
        r = await educator_a.request(method, "/api/trade-ideas/999999", json={} if method == "PATCH" else None)
        assert r.status_code == 404 and r.json()["message"] == "Trade idea not found"


# ------------------------------------------------------------------ edits and revisions


async def test_a_result_is_listed_but_does_not_mark_the_idea_edited(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    """Issue #39: "edited" marks changes to what a trader acts on (levels, notes, media); results are listed apart."""
    idea = await create(educator_a)
    url = f"/api/trade-ideas/{idea['id']}"
    r = await educator_a.put(url, json={"status": "successful", "outcome": "exit1"})
    assert r.status_code == 200, r.text
    assert r.json()["edited"] is False
    r = await educator_a.put(url, json={"status": "pending"})
    assert r.status_code == 200, r.text
    assert r.json()["edited"] is False and r.json()["editedAfterPublish"] is False
    revisions = (await customer.get(url + "/revisions")).json()
    assert {(r["field"], r["oldValue"], r["newValue"]) for r in revisions} == {
        ("status", "active", "successful"),
        ("outcome", None, "exit1"),
        ("status", "successful", "pending"),
        ("outcome", "exit1", None),
    }
    r = await educator_a.patch(url, json={"notes": "Watch the retest"})
    assert r.status_code == 200 and r.json()["edited"] is True


async def test_patch_any_subset_records_revisions(educator_a: httpx.AsyncClient, customer: httpx.AsyncClient) -> None:
    idea = await create(educator_a, entry2="1.0830")
    url = f"/api/trade-ideas/{idea['id']}"
    r = await educator_a.patch(url, json={"entry1": "1.0860", "entry2": "", "notes": "moved"})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["entry1"] == "1.0860" and out["entry2"] is None and out["notes"] == "moved"
    assert out["edited"] is True
    assert out["exit1"] == "1.0910"  # untouched
    # Unchanged values write no revision.
    assert (await educator_a.patch(url, json={"entry1": "1.0860"})).status_code == 200
    revisions = (await customer.get(url + "/revisions")).json()
    assert {(r["field"], r["oldValue"], r["newValue"]) for r in revisions} == {
        ("entry1", "1.0850", "1.0860"),
        ("entry2", "1.0830", None),
        ("notes", None, "moved"),
    }
    assert all(r["editorName"] == "Alex Morgan" and r["editorId"] == 1 for r in revisions)


async def test_patch_cannot_clear_required_fields_or_mass_assign(educator_a: httpx.AsyncClient) -> None:
    idea = await create(educator_a)
    url = f"/api/trade-ideas/{idea['id']}"
    r = await educator_a.patch(url, json={"exit1": "  "})
    assert r.status_code == 422 and r.json()["message"] == REQUIRED
    for extra in ({"educatorId": 2}, {"status": "successful"}, {"createdAt": "2020-01-01T00:00:00Z"}):
        assert (await educator_a.patch(url, json=extra)).status_code == 422
    r = await educator_a.patch(url, json={"imageIds": [1, 2, 3, 4]})
    assert r.status_code == 422 and r.json()["message"] == "You can upload maximum 3 photos per trade idea."


async def test_patch_market_pair_and_images(educator_a: httpx.AsyncClient) -> None:
    media = await upload(educator_a)
    idea = await create(educator_a)
    url = f"/api/trade-ideas/{idea['id']}"
    out = (await educator_a.patch(url, json={"marketType": "Crypto", "pair": "ETH/USDT", "imageIds": [media]})).json()
    assert out["market"] == "crypto" and out["pair"] == "ETH/USDT" and len(out["imageUrls"]) == 1
    out = (await educator_a.patch(url, json={"imageIds": []})).json()
    assert out["imageUrls"] == []
    fields = [r["field"] for r in (await educator_a.get(url + "/revisions")).json()]
    assert fields[0] == "imageIds"  # newest first
    assert {"marketType", "pair", "imageIds"} <= set(fields)


async def test_educator_name_comes_from_the_current_user_row(app: FastAPI, educator_b: httpx.AsyncClient) -> None:
    from tradeideas.auth.models import User

    idea = await create(educator_b)
    async with app.state.db.sessionmaker() as s, s.begin():
        user = await s.get(User, 2)
        assert user is not None
        old = user.first_name
        user.first_name = "Renamed"
    try:
        got = (await educator_b.get(f"/api/trade-ideas/{idea['id']}")).json()
        assert got["educatorName"] == "Renamed Reyes"
    finally:
        async with app.state.db.sessionmaker() as s, s.begin():
            user = await s.get(User, 2)
            assert user is not None
            user.first_name = old


# ------------------------------------------------------------------ status


@pytest.mark.parametrize(
    ("sent", "stored"),
    [
        ("successful", "successful"),
        ("unsuccessful", "unsuccessful"),
        ("success", "successful"),
        ("failure", "unsuccessful"),
        ("invalid", "invalidated"),
        ("INVALIDATED", "invalidated"),
    ],
)
async def test_status_values_and_aliases(educator_a: httpx.AsyncClient, sent: str, stored: str) -> None:
    idea = await create(educator_a)
    r = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": sent})
    assert r.status_code == 200 and r.json()["status"] == stored


async def test_status_moves_ideas_between_active_and_history(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    idea = await create(educator_a, ideaType="Exchange", marketType="Crypto", pair="LINK/USDT")
    url = f"/api/trade-ideas/{idea['id']}"

    async def ids(status: str) -> set[int]:
        r = await customer.get(
            "/api/trade-ideas", params={"market": "crypto", "ideaType": "exchange", "status": status, "limit": 100}
        )
        assert r.status_code == 200
        return {i["id"] for i in r.json()["items"]}

    assert idea["id"] in await ids("active")
    assert (await educator_a.put(url, json={"status": "success"})).json()["status"] == "successful"
    assert idea["id"] not in await ids("active") and idea["id"] in await ids("completed")
    assert (await educator_a.put(url, json={"status": "pending"})).json()["status"] == "pending"  # reset
    assert idea["id"] in await ids("active") and idea["id"] in await ids("pending")
    assert (await educator_a.put(url, json={"status": "invalidated"})).json()["status"] == "invalidated"
    assert idea["id"] in await ids("active") and idea["id"] not in await ids("completed")  # shown as INVALID
    assert (await educator_a.put(url, json={"status": "failure"})).json()["status"] == "unsuccessful"
    assert idea["id"] in await ids("completed")
    revisions = (await customer.get(url + "/revisions")).json()
    assert [(r["oldValue"], r["newValue"]) for r in revisions if r["field"] == "status"] == [
        ("invalidated", "unsuccessful"),
        ("pending", "invalidated"),
        ("successful", "pending"),
        ("active", "successful"),
    ]
    assert [(r["oldValue"], r["newValue"]) for r in revisions if r["field"] == "outcome"] == [
        ("not_triggered", "invalidation"),
        (None, "not_triggered"),
        ("exit1", None),
        (None, "exit1"),
    ]
    # Same status again: no new revision.
    await educator_a.put(url, json={"status": "unsuccessful"})
    assert len((await customer.get(url + "/revisions")).json()) == 8


async def test_unknown_status_is_rejected(educator_a: httpx.AsyncClient) -> None:
    idea = await create(educator_a)
    for status in ("completed-ish", "", "   "):
        r = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": status})
        assert r.status_code == 422 and r.json()["code"] == "invalid_status", r.text
        assert r.json()["message"] == INVALID_STATUS
    r = await educator_a.put(f"/api/trade-ideas/{idea['id']}", json={"status": 3})
    assert r.status_code == 422 and r.json()["code"] == "validation_error"


async def test_status_ignores_case_and_spaces(educator_a: httpx.AsyncClient) -> None:
    idea = await create(educator_a)
    url = f"/api/trade-ideas/{idea['id']}"
    assert (await educator_a.put(url, json={"status": "  Invalid "})).json()["status"] == "invalidated"
    assert (await educator_a.put(url, json={"status": "RESET"})).json()["status"] == "pending"
    assert (await educator_a.delete(url)).status_code == 204  # the lists other tests read hold no pending idea


def test_status_enum_lists_every_accepted_value(app: FastAPI) -> None:
    """The OpenAPI enum of StatusUpdate.status is exactly what `normalise_status` maps (canonical and legacy)."""
    schema = app.openapi()["components"]["schemas"]["StatusUpdate"]["properties"]["status"]
    assert set(schema["enum"]) == set(STATUS_ALIASES) == STATUS_VALUES
    assert {s.value for s in IdeaStatus} <= STATUS_VALUES


# ------------------------------------------------------------------ delete


async def test_delete_cascades(app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient) -> None:
    media = await upload(educator_a)
    idea = await create(educator_a, imageIds=[media])
    url = f"/api/trade-ideas/{idea['id']}"
    await educator_a.patch(url, json={"notes": "x"})
    await customer.post("/api/trade-ideas/seen", json={"ideaIds": [idea["id"]]})
    assert await count(app, IdeaView, idea_id=idea["id"]) == 1
    assert await count(app, IdeaRevision, idea_id=idea["id"]) == 1
    assert await count(app, IdeaImage, idea_id=idea["id"]) == 1
    r = await educator_a.delete(url)
    assert r.status_code == 204
    assert (await customer.get(url)).status_code == 404
    for model in (IdeaView, IdeaRevision, IdeaImage):
        assert await count(app, model, idea_id=idea["id"]) == 0
    assert await count(app, TradeIdea, id=idea["id"]) == 0


# ------------------------------------------------------------------ lists


async def test_pagination_newest_first_without_gaps(educator_b: httpx.AsyncClient) -> None:
    created = [(await create(educator_b, pair=f"EUR/USD {i}"))["id"] for i in range(7)]
    seen: list[int] = []
    cursor: str | None = None
    pages = 0
    while True:
        params: dict[str, Any] = {"educatorId": 2, "limit": 3}
        if cursor:
            params["cursor"] = cursor
        page = (await educator_b.get("/api/trade-ideas", params=params)).json()
        seen += [i["id"] for i in page["items"]]
        pages += 1
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen))
    assert seen[:7] == list(reversed(created))  # newest first
    assert all(i["educatorId"] == 2 for i in (await educator_b.get("/api/trade-ideas?educatorId=2")).json()["items"])
    assert pages >= 3


async def test_every_page_size_gives_that_many_ideas_and_says_whether_more_follow(
    educator_b: httpx.AsyncClient,
) -> None:
    # Pages are read in a few fixed sizes (10, 25, 50, 100) and cut to the size asked for: the sizes around those
    # steps must still give exactly `limit` ideas, and a cursor only when more ideas follow.
    for i in range(12):
        await create(educator_b, pair=f"GBP/USD {i}")

    async def walk(limit: int) -> list[int]:
        walked: list[int] = []
        cursor: str | None = None
        while True:
            params: dict[str, Any] = {"educatorId": 2, "limit": limit} | ({"cursor": cursor} if cursor else {})
            page = (await educator_b.get("/api/trade-ideas", params=params)).json()
            walked += [i["id"] for i in page["items"]]
            cursor = page["nextCursor"]
            if cursor is None:
                return walked

    # However many ideas earlier tests left to educator 2 (more than one page of 100 when tests/prices ran first).
    ids = await walk(100)
    total = len(ids)
    assert total >= 12 and len(set(ids)) == total
    for limit in sorted({1, 9, 10, 11, 26, 51, 99, 100, total - 1, total} & set(range(1, 101))):
        page = (await educator_b.get("/api/trade-ideas", params={"educatorId": 2, "limit": limit})).json()
        assert [i["id"] for i in page["items"]] == ids[:limit], limit
        assert (page["nextCursor"] is not None) == (limit < total), limit
    assert await walk(10) == ids


async def test_list_limits_and_filters_are_validated(customer: httpx.AsyncClient) -> None:
    assert (await customer.get("/api/trade-ideas?limit=101")).status_code == 422
    assert (await customer.get("/api/trade-ideas?limit=0")).status_code == 422
    assert (await customer.get("/api/trade-ideas?market=stocks")).status_code == 422
    assert (await customer.get("/api/trade-ideas?cursor=%%%")).status_code == 422
    page = (await customer.get("/api/trade-ideas")).json()
    assert len(page["items"]) <= 20
    page = (await customer.get("/api/trade-ideas?market=forex&status=active&limit=100")).json()
    stray = [(i["id"], i["market"], i["status"]) for i in page["items"]]
    # An idea reset to pending is open again, so it is on the active list too.
    assert [s for s in stray if s[1] != "forex" or s[2] not in ("active", "pending", "invalidated")] == []
    page = (await customer.get("/api/trade-ideas?market=crypto&status=completed&limit=100")).json()
    stray = [(i["id"], i["market"], i["status"]) for i in page["items"]]
    assert [s for s in stray if s[1] != "crypto" or s[2] not in ("successful", "unsuccessful")] == []


async def test_seeded_sample_ideas_cover_markets_types_and_history(customer: httpx.AsyncClient) -> None:
    for market in ("forex", "crypto"):
        for idea_type in ("leverage", "exchange"):
            r = await customer.get(
                "/api/trade-ideas", params={"market": market, "ideaType": idea_type, "status": "active"}
            )
            assert r.json()["items"], (market, idea_type)
        history = (await customer.get("/api/trade-ideas", params={"market": market, "status": "completed"})).json()
        assert {i["status"] for i in history["items"]} >= {"successful", "unsuccessful"}
    invalid = (await customer.get("/api/trade-ideas", params={"status": "invalidated"})).json()["items"]
    assert invalid


# ------------------------------------------------------------------ seen, unseen counts, notification settings


async def test_unseen_counts_seen_and_notification_settings(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    await customer.put("/api/me/notification-settings", json={"forex": True, "crypto": True})
    # Opening both market cards marks everything current as seen.
    await customer.post("/api/trade-ideas/seen", json={"market": "forex"})
    r = await customer.post("/api/trade-ideas/seen", json={"market": "crypto"})
    assert r.json() == {"forex": 0, "crypto": 0, "total": 0}

    fx1 = await create(educator_a)
    fx2 = await create(educator_a, pair="GBP/USD")
    await create(educator_a, marketType="Crypto", pair="BTC/USDT")
    assert (await customer.get("/api/me/unseen-counts")).json() == {"forex": 2, "crypto": 1, "total": 3}

    listed = (await customer.get("/api/trade-ideas?market=forex&status=active")).json()["items"]
    flags = {i["id"]: i["isNew"] for i in listed}
    assert flags[fx1["id"]] is True and flags[fx2["id"]] is True
    assert (await customer.get(f"/api/trade-ideas/{fx1['id']}")).json()["isNew"] is True

    r = await customer.post("/api/trade-ideas/seen", json={"ideaIds": [fx1["id"], fx1["id"], 999_999]})
    assert r.status_code == 200 and r.json() == {"forex": 1, "crypto": 1, "total": 2}
    assert (await customer.get("/api/me/unseen-counts")).json() == {"forex": 1, "crypto": 1, "total": 2}
    assert (await customer.get(f"/api/trade-ideas/{fx1['id']}")).json()["isNew"] is False
    # Marking twice is harmless.
    assert (await customer.post("/api/trade-ideas/seen", json={"ideaIds": [fx1["id"]]})).status_code == 200

    # Notifications off for crypto: crypto no longer counted.
    markets = ("forex", "crypto")
    settings = (await customer.get("/api/me/notification-settings")).json()
    assert {k: settings[k] for k in markets} == {"forex": True, "crypto": True}
    r = await customer.put("/api/me/notification-settings", json={"forex": True, "crypto": False})
    assert {k: r.json()[k] for k in markets} == {"forex": True, "crypto": False}
    settings = (await customer.get("/api/me/notification-settings")).json()
    assert {k: settings[k] for k in markets} == {"forex": True, "crypto": False}
    assert (await customer.get("/api/me/unseen-counts")).json() == {"forex": 1, "crypto": 0, "total": 1}

    # Completed ideas are not new.
    await educator_a.put(f"/api/trade-ideas/{fx2['id']}", json={"status": "successful"})
    assert (await customer.get("/api/me/unseen-counts")).json() == {"forex": 0, "crypto": 0, "total": 0}

    # Opening the forex card clears it; later ideas count again.
    await customer.put("/api/me/notification-settings", json={"forex": True, "crypto": True})
    r = await customer.post("/api/trade-ideas/seen", json={"market": "crypto"})
    assert r.json() == {"forex": 0, "crypto": 0, "total": 0}
    await create(educator_a, marketType="Crypto", pair="ETH/USDT")
    assert (await customer.get("/api/me/unseen-counts")).json()["crypto"] == 1
    assert (await customer.put("/api/me/notification-settings", json={"forex": "maybe"})).status_code == 422
    assert (await customer.post("/api/trade-ideas/seen", json={"market": "stocks"})).status_code == 422


async def test_unseen_counts_stop_at_the_badge_cap(app: FastAPI, customer: httpx.AsyncClient) -> None:
    """A customer back after a long time counts "99+" (the cap, 100) without counting every idea."""
    await customer.put("/api/me/notification-settings", json={"forex": True, "crypto": True})
    await customer.post("/api/trade-ideas/seen", json={"market": "crypto"})
    async with app.state.db.sessionmaker() as s, s.begin():
        ideas = [open_idea("crypto", pair=f"CAP{n}/USDT") for n in range(UNSEEN_COUNT_CAP + 5)]
        s.add_all(ideas)
    component_of(app, IdeaCache).clear()  # inserted behind the app's back: no event dropped its pages
    try:
        counts = (await customer.get("/api/me/unseen-counts")).json()
        assert counts["crypto"] == UNSEEN_COUNT_CAP
        assert counts["total"] == counts["forex"] + UNSEEN_COUNT_CAP
    finally:
        async with app.state.db.sessionmaker() as s, s.begin():
            await s.execute(delete(TradeIdea).where(TradeIdea.id.in_([idea.id for idea in ideas])))
        component_of(app, IdeaCache).clear()
    assert (await customer.get("/api/me/unseen-counts")).json()["crypto"] == 0


async def test_new_tag_follows_the_markets_notifications(
    customer: httpx.AsyncClient, educator_a: httpx.AsyncClient
) -> None:
    """An unseen idea is tagged NEW, and counted, only in a market whose notifications are on."""
    crypto_active = "/api/trade-ideas?market=crypto&status=active&limit=100"
    await customer.put("/api/me/notification-settings", json={"forex": True, "crypto": False})
    await customer.post("/api/trade-ideas/seen", json={"market": "crypto"})
    coin = await create(educator_a, marketType="Crypto", pair="SOL/USDT")
    listed = {item["id"]: item for item in (await customer.get(crypto_active)).json()["items"]}
    assert listed[coin["id"]]["isNew"] is False
    assert (await customer.get(f"/api/trade-ideas/{coin['id']}")).json()["isNew"] is False
    assert (await customer.get("/api/me/unseen-counts")).json()["crypto"] == 0

    await customer.put("/api/me/notification-settings", json={"forex": True, "crypto": True})
    listed = {item["id"]: item for item in (await customer.get(crypto_active)).json()["items"]}
    assert listed[coin["id"]]["isNew"] is True  # the cached seen state follows the settings at once
    assert (await customer.get("/api/me/unseen-counts")).json()["crypto"] == 1
    await customer.post("/api/trade-ideas/seen", json={"market": "crypto"})
