"""What the API shows of a price check (`verification` on every idea) and an idea's candles."""

from datetime import datetime
from typing import Literal

from pydantic import Field

from tradeideas.core.schemas import CamelModel

PriceFeedName = Literal["binance", "oanda", "dukascopy"]
VerificationState = Literal["waiting", "triggered", "settled", "unverifiable", "off"]
VerifiedOutcome = Literal["exit1", "exit2", "exit3", "invalidation", "manual", "not_triggered", "ambiguous"]


class ReceiptOut(CamelModel):
    """The candle that proves one step."""

    step: Literal["triggered", "exit1", "exit2", "exit3", "stop"]
    at: datetime
    granularity: str = Field(
        description="1m or 1s (Binance), M1 or S5 (OANDA), T1m or T1s (Dukascopy, built from its ticks)"
    )
    candle_time: datetime
    open: str
    high: str
    low: str
    close: str
    side: Literal["bid", "ask"] | None = Field(description="Forex: the side the step traded on; null for crypto")
    price: str = Field(description="The level, or the first price beyond it when the price gapped through it")


class Verification(CamelModel):
    """The idea settled independently from a named price feed (decision 0050)."""

    state: VerificationState
    outcome: VerifiedOutcome | None
    r_multiple: float | None
    settlement_price: str | None = Field(description="The exit or stop level it settled at, or the gap fill")
    triggered_at: datetime | None
    settled_at: datetime | None
    mae_r: float | None = Field(description="Worst move from the trigger to settlement, in R (<= 0)")
    mfe_r: float | None = Field(description="Best move from the trigger to settlement, in R (>= 0)")
    feed: PriceFeedName | None
    symbol: str | None = Field(description="The feed's symbol: BTCUSDT, EUR_USD (OANDA), EURUSD (Dukascopy)")
    reason: str | None = Field(
        description="Why the idea cannot be checked (state unverifiable), as members read it after 'Price check: ' "
        "(not available for SPX500 yet)"
    )
    detail: str | None = Field(default=None, description="The same for operators: which feed lacks what")
    receipts: list[ReceiptOut]
    agrees: bool | None = Field(description="Whether it agrees with the educator's outcome, once both exist")


class CandleOut(CamelModel):
    time: int = Field(description="Opening time, epoch seconds")
    open: float
    high: float
    low: float
    close: float


class CandlesOut(CamelModel):
    """The idea's symbol from an hour before publishing to settlement (or now); bid candles for forex."""

    feed: PriceFeedName | None
    symbol: str | None
    granularity: str | None = Field(description="The candles' size, 1m to 1d: the idea's window in 60-200 candles")
    precision: int = Field(description="Decimals of the pair's prices, as the educator wrote the levels (1.0850: 4)")
    side: Literal["bid"] | None = Field(default=None, description="bid for forex (bid and ask feeds); null for crypto")
    candles: list[CandleOut]


class VerifiedFigures(CamelModel):
    """An educator's ideas as the price checks settled them (ambiguous candles count as the stop; unverifiable
    ideas are left out)."""

    settled: int = Field(description="Ideas the price check settled (not triggered included)")
    wins: int
    losses: int
    win_rate: float | None = Field(description="wins / (wins + losses); null when there are none")
    total_r: float
    average_r: float | None
    unverifiable: int = Field(description="Ideas the feeds cannot check (unknown symbol, no forex feed): counted apart")
