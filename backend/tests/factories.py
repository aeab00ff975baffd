"""Rows written straight to the database, for tests that need more ideas than the API would be quick to make."""

from typing import Any

from tradeideas.ideas.models import TradeIdea


def open_idea(market: str = "forex", **fields: Any) -> TradeIdea:
    """An open BUY idea (levels 1 / 0.5 / 2) in `market`; `fields` override any column."""
    values: dict[str, Any] = {
        "educator_id": 1,
        "market_type": "Crypto" if market == "crypto" else "Forex",
        "market": market,
        "order_type": "BUY",
        "idea_type": "Exchange" if market == "crypto" else "Leverage",
        "pair": "EUR/USD",
        "time_frame": "1H",
        "entry1": "1",
        "invalidation_level": "0.5",
        "exit1": "2",
    }
    return TradeIdea(**(values | fields))
