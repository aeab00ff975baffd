"""Chat: rooms, history pages, posting rules, author-only edit and soft delete, reactions."""

import io
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from tests.chat.conftest import room_ids
from tradeideas.auth.models import User
from tradeideas.chat.models import ChatMessage, ChatReaction, ChatRoom

MESSAGE_KEYS = {
    "id",
    "roomId",
    "userId",
    "userName",
    "userRole",
    "specialty",
    "userImage",
    "message",
    "imageUrl",
    "createdAt",
    "updatedAt",
    "isEdited",
    "hearts",
    "likes",
    "hearted",
    "liked",
}


async def _room(client: httpx.AsyncClient, name: str = "Leverage Ideas") -> int:
    return (await room_ids(client))[name]


async def _post(client: httpx.AsyncClient, room: int, text: str | None = "hello", **extra: Any) -> httpx.Response:
    body: dict[str, Any] = {"message": text, **extra}
    return await client.post(f"/api/chat/rooms/{room}/messages", json=body)


async def _history(client: httpx.AsyncClient, room: int, **params: Any) -> dict[str, Any]:
    r = await client.get(f"/api/chat/rooms/{room}/messages", params=params)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def test_rooms_are_the_two_named_rooms_oldest_first(app: FastAPI, customer: httpx.AsyncClient) -> None:
    async with app.state.db.sessionmaker() as s, s.begin():
        s.add(ChatRoom(name="Staff Room"))
    try:
        r = await customer.get("/api/chat/rooms")
        assert r.status_code == 200
        assert [room["name"] for room in r.json()] == ["Leverage Ideas", "Exchange Ideas"]
        assert set(r.json()[0]) == {"id", "name", "createdAt"}
        async with app.state.db.sessionmaker() as s:
            hidden = (await s.execute(select(ChatRoom.id).where(ChatRoom.name == "Staff Room"))).scalar_one()
        assert (await customer.get(f"/api/chat/rooms/{hidden}/messages")).status_code == 404
    finally:
        async with app.state.db.sessionmaker() as s, s.begin():
            await s.execute(delete(ChatRoom).where(ChatRoom.name == "Staff Room"))


async def test_anonymous_cannot_read_rooms_or_messages(anon: httpx.AsyncClient, customer: httpx.AsyncClient) -> None:
    room = await _room(customer)
    assert (await anon.get("/api/chat/rooms")).status_code == 401
    r = await anon.get(f"/api/chat/rooms/{room}/messages")
    assert r.status_code == 401 and r.json()["code"] == "unauthorized"


async def test_educator_posts_and_customer_reads_with_author_profile(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    room = await _room(customer)
    r = await _post(educator_a, room, "  EUR/USD looks strong  ")
    assert r.status_code == 201, r.text
    posted = r.json()
    assert set(posted) == MESSAGE_KEYS
    assert posted["message"] == "EUR/USD looks strong"
    assert posted["userName"] == "Alex Morgan" and posted["userRole"] == "educator"
    assert posted["specialty"] == "Forex Trading" and posted["userId"] == 1
    assert posted["isEdited"] is False and posted["imageUrl"] is None
    assert (posted["hearts"], posted["likes"], posted["hearted"], posted["liked"]) == (0, 0, False, False)
    page = await _history(customer, room)
    assert [m["id"] for m in page["items"]] == [posted["id"]]
    assert page["nextCursor"] is None
    other = await _history(customer, await _room(customer, "Exchange Ideas"))
    assert other["items"] == []


async def test_customers_and_anonymous_cannot_post(customer: httpx.AsyncClient, anon: httpx.AsyncClient) -> None:
    room = await _room(customer)
    r = await _post(customer, room)
    assert r.status_code == 403
    assert r.json()["code"] == "educator_only"
    assert (await _post(anon, room)).status_code == 401
    assert (await _history(customer, room))["items"] == []


async def test_post_to_unknown_room_is_404(educator_a: httpx.AsyncClient) -> None:
    assert (await _post(educator_a, 999_999)).status_code == 404


@pytest.mark.parametrize("text", [None, "", "   \n\t "])
async def test_post_needs_text_or_image(educator_a: httpx.AsyncClient, text: str | None) -> None:
    r = await _post(educator_a, await _room(educator_a), text)
    assert r.status_code == 422
    assert r.json()["message"] == "Please enter a message or attach an image"


async def test_message_length_is_bounded(educator_a: httpx.AsyncClient) -> None:
    room = await _room(educator_a)
    r = await _post(educator_a, room, "x" * 2001)
    assert r.status_code == 422
    assert r.json()["message"] == "Message must be 2000 characters or fewer"
    r = await _post(educator_a, room, "x" * 2000)
    assert r.status_code == 201
    mid = r.json()["id"]
    r = await educator_a.patch(f"/api/chat/messages/{mid}", json={"message": "y" * 2001})
    assert r.status_code == 422 and r.json()["message"] == "Message must be 2000 characters or fewer"


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (20, 120, 200)).save(out, "PNG")
    return out.getvalue()


async def test_image_only_message_gets_default_text(educator_a: httpx.AsyncClient, customer: httpx.AsyncClient) -> None:
    upload = await educator_a.post("/api/media", files={"file": ("chart.png", _png(), "image/png")})
    assert upload.status_code == 201, upload.text
    media = upload.json()
    room = await _room(educator_a)
    r = await _post(educator_a, room, "   ", imageId=media["id"])
    assert r.status_code == 201, r.text
    assert r.json()["message"] == "Shared an image" and r.json()["imageUrl"] == media["url"]
    r = await _post(educator_a, room, "with text", imageId=media["id"])
    assert r.json()["message"] == "with text" and r.json()["imageUrl"] == media["url"]
    items = (await _history(customer, room))["items"]
    assert [m["imageUrl"] for m in items] == [media["url"], media["url"]]


async def test_image_must_belong_to_the_poster(educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient) -> None:
    media = (await educator_a.post("/api/media", files={"file": ("chart.png", _png(), "image/png")})).json()
    room = await _room(educator_b)
    r = await _post(educator_b, room, "", imageId=media["id"])
    assert r.status_code == 422 and r.json()["code"] == "unknown_image"
    r = await _post(educator_b, room, "", imageId=999_999)
    assert r.status_code == 422 and r.json()["code"] == "unknown_image"
    assert (await _history(educator_b, room))["items"] == []


async def test_author_edits_own_message(educator_a: httpx.AsyncClient, customer: httpx.AsyncClient) -> None:
    room = await _room(educator_a)
    posted = (await _post(educator_a, room, "first")).json()
    r = await educator_a.patch(f"/api/chat/messages/{posted['id']}", json={"message": " second "})
    assert r.status_code == 200, r.text
    edited = r.json()
    assert edited["message"] == "second" and edited["isEdited"] is True
    assert edited["updatedAt"] >= posted["updatedAt"] and edited["createdAt"] == posted["createdAt"]
    seen = (await _history(customer, room))["items"][0]
    assert seen["message"] == "second" and seen["isEdited"] is True


async def test_edit_needs_text(educator_a: httpx.AsyncClient) -> None:
    posted = (await _post(educator_a, await _room(educator_a))).json()
    for body in ({"message": "   "}, {"message": ""}):
        r = await educator_a.patch(f"/api/chat/messages/{posted['id']}", json=body)
        assert r.status_code == 422 and r.json()["message"] == "Message cannot be empty"
    assert (await educator_a.patch(f"/api/chat/messages/{posted['id']}", json={})).status_code == 422


async def test_only_the_author_may_edit_or_delete(
    educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient, customer: httpx.AsyncClient, anon: httpx.AsyncClient
) -> None:
    room = await _room(educator_a)
    mid = (await _post(educator_a, room, "mine")).json()["id"]
    for client, status, code in ((educator_b, 403, "not_owner"), (customer, 403, "educator_only"), (anon, 401, None)):
        r = await client.patch(f"/api/chat/messages/{mid}", json={"message": "hijack"})
        assert r.status_code == status, r.text
        r2 = await client.delete(f"/api/chat/messages/{mid}")
        assert r2.status_code == status, r2.text
        if code:
            assert r.json()["code"] == code and r2.json()["code"] == code
    item = (await _history(customer, room))["items"][0]
    assert item["message"] == "mine" and item["isEdited"] is False


async def test_soft_delete_hides_message_from_everyone(
    app: FastAPI, educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    room = await _room(educator_a)
    keep = (await _post(educator_a, room, "keep")).json()["id"]
    gone = (await _post(educator_a, room, "gone")).json()["id"]
    r = await educator_a.delete(f"/api/chat/messages/{gone}")
    assert r.status_code == 204
    for client in (educator_a, educator_b, customer):
        assert [m["id"] for m in (await _history(client, room))["items"]] == [keep]
    assert [m["id"] for m in (await _history(educator_a, room, mine="true"))["items"]] == [keep]
    # Gone for every operation too, and the row is kept (soft delete).
    assert (await educator_a.patch(f"/api/chat/messages/{gone}", json={"message": "x"})).status_code == 404
    assert (await educator_a.delete(f"/api/chat/messages/{gone}")).status_code == 404
    assert (await customer.put(f"/api/chat/messages/{gone}/reactions/heart")).status_code == 404
    async with app.state.db.sessionmaker() as s:
        row = await s.get(ChatMessage, gone)
        assert row is not None and row.is_deleted is True


async def test_reactions_toggle_idempotently_and_count_per_user(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, customer_b: httpx.AsyncClient
) -> None:
    room = await _room(educator_a)
    mid = (await _post(educator_a, room, "react to me")).json()["id"]
    url = f"/api/chat/messages/{mid}/reactions"

    r = await customer.put(f"{url}/heart")
    assert r.status_code == 200, r.text
    assert (r.json()["hearts"], r.json()["hearted"], r.json()["likes"], r.json()["liked"]) == (1, True, 0, False)
    r = await customer.put(f"{url}/heart")  # again: still one heart from this customer
    assert (r.json()["hearts"], r.json()["hearted"]) == (1, True)

    r = await customer_b.put(f"{url}/heart")
    assert (r.json()["hearts"], r.json()["hearted"]) == (2, True)
    r = await customer_b.put(f"{url}/like")
    assert (r.json()["likes"], r.json()["liked"]) == (1, True)

    mine = (await _history(customer, room))["items"][0]
    assert (mine["hearts"], mine["hearted"], mine["likes"], mine["liked"]) == (2, True, 1, False)
    theirs = (await _history(customer_b, room))["items"][0]
    assert (theirs["hearts"], theirs["hearted"], theirs["likes"], theirs["liked"]) == (2, True, 1, True)
    author = (await _history(educator_a, room))["items"][0]
    assert (author["hearts"], author["hearted"], author["likes"], author["liked"]) == (2, False, 1, False)

    r = await customer.delete(f"{url}/heart")
    assert r.status_code == 200 and (r.json()["hearts"], r.json()["hearted"]) == (1, False)
    r = await customer.delete(f"{url}/heart")  # removing twice changes nothing
    assert (r.json()["hearts"], r.json()["hearted"]) == (1, False)
    r = await customer.delete(f"{url}/like")  # never liked: nothing to remove
    assert r.json()["likes"] == 1

    # Educators may react too.
    r = await educator_a.put(f"{url}/like")
    assert (r.json()["likes"], r.json()["liked"]) == (2, True)


async def test_reaction_kind_and_message_are_checked(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient, anon: httpx.AsyncClient
) -> None:
    mid = (await _post(educator_a, await _room(educator_a))).json()["id"]
    assert (await customer.put(f"/api/chat/messages/{mid}/reactions/star")).status_code == 422
    assert (await customer.put("/api/chat/messages/999999/reactions/like")).status_code == 404
    assert (await anon.put(f"/api/chat/messages/{mid}/reactions/like")).status_code == 401


async def test_one_reaction_of_a_kind_per_user_in_the_database(
    app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    mid = (await _post(educator_a, await _room(educator_a))).json()["id"]
    async with app.state.db.sessionmaker() as s:
        uid = (await s.execute(select(User.id).where(User.email == "customer@example.com"))).scalar_one()
        s.add(ChatReaction(message_id=mid, user_id=uid, kind="heart"))
        await s.commit()
        s.add(ChatReaction(message_id=mid, user_id=uid, kind="heart"))
        with pytest.raises(IntegrityError):
            await s.commit()


async def test_history_pages_newest_first_with_cursor(
    educator_a: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    room = await _room(educator_a)
    ids = [(await _post(educator_a, room, f"m{i}")).json()["id"] for i in range(5)]
    page1 = await _history(customer, room, limit=2)
    assert [m["id"] for m in page1["items"]] == ids[3:5]
    page2 = await _history(customer, room, limit=2, before=page1["nextCursor"])
    assert [m["id"] for m in page2["items"]] == ids[1:3]
    page3 = await _history(customer, room, limit=2, before=page2["nextCursor"])
    assert [m["id"] for m in page3["items"]] == ids[0:1]
    assert page3["nextCursor"] is None
    assert [m["id"] for m in (await _history(customer, room))["items"]] == ids
    assert (await customer.get(f"/api/chat/rooms/{room}/messages", params={"limit": 0})).status_code == 422
    assert (await customer.get(f"/api/chat/rooms/{room}/messages", params={"limit": 101})).status_code == 422


async def test_mine_shows_only_the_educators_own_messages(
    educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient
) -> None:
    room = await _room(educator_a)
    a = (await _post(educator_a, room, "from A")).json()["id"]
    b = (await _post(educator_b, room, "from B")).json()["id"]
    assert [m["id"] for m in (await _history(educator_a, room, mine="true"))["items"]] == [a]
    assert [m["id"] for m in (await _history(educator_b, room, mine="true"))["items"]] == [b]
    assert [m["id"] for m in (await _history(educator_a, room))["items"]] == [a, b]


async def test_author_name_comes_from_the_current_profile(
    app: FastAPI, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    room = await _room(educator_a)
    await _post(educator_a, room, "before rename")
    try:
        r = await educator_a.put("/api/me/profile", json={"firstName": "Alexander", "specialty": "Day Trading"})
        assert r.status_code == 200, r.text
        item = (await _history(customer, room))["items"][0]
        assert item["userName"] == "Alexander Morgan" and item["specialty"] == "Day Trading"
        await educator_a.put("/api/me/profile", json={"firstName": "", "lastName": ""})
        assert (await _history(customer, room))["items"][0][
            "userName"
        ] == "Professional Educator"  # the spec's fallback, as on ideas
    finally:
        async with app.state.db.sessionmaker() as s, s.begin():
            await s.execute(
                update(User)
                .where(User.id == 1)
                .values(first_name="Alex", last_name="Morgan", specialty="Forex Trading")
            )
