"""How an idea ended and what it made, in R (multiples of the risk taken). Pure functions, no database.

Levels are free text: they are read as decimal numbers (thousands separators and a leading sign allowed);
where a level that is needed is not a number, R is null and the idea still counts as a win or a loss.
R is taken from the levels as they stood at the end of the correction window (see `levels_at`).
"""

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Literal

from pydantic.alias_generators import to_camel

from tradeideas.core.errors import Invalid
from tradeideas.core.schemas import LEVEL_NAMES
from tradeideas.ideas.models import IdeaStatus

# Edits within this time after publishing are corrections: they leave no trace in the track record. The same
# window follows the recording of a result: after it, the result is part of the record for good.
CORRECTION_WINDOW = timedelta(minutes=15)
# A manual close further than this from the entry, in R, is a typo (a price from another pair or a missing digit).
MAX_MANUAL_R = Decimal(20)


def identity_fixed_at(created_at: datetime) -> datetime:
    """When an idea's market, pair, direction, type and time frame stop being editable (from publishing)."""
    return created_at + CORRECTION_WINDOW


def result_fixed_at(closed_at: datetime | None) -> datetime | None:
    """When a recorded result stops being correctable (from its recording); None while the idea is open."""
    return None if closed_at is None else closed_at + CORRECTION_WINDOW


def lesson_fixed_at(lesson_at: datetime | None) -> datetime | None:
    """When a lesson stops being correctable (from when it was first written); None while there is none."""
    return None if lesson_at is None else lesson_at + CORRECTION_WINDOW


Outcome = Literal["exit1", "exit2", "exit3", "invalidation", "manual", "not_triggered"]
OUTCOMES: tuple[Outcome, ...] = ("exit1", "exit2", "exit3", "invalidation", "manual", "not_triggered")
# Which outcomes each completing status allows, the first being the default (the spec's one-click buttons).
STATUS_OUTCOMES: dict[IdeaStatus, tuple[Outcome, ...]] = {
    IdeaStatus.SUCCESSFUL: ("exit1", "exit2", "exit3", "manual"),
    IdeaStatus.UNSUCCESSFUL: ("invalidation", "manual"),
    IdeaStatus.INVALIDATED: ("not_triggered",),
}
MANUAL_NEEDS_PRICE = "A manual close needs a numeric closePrice"
CLOSE_PRICE_NOT_NUMBER = "closePrice must be a number"
CLOSE_PRICE_NOT_POSITIVE = "closePrice must be a positive number"
CLOSE_PRICE_ONLY_MANUAL = "closePrice is only given for a manual close"
OUTCOME_ON_OPEN = "An outcome is only given when an idea is completed"

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_SEPARATORS = str.maketrans("", "", ",_' \u00a0\u202f")


def parse_level(text: str | None) -> Decimal | None:
    """'1,234.50' -> 1234.50, '-0.5' -> -0.5; anything else (words, ranges, empty) -> None."""
    if text is None:
        return None
    cleaned = text.strip().translate(_SEPARATORS)
    if not _NUMBER.fullmatch(cleaned):
        return None
    try:
        return Decimal(cleaned)
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid decimals
        return None


@dataclass(frozen=True)
class Levels:
    """The fields R depends on, as text (as the educator wrote them)."""

    order_type: str
    entry1: str
    entry2: str | None
    invalidation_level: str
    exit1: str
    exit2: str | None
    exit3: str | None

    def with_field(self, label: str, value: str | None) -> "Levels":
        attr = LEVEL_FIELDS.get(label)
        if attr is None:
            return self
        if value is None and attr in {"order_type", "entry1", "invalidation_level", "exit1"}:
            return self  # a required field is never cleared; keep what is known
        return replace(self, **{attr: value})  # type: ignore[arg-type]


# Revision labels (JSON names) of the fields R depends on, and their attributes: the direction and the levels.
LEVEL_FIELDS: dict[str, str] = {"orderType": "order_type", **{to_camel(name): name for name in LEVEL_NAMES}}


def planned_entry(levels: Levels) -> Decimal | None:
    """Entry 1, or the mean of entry 1 and entry 2 when both are given."""
    first = parse_level(levels.entry1)
    if levels.entry2 is None:
        return first
    second = parse_level(levels.entry2)
    if first is None or second is None:
        return None
    return (first + second) / 2


def close_level(levels: Levels, outcome: str, close_price: str | None) -> Decimal | None:
    if outcome in ("exit1", "exit2", "exit3"):
        return parse_level(getattr(levels, outcome))
    if outcome == "invalidation":
        return parse_level(levels.invalidation_level)
    if outcome == "manual":
        return parse_level(close_price)
    return None  # not_triggered: no trade, no R


def exact_r(levels: Levels, close: Decimal | None) -> Decimal | None:
    """(close - entry) / risk for BUY, (entry - close) / risk for SELL, unrounded; None when it cannot be known."""
    entry = planned_entry(levels)
    stop = parse_level(levels.invalidation_level)
    if entry is None or stop is None or close is None or entry == stop:
        return None
    move = close - entry if levels.order_type == "BUY" else entry - close
    return move / abs(entry - stop)


def _two_places(r: Decimal) -> Decimal:
    return r.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def r_multiple(levels: Levels, outcome: str, close_price: str | None) -> float | None:
    """`exact_r` at the outcome's close level, rounded to 2 decimals."""
    r = exact_r(levels, close_level(levels, outcome, close_price))
    return None if r is None else float(_two_places(r))


def normalise_close_price(value: str | None) -> str | None:
    """The close price as sent (trimmed); 422 when it is not a positive number."""
    if value is None or not value.strip():
        return None
    price = parse_level(value)
    if price is None:
        raise Invalid(CLOSE_PRICE_NOT_NUMBER, code="invalid_close_price")
    if price <= 0:
        raise Invalid(CLOSE_PRICE_NOT_POSITIVE, code="invalid_close_price")
    return value.strip()


def check_manual_close(levels: Levels, close_price: str) -> None:
    """422 when a manual close price lies more than `MAX_MANUAL_R` from the entry (where R can be known)."""
    r = exact_r(levels, parse_level(close_price))
    if r is not None and abs(r) > MAX_MANUAL_R:
        raise Invalid(
            f"A close at {close_price} would make this idea {_two_places(r):+} R: a manual close can be at most "
            f"{MAX_MANUAL_R} R from the entry. Check the price.",
            code="implausible_close_price",
        )


def resolve_outcome(
    status: IdeaStatus, outcome: str | None, close_price: str | None, exits: dict[str, str | None]
) -> tuple[Outcome | None, str | None]:
    """The outcome a status change records (defaults for the one-click buttons) and its close price.

    `exits` are the idea's current exit levels: an outcome naming an exit the idea does not have is refused.
    """
    allowed = STATUS_OUTCOMES.get(status)
    if allowed is None:  # active / pending: reopening clears the outcome
        if outcome is not None or close_price is not None:
            raise Invalid(OUTCOME_ON_OPEN, code="invalid_outcome")
        return None, None
    chosen: Outcome = allowed[0] if outcome is None else _known(outcome)
    if chosen not in allowed:
        raise Invalid(f"Outcome {chosen} does not fit status {status.value}", code="invalid_outcome")
    if chosen.startswith("exit") and not exits.get(chosen):
        raise Invalid(f"This idea has no Exit {chosen[-1]}", code="invalid_outcome")
    if chosen == "manual":
        if close_price is None:
            raise Invalid(MANUAL_NEEDS_PRICE, code="invalid_close_price")
        return chosen, close_price
    if close_price is not None:
        raise Invalid(CLOSE_PRICE_ONLY_MANUAL, code="invalid_close_price")
    return chosen, None


def _known(outcome: str) -> Outcome:
    for known in OUTCOMES:
        if outcome == known:
            return known
    raise Invalid(f"Outcome must be one of {', '.join(OUTCOMES)}", code="invalid_outcome")


def manual_status(sent: IdeaStatus, r: float | None) -> IdeaStatus:
    """A manual close is successful when in profit, otherwise unsuccessful; unknown profit keeps the sent status."""
    if r is None:
        return sent
    return IdeaStatus.SUCCESSFUL if r > 0 else IdeaStatus.UNSUCCESSFUL
