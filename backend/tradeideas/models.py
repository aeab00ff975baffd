"""Imports every domain's tables so that Alembic and tests see the whole schema."""

from tradeideas.admin.models import AccountToken, AuditEntry
from tradeideas.auth.models import LoginAttempt, Session, User
from tradeideas.chat.models import ChatMessage, ChatReaction, ChatRoom
from tradeideas.core.models import AppMeta, ServerKey
from tradeideas.db import Base
from tradeideas.desk.models import IdeaTaken, JournalEntry, RiskSettings
from tradeideas.ideas.models import IdeaImage, IdeaRevision, IdeaSetup, IdeaView, TradeIdea
from tradeideas.ledger.models import LedgerDay, LedgerEntry
from tradeideas.media.models import MediaFile
from tradeideas.notifications.models import CustomerIdeaState, MutedEducator
from tradeideas.prices.models import IdeaVerification, PriceCandle
from tradeideas.push.models import PushDelivery, PushSubscription
from tradeideas.realtime.models import Event
from tradeideas.trackrecords.models import TrackRecordTotal, WithdrawnIdea

__all__ = [
    "AccountToken",
    "AppMeta",
    "AuditEntry",
    "Base",
    "ChatMessage",
    "ChatReaction",
    "ChatRoom",
    "CustomerIdeaState",
    "Event",
    "IdeaImage",
    "IdeaRevision",
    "IdeaSetup",
    "IdeaTaken",
    "IdeaVerification",
    "IdeaView",
    "JournalEntry",
    "LedgerDay",
    "LedgerEntry",
    "LoginAttempt",
    "MediaFile",
    "MutedEducator",
    "PriceCandle",
    "PushDelivery",
    "PushSubscription",
    "RiskSettings",
    "ServerKey",
    "Session",
    "TrackRecordTotal",
    "TradeIdea",
    "User",
    "WithdrawnIdea",
]
