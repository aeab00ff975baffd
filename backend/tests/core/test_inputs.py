"""Every integer input beyond the id range is refused at the edge (never a 500), and undeclared methods
get 405 with the methods the path really has."""

import base64
from typing import Any

import httpx
import pytest

from tradeideas.realtime.stream import resume_after

HUGE = [2**31, 2**63, 2**64, 10**30]


@pytest.mark.parametrize("big", HUGE)
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/trade-ideas/{}"),
        ("PATCH", "/api/trade-ideas/{}"),
        ("PUT", "/api/trade-ideas/{}"),
        ("DELETE", "/api/trade-ideas/{}"),
        ("GET", "/api/trade-ideas/{}/revisions"),
        ("GET", "/api/chat/rooms/{}/messages"),
        ("POST", "/api/chat/rooms/{}/messages"),
        ("PATCH", "/api/chat/messages/{}"),
        ("DELETE", "/api/chat/messages/{}"),
        ("PUT", "/api/chat/messages/{}/reactions/heart"),
        ("DELETE", "/api/chat/messages/{}/reactions/heart"),
    ],
)
async def test_path_ids_out_of_range_are_404(educator_a: httpx.AsyncClient, method: str, path: str, big: int) -> None:
    body: dict[str, Any] = {"message": "hello", "status": "successful"}
    r = await educator_a.request(method, path.format(big), json=body if method in ("POST", "PATCH", "PUT") else None)
    assert r.status_code == 404, r.text
    assert r.json()["code"] == "not_found"


@pytest.mark.parametrize("big", HUGE)
@pytest.mark.parametrize("url", ["/api/trade-ideas?educatorId={}", "/api/chat/rooms/1/messages?before={}"])
async def test_query_ids_out_of_range_are_422(customer: httpx.AsyncClient, url: str, big: int) -> None:
    r = await customer.get(url.format(big))
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "validation_error"


async def test_cursor_naming_an_id_out_of_range_is_422(customer: httpx.AsyncClient) -> None:
    for raw in (f"2026-01-01T00:00:00+00:00|{2**63}", "9999-12-31T23:59:59-23:59|5"):
        cursor = base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")
        r = await customer.get(f"/api/trade-ideas?cursor={cursor}")
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "invalid_cursor"


@pytest.mark.parametrize("big", HUGE)
async def test_body_ids_out_of_range_are_422(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, big: int
) -> None:
    idea = {
        "marketType": "Forex",
        "orderType": "BUY",
        "ideaType": "Leverage",
        "pair": "EUR/USD",
        "entryLevel": "1.1",
        "invalidationLevel": "1.0",
        "exit1": "1.2",
        "imageIds": [big],
    }
    answers = [
        await educator_a.post("/api/trade-ideas", json=idea),
        await educator_a.post("/api/chat/rooms/1/messages", json={"message": "hi", "imageId": big}),
        await customer.post("/api/trade-ideas/seen", json={"ideaIds": [big]}),
    ]
    for r in answers:
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "validation_error"


@pytest.mark.parametrize("not_an_id", [True, False, "1", 1.5])
async def test_body_ids_must_be_json_integers(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, not_an_id: Any
) -> None:
    """`true` is not idea 1 (schemathesis ST201: `{"ideaIds": [true]}` was accepted), nor is "1". (1.0 is: JSON
    Schema counts it as an integer, and schemathesis ST202 holds the API to that.)"""
    idea = {
        "marketType": "Forex",
        "orderType": "BUY",
        "ideaType": "Leverage",
        "pair": "EUR/USD",
        "timeFrame": "H1",
        "entry1": "1.1",
        "invalidationLevel": "1.0",
        "exit1": "1.2",
    }
    answers = [
        await customer.post("/api/trade-ideas/seen", json={"ideaIds": [not_an_id]}),
        await educator_a.post("/api/trade-ideas", json={**idea, "imageIds": [not_an_id]}),
        await educator_a.post("/api/trade-ideas", json={**idea, "audioId": not_an_id}),
        await educator_a.post("/api/chat/rooms/1/messages", json={"message": "hi", "imageId": not_an_id}),
        await customer.post("/api/me/journal", json={"ideaId": not_an_id, "pair": "EUR/USD"}),
    ]
    for r in answers:
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "validation_error"
    # Query strings are text: an id there is still written as digits.
    assert (await customer.get("/api/trade-ideas", params={"educatorId": "1"})).status_code == 200


def test_an_event_id_out_of_range_is_ignored_like_text() -> None:
    assert resume_after(str(2**63)) is None
    assert resume_after(str(2**63), "12") == 12
    assert resume_after("٣") is None  # a non-ASCII digit is not an id


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("POST", "/api/trade-ideas/1", "GET, PUT, PATCH, DELETE"),
        ("GET", "/api/trade-ideas/seen", "POST"),
        ("DELETE", "/api/config", "GET"),
        ("POST", "/api/chat/messages/1", "PATCH, DELETE"),
        ("GET", "/api/chat/messages/1/reactions/heart", "PUT, DELETE"),
        ("OPTIONS", "/api/me/avatar", "POST, DELETE"),
    ],
)
async def test_undeclared_methods_are_405_with_every_allowed_method(
    educator_a: httpx.AsyncClient, method: str, path: str, allow: str
) -> None:
    r = await educator_a.request(method, path)
    assert r.status_code == 405, r.text
    assert r.headers["allow"] == allow
    assert r.json() == {"message": "Method not allowed", "code": "method_not_allowed"}


async def test_unknown_api_paths_stay_404_whatever_the_method(anon: httpx.AsyncClient) -> None:
    for method in ("GET", "POST", "DELETE"):
        r = await anon.request(method, "/api/nothing-here")
        assert r.status_code == 404 and r.json()["code"] == "not_found"
