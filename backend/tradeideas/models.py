"""Imports every domain's tables so that Alembic and tests see the whole schema."""

from tradeideas.auth.models import LoginAttempt, Session, User
from tradeideas.chat.models import ChatMessage, ChatReaction, ChatRoom
from tradeideas.core.models import AppMeta
from tradeideas.db import Base
from tradeideas.ideas.models import CustomerIdeaState, IdeaImage, IdeaRevision, IdeaView, TradeIdea
from tradeideas.media.models import MediaFile
from tradeideas.push.models import PushDelivery, PushSubscription
from tradeideas.realtime.models import Event

__all__ = [
    "AppMeta",
    "Base",
    "ChatMessage",
    "ChatReaction",
    "ChatRoom",
    "CustomerIdeaState",
    "Event",
    "IdeaImage",
    "IdeaRevision",
    "IdeaView",
    "LoginAttempt",
    "MediaFile",
    "PushDelivery",
    "PushSubscription",
    "Session",
    "TradeIdea",
    "User",
]
