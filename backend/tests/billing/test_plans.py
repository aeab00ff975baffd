"""Plans as the admin manages them and visitors read them, with payments off (no Stripe key)."""

import httpx
import pytest
from fastapi import FastAPI

from tests.conftest import login_client, make_client

PLAN = {"name": "Mei Tanaka: gold", "scope": "educator", "educatorId": 4, "unitAmount": 3900, "currency": "USD",
        "interval": "month", "trialDays": 3}  # fmt: skip


async def test_admin_creates_and_changes_a_plan_and_visitors_see_it(admin: httpx.AsyncClient, app: FastAPI) -> None:
    r = await admin.post("/api/admin/plans", json=PLAN)
    assert r.status_code == 201, r.text
    plan = r.json()
    assert plan["currency"] == "usd" and plan["educators"][0]["id"] == 4 and plan["stripePriceId"] is None
    assert plan["stats"] == {"subscribers": 0, "trialing": 0, "pastDue": 0, "monthlyRecurringRevenue": 0}
    async with make_client(app) as visitor:
        public = (await visitor.get("/api/plans")).json()
    assert public["paymentsEnabled"] is False
    assert plan["id"] in {p["id"] for p in public["plans"]}
    r = await admin.patch(f"/api/admin/plans/{plan['id']}", json={"unitAmount": 4900, "active": False})
    assert r.status_code == 200 and r.json()["unitAmount"] == 4900 and r.json()["active"] is False
    async with make_client(app) as visitor:
        assert plan["id"] not in {p["id"] for p in (await visitor.get("/api/plans")).json()["plans"]}
    listed = (await admin.get("/api/admin/plans")).json()
    assert plan["id"] in {p["id"] for p in listed}
    audit = [a["action"] for a in (await admin.get("/api/admin/audit-log")).json()["items"][:3]]
    assert "plan.created" in audit and "plan.updated" in audit


async def test_the_demo_has_two_educator_plans_and_an_all_access_plan_with_a_trial(app: FastAPI) -> None:
    async with make_client(app) as visitor:
        plans = (await visitor.get("/api/plans")).json()["plans"]
    demo = {(p["scope"], p["educatorId"], p["trialDays"]) for p in plans}
    assert {("educator", 1, 0), ("educator", 2, 0), ("all", None, 7)} <= demo
    everyone = next(p for p in plans if p["scope"] == "all")
    assert len(everyone["educators"]) == 7


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"scope": "educator", "educatorId": None}, "scope"),
        ({"scope": "all", "educatorId": 1}, "scope"),
        ({"educatorId": 999}, "educator"),
        ({"trialDays": 31}, "trialDays"),
        ({"unitAmount": 0}, "unitAmount"),
        ({"interval": "week"}, "interval"),
        ({"currency": "dollars"}, "currency"),
        ({"name": "   "}, "name"),
    ],
)
async def test_bad_plans_are_refused_and_nothing_is_stored(
    admin: httpx.AsyncClient, change: dict[str, object], field: str
) -> None:
    before = len((await admin.get("/api/admin/plans")).json())
    r = await admin.post("/api/admin/plans", json={**PLAN, **change})
    assert r.status_code == 422, r.text
    assert set(r.json()) >= {"message", "code"}
    assert len((await admin.get("/api/admin/plans")).json()) == before
    assert (await admin.patch("/api/admin/plans/999999", json={"name": "x"})).status_code == 404


ROUTES = [
    ("GET", "/api/plans", None),
    ("GET", "/api/admin/plans", None),
    ("POST", "/api/admin/plans", PLAN),
    ("PATCH", "/api/admin/plans/1", {"name": "Alex Morgan: forex ideas"}),
    ("GET", "/api/admin/grants", None),
    (
        "POST",
        "/api/admin/grants",
        {"email": "member@example.com", "educatorId": 3, "endsAt": "2099-01-01T00:00:00Z"},
    ),
    ("DELETE", "/api/admin/grants/999999", None),
    ("GET", "/api/me/billing", None),
]
# Who may call each route: everyone else gets 401 (anonymous) or 403.
ALLOWED = {
    "/api/plans": {"anonymous", "customer_a", "customer_b", "educator_a", "educator_b", "admin"},
    "/api/me/billing": {"customer_a", "customer_b"},
}
LOGINS = {
    "customer_a": ("customer@example.com", "customer"),
    "customer_b": ("member@example.com", "customer"),
    "educator_a": ("educator1@example.com", "educator"),
    "educator_b": ("educator2@example.com", "educator"),
    "admin": ("admin@example.com", "admin"),
}


@pytest.mark.parametrize("who", ["anonymous", *LOGINS])
async def test_every_billing_route_answers_each_role_as_declared(app: FastAPI, who: str) -> None:
    client = await login_client(app, *LOGINS[who]) if who in LOGINS else make_client(app)
    for method, path, body in ROUTES:
        allowed = ALLOWED.get(path, {"admin"})
        r = await client.request(method, path, json=body)
        if who in allowed:
            assert r.status_code not in (401, 403), (who, method, path, r.text)
        else:
            assert r.status_code == (401 if who == "anonymous" else 403), (who, method, path, r.status_code)
    await client.aclose()
