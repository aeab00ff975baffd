"""The OpenAPI document states the rules the server enforces on a request's own data (schemathesis ST202:
a schema-valid request refused with 422 means the document promised more than the server takes). Rules no
JSON schema can state (a known time zone, the caller's own uploads, the push services of a setting) are listed
with their reasons in `schemathesis.toml`."""

import re
from typing import Any

import httpx
import pytest


@pytest.fixture
async def components(anon: httpx.AsyncClient) -> dict[str, Any]:
    document = (await anon.get("/openapi.json")).json()
    schemas: dict[str, Any] = document["components"]["schemas"]
    return schemas


def _options(field: dict[str, Any]) -> list[dict[str, Any]]:
    options: list[dict[str, Any]] = field.get("anyOf", [field])
    return options


async def test_required_idea_fields_are_never_null_nor_blank(components: dict[str, Any]) -> None:
    for name in ("IdeaCreate", "IdeaUpdate"):
        properties = components[name]["properties"]
        for field in ("pair", "timeFrame", "entry1", "invalidationLevel", "exit1", "marketType", "orderType"):
            options = _options(properties[field])
            assert all(o.get("type") != "null" for o in options), (name, field)
            assert "default" not in properties[field], (name, field)
        for field in ("pair", "timeFrame", "entry1", "invalidationLevel", "exit1"):
            texts = [o for o in _options(properties[field]) if o.get("type") == "string"]
            assert texts and all(o.get("pattern") == r"\S" for o in texts), (name, field)


async def test_what_the_validators_refuse_is_in_the_document(
    components: dict[str, Any], customer: httpx.AsyncClient, educator_a: httpx.AsyncClient, admin: httpx.AsyncClient
) -> None:
    currency = components["RiskSettingsBody"]["properties"]["accountCurrency"]
    assert not re.search(currency["pattern"], "00000")
    assert (await customer.put("/api/me/risk-settings", json={"accountCurrency": "00000"})).status_code == 422

    assert components["InviteIn"]["properties"]["email"]["format"] == "email"
    assert (await admin.post("/api/admin/invites", json={"email": "not-an-email"})).status_code == 422

    message = components["MessageUpdate"]["properties"]["message"]
    assert not re.search(message["pattern"], "   ")
    assert (await educator_a.patch("/api/chat/messages/1", json={"message": "   "})).status_code == 422

    idea = (await educator_a.get("/api/trade-ideas", params={"educatorId": 1, "limit": 1})).json()["items"][0]
    cleared = await educator_a.patch(f"/api/trade-ideas/{idea['id']}", json={"pair": None})
    assert cleared.status_code == 422 and cleared.json()["message"] == "Please fill in all required fields"
