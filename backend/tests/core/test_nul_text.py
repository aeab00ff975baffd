"""Text with a NUL character (which PostgreSQL cannot store) is saved without it, never answered with a 500."""

import httpx
from fastapi import FastAPI

from tests.conftest import CUSTOMER, login_client


async def test_nul_characters_are_dropped_from_stored_text(app: FastAPI, customer: httpx.AsyncClient) -> None:
    before = (await customer.get("/api/me/profile")).json()
    r = await customer.put("/api/me/profile", json={**_editable(before), "firstName": "Ann\x00a"})
    assert r.status_code == 200, r.text
    other_device = await login_client(app, CUSTOMER)
    assert (await other_device.get("/api/me/profile")).json()["firstName"] == "Anna"
    await other_device.aclose()
    await customer.put("/api/me/profile", json=_editable(before))


async def test_push_subscription_with_nul_characters_is_not_a_server_error(customer: httpx.AsyncClient) -> None:
    keys = {"p256dh": "B" * 30 + "\x00", "auth": "secret-auth\x00"}
    endpoint = "https://fcm.googleapis.com/fcm/send/nul"  # an allowed push service (PUSH_ENDPOINT_HOSTS)
    with_nul = endpoint.replace("/nul", "/\x00nul")
    r = await customer.post("/api/push/subscriptions", json={"endpoint": with_nul, "keys": keys})
    assert r.status_code == 201, r.text
    again = await customer.post("/api/push/subscriptions", json={"endpoint": endpoint, "keys": keys})
    assert again.status_code == 201, again.text
    assert again.json()["id"] == r.json()["id"]  # stored without the NUL: the same subscription
    await customer.request("DELETE", "/api/push/subscriptions", json={"endpoint": endpoint})


def _editable(profile: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in profile.items() if k in {"firstName", "lastName"}}
