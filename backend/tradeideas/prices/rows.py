"""A price check's row: where its idea is checked (feed and symbol, or why not), its progress as stored (JSON)
and as the API shows it.
"""

from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from tradeideas.ideas.outcomes import Levels
from tradeideas.prices import settlement
from tradeideas.prices.feeds.binance import binance_symbol
from tradeideas.prices.feeds.dukascopy import dukascopy_instrument
from tradeideas.prices.feeds.oanda import oanda_instrument
from tradeideas.prices.models import IdeaVerification
from tradeideas.prices.progress import Plan, Progress, Receipt, plan_for
from tradeideas.prices.schemas import ReceiptOut, Verification
from tradeideas.settings import Settings

# Operators' words (the receipts' detail and the log); members read `NOT_AVAILABLE`.
NO_FOREX_FEED = "no forex feed configured (FOREX_FEED=off, or oanda without OANDA_TOKEN)"
NO_INSTRUMENT = "the pair has no {feed} symbol"
UNKNOWN_SYMBOL = "{feed} does not know {symbol}: {message}"
NOT_AVAILABLE = "not available for {pair} yet"
CHART_LEAD = timedelta(hours=1)  # the chart (and the stored candles) start this long before publishing
DETAIL_KEEP = timedelta(days=1)  # finer candles are kept this long: the receipts copy the ones that prove a step
BASE = {"binance": "1m", "oanda": "M1", "dukascopy": "T1m"}
TWO_SIDED = frozenset({"oanda", "dukascopy"})  # bid and ask: a BUY triggers on the ask, exits on the bid
FEED_LABELS = {"binance": "Binance", "oanda": "OANDA", "dukascopy": "Dukascopy"}


@dataclass(frozen=True)
class SeriesOf:
    """Where an idea is checked: the feed and its symbol, or why it cannot be (members' words, operators' words)."""

    feed: str | None
    symbol: str | None
    reason: str | None = None
    detail: str | None = None


def series_of(market: str, pair: str, settings: Settings) -> SeriesOf:
    """Crypto on Binance; forex, metals and indices on the forex feed in use (OANDA or Dukascopy)."""
    not_available = NOT_AVAILABLE.format(pair=pair.strip()[:32])
    if market == "crypto":
        symbol = binance_symbol(pair)
        if symbol is None:
            return SeriesOf("binance", None, not_available, NO_INSTRUMENT.format(feed="Binance"))
        return SeriesOf("binance", symbol)
    forex = settings.forex_feed_in_use
    if forex == "dukascopy":
        found = dukascopy_instrument(pair)
        if found is None:
            return SeriesOf("dukascopy", None, not_available, NO_INSTRUMENT.format(feed="Dukascopy"))
        return SeriesOf("dukascopy", found[0])
    instrument = oanda_instrument(pair)
    if instrument is None:
        return SeriesOf("oanda", None, not_available, NO_INSTRUMENT.format(feed="OANDA"))
    if forex == "off" or not settings.oanda_token:
        return SeriesOf("oanda", instrument, not_available, NO_FOREX_FEED)
    return SeriesOf("oanda", instrument)


def to_epoch(moment: datetime) -> int:
    return int(moment.timestamp())


def to_moment(epoch: int | None) -> datetime | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC)


# ---------------------------------------------------------------- progress <-> JSON


def decimal_text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def dump_progress(p: Progress) -> dict[str, Any]:
    data = asdict(p)
    data.pop("needs_detail", None)
    data["receipts"] = [
        {k: (str(v) if isinstance(v, Decimal) else v) for k, v in asdict(r).items()} for r in p.receipts
    ]
    for key in ("settlement_price", "mae", "mfe", "last_close", "last_entry_close"):
        data[key] = decimal_text(getattr(p, key))
    return data


def load_progress(data: dict[str, Any]) -> Progress:
    if not data:
        return Progress()
    receipts = tuple(
        Receipt(
            step=r["step"],
            at=r["at"],
            granularity=r["granularity"],
            candle_time=r["candle_time"],
            open=Decimal(r["open"]),
            high=Decimal(r["high"]),
            low=Decimal(r["low"]),
            close=Decimal(r["close"]),
            side=r["side"],
            price=Decimal(r["price"]),
        )
        for r in data.get("receipts", [])
    )
    fields = {k: v for k, v in data.items() if k in Progress.__dataclass_fields__}
    for key in ("settlement_price", "mae", "mfe", "last_close", "last_entry_close"):
        if fields.get(key) is not None:
            fields[key] = Decimal(fields[key])
    fields["receipts"] = receipts
    return Progress(**fields)


def levels_dict(levels: Levels) -> dict[str, str | None]:
    return asdict(levels)


def plan_of(row: IdeaVerification) -> Plan | str:
    levels = Levels(**row.levels)  # type: ignore[arg-type]
    return plan_for(levels, to_epoch(row.published_at), two_sided=row.feed in TWO_SIDED)


# ---------------------------------------------------------------- what the API shows


def r_rounded(value: Decimal | None) -> float | None:
    return None if value is None else float(value.quantize(Decimal("0.01")))


def shown(row: IdeaVerification, feed_off: bool) -> dict[str, Any]:
    """The `verification` object, as JSON (pydantic's own encoding, so list pages and single reads match)."""
    state = row.state
    if feed_off and state in ("waiting", "triggered"):
        state = "off"
    model = Verification(
        state=state,
        outcome=row.outcome,
        r_multiple=row.r_multiple,
        settlement_price=row.settlement_price,
        triggered_at=row.triggered_at,
        settled_at=row.settled_at,
        mae_r=row.mae_r,
        mfe_r=row.mfe_r,
        feed=row.feed,
        symbol=row.symbol,
        reason=row.reason,
        detail=(row.progress or {}).get("detail"),
        receipts=[ReceiptOut.model_validate(r) for r in row.receipts],
        agrees=settlement.agrees(row.outcome, row.educator_outcome) if row.state == "settled" else None,
    )
    return model.model_dump(mode="json", by_alias=True)


def _receipt_json(r: Receipt) -> dict[str, Any]:
    return ReceiptOut(
        step=r.step,
        at=to_moment(r.at),
        granularity=r.granularity,
        candle_time=to_moment(r.candle_time),
        open=str(r.open),
        high=str(r.high),
        low=str(r.low),
        close=str(r.close),
        side=r.side,
        price=str(r.price),
    ).model_dump(mode="json", by_alias=True)


def apply_progress(row: IdeaVerification, p: Progress) -> None:
    row.state = p.state
    row.done = p.done
    row.outcome = p.outcome
    row.r_multiple = p.r_multiple
    row.settlement_price = decimal_text(p.settlement_price)
    row.triggered_at = to_moment(p.triggered_at)
    row.settled_at = to_moment(p.settled_at)
    row.mae_r = r_rounded(p.mae)
    row.mfe_r = r_rounded(p.mfe)
    row.reason = p.reason
    row.receipts = [_receipt_json(r) for r in p.receipts]
    row.progress = dump_progress(p)
