"""What a push says: the notification texts for a new idea, a closed idea, a chat message and a quiet-hours summary.

They are built from the typed events (`IdeaOut`, `MessageOut`: the data the API shows), never from dicts with
defaults; the sample trade notification builds the same `IdeaNotice` from the test form.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tradeideas.chat.schemas import MessageOut
from tradeideas.core.schemas import IdeaType, OrderType
from tradeideas.ideas.schemas import IdeaOut, IdeaOutcome

CHAT_PREVIEW = 120  # characters of a chat message shown in its notification
UNNAMED_EDUCATOR = "Professional Educator"


@dataclass(frozen=True)
class IdeaNotice:
    """The parts of an idea a notification names."""

    educator_name: str
    market: Literal["forex", "crypto"]
    pair: str
    idea_type: IdeaType
    order_type: OrderType
    id: int | None = None  # None: a sample (test) notification
    chart_url: str | None = None
    status: str = "active"
    outcome: IdeaOutcome | None = None
    close_price: str | None = None

    @classmethod
    def of(cls, idea: IdeaOut) -> "IdeaNotice":
        return cls(
            educator_name=idea.educator_name,
            market=idea.market,
            pair=idea.pair,
            idea_type=idea.idea_type,
            order_type=idea.order_type,
            id=idea.id,
            chart_url=idea.chart_url,
            status=idea.status,
            outcome=idea.outcome,
            close_price=idea.close_price,
        )


def idea_notification(idea: IdeaNotice) -> dict[str, Any]:
    """The Web Push message for a new idea: educator, market, pair, idea type and direction; chart as image."""
    direction = "Bullish" if idea.order_type == "BUY" else "Bearish"
    message: dict[str, Any] = {
        "title": f"New {idea.market.capitalize()} trade idea from {idea.educator_name or UNNAMED_EDUCATOR}",
        "body": f"{idea.pair} · {idea.idea_type} · {direction} ({idea.order_type})",
        "url": f"/customer/{idea.market}",
        "tag": f"idea-{idea.id if idea.id is not None else 'sample'}",
        "kind": "trade-idea",
        "market": idea.market,
        "pair": idea.pair,
    }
    if idea.id is not None:
        message["ideaId"] = idea.id
    if idea.chart_url:
        message["image"] = idea.chart_url
    return message


def channel_message(notification: Mapping[str, Any]) -> dict[str, Any]:
    text = f"{notification['title']}\n{notification['body']}\nOpen the app to see the entry and exit levels."
    return {"text": text}


# How an idea ended, after "EUR/USD BUY" (the wording of the front end's outcome labels).
ENDINGS = {
    "exit1": "closed: exit 1 reached",
    "exit2": "closed: exit 2 reached",
    "exit3": "closed: exit 3 reached",
    "invalidation": "stopped at invalidation",
    "not_triggered": "not triggered",
}


def ending(idea: IdeaNotice) -> str:
    """ "closed: exit 2 reached", "stopped at invalidation", "closed at 1.0921", "not triggered"; ideas
    without a recorded outcome say their status ("closed: successful")."""
    if idea.outcome == "manual":
        return f"closed at {idea.close_price or 'a manual price'}"
    if idea.outcome is not None:
        return ENDINGS[idea.outcome]
    return f"closed: {idea.status}"


def closed_notification(idea: IdeaNotice) -> dict[str, Any]:
    """The push for an idea that ended: how it ended, opening that idea's own page."""
    idea_type = idea.idea_type.lower()
    return {
        "title": f"{idea.pair} {idea.order_type} {ending(idea)}",
        "body": f"{idea.educator_name or UNNAMED_EDUCATOR} · {idea.market.capitalize()} · {idea_type}",
        "url": f"/customer/ideas/{idea.id}" if idea.id is not None else f"/customer/{idea.market}/{idea_type}",
        "tag": f"idea-closed-{idea.id if idea.id is not None else 'sample'}",
        "kind": "idea-closed",
        "market": idea.market,
        "pair": idea.pair,
        "ideaId": idea.id,
    }


def chat_notification(message: MessageOut, room_name: str) -> dict[str, Any]:
    """The push for an educator's chat message: who wrote in which room, the start of the text; opens the room."""
    text = message.message
    return {
        "title": f"{message.user_name or UNNAMED_EDUCATOR} in {room_name}",
        "body": text if len(text) <= CHAT_PREVIEW else text[: CHAT_PREVIEW - 1].rstrip() + "…",
        "url": f"/customer/chat?room={message.room_id}",
        "tag": f"chat-{message.room_id}",  # a newer message in the same room replaces the older notification
        "kind": "chat-message",
        "roomId": message.room_id,
        "messageId": message.id,
    }


SUMMARY_KINDS = {"trade-idea": ("new idea", "new ideas"), "idea-closed": ("closed idea", "closed ideas")}
SUMMARY_KINDS["chat-message"] = ("chat message", "chat messages")


def summary_notification(held: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One notification for what arrived during quiet hours ("3 new ideas while you were away"), from the stored
    messages of the held deliveries (built by the functions above)."""
    counts: dict[str, int] = {}
    for m in held:
        kind = str(m.get("kind")) if m.get("kind") in SUMMARY_KINDS else "trade-idea"
        counts[kind] = counts.get(kind, 0) + 1
    parts = [f"{n} {SUMMARY_KINDS[kind][0 if n == 1 else 1]}" for kind, n in counts.items()]
    what = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    pairs = [str(m.get("pair")) for m in held if m.get("pair")]
    shown = ", ".join(pairs[:3]) + (f" and {len(pairs) - 3} more" if len(pairs) > 3 else "")
    return {
        "title": f"{what} while you were away",
        "body": shown or "Open the app to see them.",
        "url": "/customer/dashboard",
        "tag": "quiet-hours-summary",
        "kind": "summary",
    }
