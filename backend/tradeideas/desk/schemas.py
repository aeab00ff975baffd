"""Request and response bodies of the customer's desk (JSON in camelCase)."""

import math
import re
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, ValidationInfo, WithJsonSchema, field_validator
from pydantic.alias_generators import to_camel

from tradeideas.core.schemas import CamelModel, Id, IdeaType, OrderType, TradeLevels

DEFAULT_ACCOUNT_SIZE = 10_000.0
DEFAULT_CURRENCY = "USD"
DEFAULT_RISK_PERCENT = 1.0
DEFAULT_LEVERAGE = 1.0
# Risking more than this on one trade is refused: a few losses in a row would empty the account (issue #26).
MAX_RISK_PERCENT = 10.0
MAX_AMOUNT = 1e12
NOTE_MAX = 2000

BAD_ACCOUNT_SIZE = "accountSize must be a number greater than 0"
BAD_RISK_PERCENT = "Risk per trade must be from 0.01 % to 10 % of your account (10 % is the limit)"
BAD_LEVERAGE = "leverage must be a number from 1 to 500"
BAD_CURRENCY = "accountCurrency must be a currency code of 3 to 5 letters, like USD"
BAD_PRICE = "{label} must be a number greater than 0"
NOTE_TOO_LONG = f"note must be at most {NOTE_MAX} characters"
CURRENCY = re.compile(r"^[A-Z]{3,5}$")
PRICE_TEXT_MAX = 32
# A plain decimal as typed: "1.0850", "150", ".5", "1." (thousands commas are dropped first; no exponent, no sign).
PRICE_TEXT = re.compile(r"^([0-9]*\.?[0-9]+|[0-9]+\.)$")


def _number(value: Any, message: str, low: float, high: float, *, low_inclusive: bool = True) -> float:
    """A finite JSON number (or numeric text) within [low, high]; anything else is `message`."""
    if isinstance(value, bool):
        raise ValueError(message)
    if isinstance(value, str):
        try:
            value = float(value.strip().replace(",", ""))
        except ValueError:
            raise ValueError(message) from None
    if not isinstance(value, int | float):
        raise ValueError(message)
    number = float(value)
    too_low = number < low if low_inclusive else number <= low
    if math.isnan(number) or too_low or number > high:
        raise ValueError(message)
    return number


def _price(value: Any, label: str) -> float | None:
    if value is None:
        return None
    return _number(value, BAD_PRICE.format(label=label), 0, MAX_AMOUNT, low_inclusive=False)


def price_text(value: Any, label: str) -> str | None:
    """A price kept with the digits typed ("1.0850" stays "1.0850"), like an idea's levels; None stays None.

    A JSON number is taken too (its shortest text: 1.085 -> "1.085"); anything not a decimal above 0 is refused.
    """
    message = BAD_PRICE.format(label=label)
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(message)
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError(message)
        value = repr(value) if isinstance(value, float) else str(value)
        value = value[:-2] if value.endswith(".0") else value
    if not isinstance(value, str):
        raise ValueError(message)
    text = value.strip().replace(",", "")
    if len(text) > PRICE_TEXT_MAX or not PRICE_TEXT.fullmatch(text):
        raise ValueError(message)
    if not 0 < Decimal(text) <= Decimal(int(MAX_AMOUNT)):
        raise ValueError(message)
    return text


# What `price_text` accepts, said in the OpenAPI text: decimal text, or a JSON number (taken as its text).
PriceText = Annotated[str, WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "number"}]})]
OptionalPriceText = Annotated[
    str | None, WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]})
]


def _note(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("note must be text")
    value = value.strip()
    if len(value) > NOTE_MAX:
        raise ValueError(NOTE_TOO_LONG)
    return value or None


class RiskSettingsBody(CamelModel):
    """The customer's account for position sizing: size and currency, risk per trade in %, leverage."""

    model_config = ConfigDict(extra="forbid")

    account_size: float = Field(DEFAULT_ACCOUNT_SIZE, gt=0, le=MAX_AMOUNT)
    account_currency: str = Field(DEFAULT_CURRENCY, min_length=3, max_length=5, pattern=r"^[A-Za-z]{3,5}$")
    risk_percent: float = Field(DEFAULT_RISK_PERCENT, ge=0.01, le=MAX_RISK_PERCENT)
    leverage: float = Field(DEFAULT_LEVERAGE, ge=1, le=500)

    @field_validator("account_size", mode="before")
    @classmethod
    def _size(cls, v: Any) -> float:
        return _number(v, BAD_ACCOUNT_SIZE, 0, MAX_AMOUNT, low_inclusive=False)

    @field_validator("risk_percent", mode="before")
    @classmethod
    def _risk(cls, v: Any) -> float:
        return _number(v, BAD_RISK_PERCENT, 0.01, MAX_RISK_PERCENT)

    @field_validator("leverage", mode="before")
    @classmethod
    def _leverage(cls, v: Any) -> float:
        return _number(v, BAD_LEVERAGE, 1, 500)

    @field_validator("account_currency", mode="before")
    @classmethod
    def _currency(cls, v: Any) -> str:
        if not isinstance(v, str) or not CURRENCY.fullmatch(v.strip().upper()):
            raise ValueError(BAD_CURRENCY)
        return v.strip().upper()


class _JournalNote(CamelModel):
    model_config = ConfigDict(extra="forbid")

    note: str | None = Field(default=None, max_length=NOTE_MAX)

    @field_validator("note", mode="before")
    @classmethod
    def _note(cls, v: Any) -> str | None:
        return _note(v)

    @field_validator("size", mode="before", check_fields=False)
    @classmethod
    def _size(cls, v: Any, info: ValidationInfo) -> float | None:
        return _price(v, to_camel(info.field_name or ""))

    @field_validator("fill_price", "exit_price", mode="before", check_fields=False)
    @classmethod
    def _prices(cls, v: Any, info: ValidationInfo) -> str | None:
        return price_text(v, to_camel(info.field_name or ""))


class JournalCreate(_JournalNote):
    """Record that the caller took an idea: the price they got (kept as typed), their size (units), a note."""

    idea_id: Id
    fill_price: PriceText = Field(description="Decimal text above 0, kept with the digits typed (1.0850)")
    size: float | None = Field(default=None, gt=0, le=MAX_AMOUNT)


class JournalUpdate(_JournalNote):
    """Close an entry with the price you got out at (null reopens it), or change its note."""

    exit_price: OptionalPriceText = Field(default=None, description="Decimal text above 0, kept as typed")


class JournalEntryOut(TradeLevels):
    id: int
    idea_id: int | None = Field(description="null once the educator deleted the idea; the copied levels stay")
    educator_name: str
    market: Literal["forex", "crypto"]
    pair: str
    order_type: OrderType
    idea_type: IdeaType
    fill_price: str = Field(description="As typed (1.0850)")
    size: float | None
    exit_price: str | None = Field(description="As typed; null while open")
    note: str | None
    status: Literal["open", "closed"]
    r_multiple: float | None = Field(
        description="Closed entries: (exit - fill) / |fill - invalidation|, mirrored for SELL"
    )
    pnl: float | None = Field(description="Closed entries: rMultiple x riskAmount, in accountCurrency")
    risk_amount: float
    account_currency: str
    idea_status: Literal["active", "pending", "successful", "unsuccessful", "invalidated"] | None = Field(
        description="The educator's recorded status of the idea now (null once it was deleted)"
    )
    idea_r_multiple: float | None = Field(
        description="The educator's recorded result of the idea in R (null while open, not triggered or deleted)"
    )
    checked_r_multiple: float | None = Field(
        default=None, description="The idea's price-checked R (null until its check settled with a trade)"
    )
    management_cost_r: float | None = Field(
        default=None,
        description="Closed entries with a price-checked idea: checkedRMultiple - rMultiple (positive: managing cost)",
    )
    created_at: datetime
    closed_at: datetime | None


class JournalTotals(CamelModel):
    entries: int
    open: int
    closed: int
    wins: int
    win_rate: float | None = Field(description="Share of closed entries with a positive result, 0-1")
    total_r: float
    total_pnl: float
    account_currency: str
    compared: int = Field(description="Closed entries whose idea has the educator's called R too (the comparison)")
    own_average_r: float | None = Field(description="The caller's average R over those entries; null without any")
    called_average_r: float | None = Field(description="The educators' called R of the same ideas, on average")


class JournalOut(CamelModel):
    entries: list[JournalEntryOut]
    totals: JournalTotals


class SetupCost(CamelModel):
    setup_id: int | None = Field(description="null: ideas that name no setup")
    setup_name: str | None
    educator_name: str | None = Field(
        description="Whose setup it is (setups of different educators may share a name); null with setupId"
    )
    count: int
    average_cost_r: float


class ManagementCost(CamelModel):
    """Over the caller's closed entries whose idea's price check settled with a trade."""

    count: int
    average_cost_r: float | None = Field(description="Average of (price-checked R - own R); null without entries")
    interval95: list[float] | None = Field(description="[low, high] of the average (Student's t); null under 2")
    by_setup: list[SetupCost] = Field(description="Per setup the ideas named, the costliest first")


class JournalSummaryOut(CamelModel):
    management_cost: ManagementCost


CurrencyCode = Annotated[str, Field(pattern=r"^[A-Za-z]{3,5}$", description="A currency code, like JPY or USDT")]


class ConversionRateOut(CamelModel):
    """What one unit of `from` is worth in `to`, from the price feed's latest stored price (null: none known)."""

    from_currency: str = Field(serialization_alias="from")
    to_currency: str = Field(serialization_alias="to")
    rate: str | None = Field(description="Decimal text; null when no feed is configured or it has no recent price")
    as_of: datetime | None = Field(description="When the price the rate comes from was quoted")
    feed: Literal["oanda", "dukascopy", "binance"] | None
