"""Every idea and chat change reaches a connected client as an event carrying the API's object."""

import httpx

from tests.realtime.conftest import LiveServer, SSEClient

IDEA = {
    "marketType": "Forex",
    "orderType": "SELL",
    "ideaType": "Exchange",
    "pair": "GBP/USD",
    "timeFrame": "1H",
    "entry1": "1.2700",
    "invalidationLevel": "1.2760",
    "exit1": "1.2600",
}


async def test_idea_changes_stream_in_order(
    live: LiveServer, customer_token: str, educator_a: httpx.AsyncClient
) -> None:
    async with SSEClient(live.url, customer_token) as client:
        created = (await educator_a.post("/api/trade-ideas", json=IDEA)).json()
        event = await client.next()
        assert event.type == "idea.created"
        assert event.data["id"] == created["id"] and event.data["pair"] == "GBP/USD"
        assert event.data["isNew"] is None  # shared payload: no per-customer flag

        await educator_a.patch(f"/api/trade-ideas/{created['id']}", json={"exit1": "1.2550"})
        event = await client.next()
        assert (event.type, event.data["exit1"], event.data["edited"]) == ("idea.updated", "1.2550", True)

        await educator_a.put(f"/api/trade-ideas/{created['id']}", json={"status": "success"})
        event = await client.next()
        assert (event.type, event.data["status"], event.data["outcome"]) == ("idea.status", "successful", "exit1")
        event = await client.next()  # the educator's track record changed on the closing day
        assert (event.type, event.data["educatorId"], len(event.data["days"])) == ("idea.record", 1, 1)

        # Completed ideas stay in the track record; reopened (within the correction window) it may go.
        await educator_a.put(f"/api/trade-ideas/{created['id']}", json={"status": "pending"})
        assert [(await client.next()).type for _ in range(2)] == ["idea.status", "idea.record"]
        await educator_a.delete(f"/api/trade-ideas/{created['id']}")
        event = await client.next()
        assert event.type == "idea.deleted" and event.data["id"] == created["id"]


async def test_refused_change_emits_nothing(
    live: LiveServer, customer_token: str, educator_a: httpx.AsyncClient, educator_b: httpx.AsyncClient
) -> None:
    async with SSEClient(live.url, customer_token) as client:
        created = (await educator_a.post("/api/trade-ideas", json=IDEA)).json()
        assert (await client.next()).type == "idea.created"
        refused = await educator_b.patch(f"/api/trade-ideas/{created['id']}", json={"exit1": "9"})
        assert refused.status_code == 403
        await educator_a.delete(f"/api/trade-ideas/{created['id']}")
        assert (await client.next()).type == "idea.deleted"  # nothing in between


async def test_chat_changes_and_reactions_stream(
    live: LiveServer, customer_token: str, educator_a: httpx.AsyncClient, customer: httpx.AsyncClient
) -> None:
    room = (await educator_a.get("/api/chat/rooms")).json()[0]
    async with SSEClient(live.url, customer_token) as client:
        posted = (await educator_a.post(f"/api/chat/rooms/{room['id']}/messages", json={"message": "Hi"})).json()
        event = await client.next()
        assert (event.type, event.data["id"], event.data["message"]) == ("chat.message.created", posted["id"], "Hi")

        await educator_a.patch(f"/api/chat/messages/{posted['id']}", json={"message": "Hello"})
        event = await client.next()
        assert (event.type, event.data["message"], event.data["isEdited"]) == ("chat.message.updated", "Hello", True)

        await customer.put(f"/api/chat/messages/{posted['id']}/reactions/heart")
        event = await client.next()
        assert (event.type, event.data["hearts"], event.data["hearted"]) == ("chat.reaction.updated", 1, False)
        await customer.put(f"/api/chat/messages/{posted['id']}/reactions/heart")  # no change: no event

        await educator_a.delete(f"/api/chat/messages/{posted['id']}")
        event = await client.next()
        deleted = {"id": posted["id"], "roomId": room["id"], "userId": 1}  # userId: who deleted it (audit log)
        assert event.type == "chat.message.deleted" and event.data == deleted
