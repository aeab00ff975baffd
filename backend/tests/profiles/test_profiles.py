"""Profiles: reading and editing one's own, validation limits, photo, educator list, password change."""

import io
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image

from tests.conftest import CUSTOMER, EDUCATOR_A, make_client
from tradeideas.auth import service as auth_service
from tradeideas.auth.models import Role


def _png(width: int = 40, height: int = 30) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


async def _put(client: httpx.AsyncClient, **body: Any) -> httpx.Response:
    return await client.put("/api/me/profile", json=body)


async def test_customer_profile(customer: httpx.AsyncClient) -> None:
    r = await customer.get("/api/me/profile")
    assert r.status_code == 200
    p = r.json()
    assert p["email"] == CUSTOMER and p["role"] == "customer"
    assert (p["firstName"], p["lastName"], p["displayName"]) == ("Demo", "Customer", "Demo Customer")
    assert p["isPublic"] is True and p["avatarUrl"] is None and p["tradingProfile"] is None
    assert "passwordHash" not in p


async def test_educator_profile_has_trading_profile(educator_a: httpx.AsyncClient) -> None:
    p = (await educator_a.get("/api/me/profile")).json()
    assert p["email"] == EDUCATOR_A and p["role"] == "educator" and p["specialty"] == "Forex Trading"
    # The demo educator's profile as seeded (educators.json), so a first run shows what a profile holds.
    assert p["tradingProfile"] == {"yearsExperience": 12, "tradingStyle": "Swing Trading", "accountStatus": "Active"}
    assert p["bio"].startswith("Former bank FX dealer.") and p["timezone"] == "UTC+0"
    assert p["slug"] == "alex-morgan"


async def test_anonymous_has_no_profile(anon: httpx.AsyncClient) -> None:
    for method, path in (("GET", "/api/me/profile"), ("PUT", "/api/me/profile"), ("DELETE", "/api/me/avatar")):
        r = await anon.request(method, path, json={} if method == "PUT" else None)
        assert r.status_code == 401 and r.json()["code"] == "unauthorized"


async def test_educator_updates_any_subset(educator_a: httpx.AsyncClient) -> None:
    r = await _put(
        educator_a,
        firstName=" Alexandra ",
        bio="Ten years of FX.",
        specialty="Swing Trading",
        yearsExperience=10,
        tradingStyle="Position Trading",
        timezone="UTC+1",
        isPublic=False,
    )
    assert r.status_code == 200, r.text
    p = r.json()
    assert (p["firstName"], p["lastName"], p["displayName"]) == ("Alexandra", "Morgan", "Alexandra Morgan")
    assert (p["bio"], p["specialty"], p["timezone"], p["isPublic"]) == (
        "Ten years of FX.",
        "Swing Trading",
        "UTC+1",
        False,
    )
    assert p["tradingProfile"] == {"yearsExperience": 10, "tradingStyle": "Position Trading", "accountStatus": "Active"}
    # Stored on the server: a fresh read returns it, and untouched fields stay.
    again = (await educator_a.get("/api/me/profile")).json()
    assert again == p
    p2 = (await _put(educator_a, bio="")).json()
    assert p2["bio"] == "" and p2["specialty"] == "Swing Trading" and p2["yearsExperience"] == 10
    p3 = (await _put(educator_a, tradingStyle="", timezone=None)).json()
    assert p3["tradingStyle"] is None and p3["timezone"] is None


async def test_display_name_is_split_into_first_and_last(educator_a: httpx.AsyncClient) -> None:
    p = (await _put(educator_a, displayName="Alex  van der Berg")).json()
    assert (p["firstName"], p["lastName"], p["displayName"]) == ("Alex", "van der Berg", "Alex van der Berg")
    p = (await _put(educator_a, displayName="Cher")).json()
    assert (p["firstName"], p["lastName"]) == ("Cher", "")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"firstName": "x" * 101}, "Name must be 100 characters or fewer"),
        ({"lastName": "x" * 101}, "Name must be 100 characters or fewer"),
        ({"displayName": "x" * 101}, "Name must be 100 characters or fewer"),
        ({"bio": "x" * 1001}, "Bio must be 1000 characters or fewer"),
        ({"yearsExperience": 51}, "Years of experience must be between 0 and 50"),
        ({"yearsExperience": -1}, "Years of experience must be between 0 and 50"),
        ({"yearsExperience": "75"}, "Years of experience must be between 0 and 50"),
        (
            {"specialty": "Astrology"},
            "Specialty must be one of: Forex Trading, Cryptocurrency, Options Trading, Day Trading, "
            "Swing Trading, Technical Analysis, Fundamental Analysis",
        ),
        (
            {"tradingStyle": "HODL"},
            "Trading style must be one of: Scalping, Day Trading, Swing Trading, Position Trading, Algorithmic Trading",
        ),
        ({"timezone": "UTC+3"}, "Timezone must be one of: UTC-5, UTC-6, UTC-7, UTC-8, UTC+0, UTC+1, UTC+8"),
    ],
)
async def test_profile_validation_messages(educator_a: httpx.AsyncClient, body: dict[str, Any], message: str) -> None:
    before = (await educator_a.get("/api/me/profile")).json()
    r = await _put(educator_a, **body)
    assert r.status_code == 422, r.text
    assert r.json()["message"] == message and r.json()["code"] == "validation_error"
    assert (await educator_a.get("/api/me/profile")).json() == before


async def test_limits_themselves_are_accepted(educator_a: httpx.AsyncClient) -> None:
    r = await _put(educator_a, firstName="f" * 100, lastName="l" * 100, bio="b" * 1000, yearsExperience=50)
    assert r.status_code == 200, r.text
    assert r.json()["yearsExperience"] == 50 and len(r.json()["bio"]) == 1000
    assert (await _put(educator_a, yearsExperience=0)).json()["yearsExperience"] == 0


@pytest.mark.parametrize(("given", "stored"), [("abc", 0), ("", 0), ("7", 7), (12.9, 12), (True, 0)])
async def test_non_numeric_years_become_zero(educator_a: httpx.AsyncClient, given: Any, stored: int) -> None:
    await _put(educator_a, yearsExperience=3)
    r = await _put(educator_a, yearsExperience=given)
    assert r.status_code == 200, r.text
    assert r.json()["yearsExperience"] == stored


async def test_customer_trading_interests_are_free_text_stored_as_specialty(customer: httpx.AsyncClient) -> None:
    p = (await _put(customer, tradingInterests="Gold, scalping the London open")).json()
    assert p["specialty"] == p["tradingInterests"] == "Gold, scalping the London open"
    assert p["tradingProfile"] is None
    r = await _put(customer, tradingInterests="x" * 101)
    assert r.status_code == 422 and r.json()["message"] == "Trading interests must be 100 characters or fewer"
    assert (await _put(customer, tradingInterests="")).json()["tradingInterests"] is None


async def test_avatar_upload_and_removal(educator_a: httpx.AsyncClient, anon: httpx.AsyncClient) -> None:
    r = await educator_a.post("/api/me/avatar", files={"file": ("me.png", _png(1600, 1200), "image/png")})
    assert r.status_code == 200, r.text
    url = r.json()["avatarUrl"]
    assert url and url.startswith("/media/") and r.json()["profileImage"] == url
    img = await anon.get(url)
    assert img.status_code == 200 and img.headers["content-type"] == "image/jpeg"
    with Image.open(io.BytesIO(img.content)) as stored:
        assert stored.format == "JPEG" and stored.width == 800
    assert (await educator_a.get("/api/auth/user")).json()["avatarUrl"] == url
    educators = (await educator_a.get("/api/users/educators")).json()
    assert next(e for e in educators if e["id"] == 1)["avatarUrl"] == url
    r = await educator_a.delete("/api/me/avatar")
    assert r.status_code == 200 and r.json()["avatarUrl"] is None


async def test_customer_may_upload_an_avatar_but_only_images(customer: httpx.AsyncClient) -> None:
    r = await customer.post("/api/me/avatar", files={"file": ("notes.png", b"not an image at all", "image/png")})
    assert r.status_code == 422
    assert r.json()["message"] == "Please upload only image files."
    assert (await customer.get("/api/me/profile")).json()["avatarUrl"] is None
    r = await customer.post("/api/me/avatar", files={"file": ("me.png", _png(), "image/png")})
    assert r.status_code == 200 and r.json()["avatarUrl"].startswith("/media/")


async def test_educator_list_is_public_fields_only(customer: httpx.AsyncClient, educator_a: httpx.AsyncClient) -> None:
    r = await customer.get("/api/users/educators")
    assert r.status_code == 200
    educators = r.json()
    assert [e["id"] for e in educators] == [1, 2, 3, 4, 5, 6, 7]
    assert set(educators[0]) == {
        "id",
        "firstName",
        "lastName",
        "displayName",
        "avatarUrl",
        "profileImage",
        "specialty",
        "bio",
        "slug",
    }
    assert "@" not in r.text and "email" not in r.text.lower()
    assert educators[0]["displayName"] == "Alex Morgan" and educators[0]["slug"] == "alex-morgan"
    # A private profile leaves the list.
    await _put(educator_a, isPublic=False)
    assert 1 not in [e["id"] for e in (await customer.get("/api/users/educators")).json()]


async def test_anonymous_cannot_list_educators(anon: httpx.AsyncClient) -> None:
    assert (await anon.get("/api/users/educators")).status_code == 401


async def _new_user(app: FastAPI, password: str) -> str:
    email = f"pw-{uuid.uuid4().hex[:10]}@example.com"
    async with app.state.db.sessionmaker() as s, s.begin():
        await auth_service.add_user(
            s, email=email, password=password, role=Role.CUSTOMER, first_name="P", last_name="W"
        )
    return email


async def _login(client: httpx.AsyncClient, email: str, password: str) -> httpx.Response:
    return await client.post("/api/auth/login", json={"email": email, "password": password})


async def test_password_change_ends_other_sessions_only(app: FastAPI) -> None:
    email = await _new_user(app, "old-password-1")
    async with make_client(app) as here, make_client(app) as elsewhere, make_client(app) as fresh:
        assert (await _login(here, email, "old-password-1")).status_code == 200
        assert (await _login(elsewhere, email, "old-password-1")).status_code == 200

        r = await here.post("/api/me/password", json={"currentPassword": "wrong-one", "newPassword": "new-password-2"})
        assert r.status_code == 422
        assert r.json() == {"message": "Current password is incorrect", "code": "wrong_password"}
        r = await here.post("/api/me/password", json={"currentPassword": "old-password-1", "newPassword": "short"})
        assert r.status_code == 422 and r.json()["message"] == "Password must be at least 8 characters"
        assert (await elsewhere.get("/api/auth/user")).status_code == 200  # failed attempts change nothing

        r = await here.post(
            "/api/me/password", json={"currentPassword": "old-password-1", "newPassword": "new-password-2"}
        )
        assert r.status_code == 200, r.text
        assert (await here.get("/api/auth/user")).status_code == 200  # this session is kept
        assert (await elsewhere.get("/api/auth/user")).status_code == 401  # the other one ended
        assert (await _login(fresh, email, "old-password-1")).status_code == 401
        assert (await _login(fresh, email, "new-password-2")).status_code == 200


async def test_guessing_the_current_password_is_rate_limited_like_logins(app: FastAPI) -> None:
    email = await _new_user(app, "right-password-1")
    async with make_client(app) as session:
        assert (await _login(session, email, "right-password-1")).status_code == 200
        for attempt in range(5):
            r = await session.post(
                "/api/me/password", json={"currentPassword": f"guess-{attempt}", "newPassword": "x" * 8}
            )
            assert r.status_code == 422
        r = await session.post(
            "/api/me/password", json={"currentPassword": "right-password-1", "newPassword": "new-password-9"}
        )
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
        async with make_client(app) as other:  # the account's login waits out the same window
            assert (await _login(other, email, "right-password-1")).status_code == 429


async def test_password_change_needs_both_fields(customer: httpx.AsyncClient, anon: httpx.AsyncClient) -> None:
    assert (await customer.post("/api/me/password", json={"newPassword": "whatever-123"})).status_code == 422
    r = await anon.post("/api/me/password", json={"currentPassword": "a", "newPassword": "b" * 8})
    assert r.status_code == 401
