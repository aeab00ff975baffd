"""Events the price checks publish."""

from datetime import datetime
from typing import Literal

from tradeideas.core.events import ALL, SERVER, DomainEvent
from tradeideas.prices.schemas import Verification


class IdeaVerificationChanged(DomainEvent):
    """An idea's price check moved (a step, a verdict, a change of state): open pages update its line."""

    type: Literal["idea.verification"] = "idea.verification"
    receivers = ALL
    id: int
    educator_id: int
    verification: Verification


class IdeaPriceChecked(DomainEvent):
    """One settlement step, published in the transaction that records it (for the ledger's `idea.price_check`)."""

    type: Literal["idea.price_check"] = "idea.price_check"
    receivers = SERVER
    idea_id: int
    educator_id: int
    # reopened: an idea no feed could check (no forex feed configured) is checked now that one is
    step: Literal["triggered", "exit1", "exit2", "exit3", "stop", "settled", "unverifiable", "reopened"]
    at: datetime
    feed: str | None
    symbol: str | None
    price: str | None
    outcome: str | None
    r_multiple: float | None


EVENTS = (IdeaVerificationChanged, IdeaPriceChecked)
