"""The ledger's documented form, with nothing else in it: what an entry is, how it is written as canonical JSON and
how its hash is computed. `tools/verify_ledger.py` repeats this with the standard library alone; keep both equal.

hash = SHA-256 hex of prevHash + "\\n" + canonical JSON of the entry without `hash`, where canonical JSON is
RFC 8785 (keys sorted, no whitespace, UTF-8). Every number in a payload is a string, so the only numbers an entry
holds are `seq` and `subjectId` (integers, written as plain decimals, which is what RFC 8785 makes of them).
"""

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

GENESIS = "0" * 64
Kind = Literal["idea.published", "idea.edited", "idea.result", "idea.deleted", "idea.price_check", "idea.lesson"]
KINDS: tuple[Kind, ...] = (
    "idea.published",
    "idea.edited",
    "idea.result",
    "idea.deleted",
    "idea.price_check",
    "idea.lesson",
)
Payload = dict[str, str | None]
# The entries that describe an idea's state (its levels, status and outcome after the change); a price check's entry
# records a step of the independent settlement instead and leaves the idea's state as it was, and a lesson's entry
# (`idea.lesson`) records what the educator learned after the close, beside the state (decision 0171).
STATE_KINDS: frozenset[str] = frozenset({"idea.published", "idea.edited", "idea.result", "idea.deleted"})


# One C-coded pass writes the JSON: Python's json escapes strings as ECMAScript's JSON.stringify does (RFC 8785
# 3.2.2.2: only `"`, `\` and control characters, the short forms where JSON has them, otherwise \u00xx in lower
# case) and keeps a dict's order, which `_ordered` has made RFC 8785's. Written value by value in Python, an entry
# took 0.1 ms to hash, a sixth of an append (bench/RESULTS.md).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _utf16_units(key: str) -> bytes:
    return key.encode("utf-16-be")


def _ordered(value: Any) -> Any:
    """The value with every object's keys in UTF-16 code unit order (RFC 8785 3.2.3), having checked that it holds
    only what canonical JSON writes exactly. Code point order (Python's) is the same when every key is ASCII."""
    if isinstance(value, str) or value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > 2**53:
            raise ValueError("integers beyond 2**53 are not exact in RFC 8785")
        return value
    if isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            raise TypeError("object keys must be strings")
        keys = sorted(value)
        if not all(map(str.isascii, keys)):
            keys.sort(key=_utf16_units)
        return {key: _ordered(value[key]) for key in keys}
    if isinstance(value, list | tuple):
        return [_ordered(v) for v in value]
    raise TypeError(f"the ledger keeps no {type(value).__name__} values (numbers go in as strings)")


def canonical(value: Any) -> str:
    """RFC 8785 canonical JSON of objects, arrays, strings, integers, booleans and null.

    Floats are refused: the ledger keeps numbers as strings, so no two programs can disagree on how one is
    printed. Keys are sorted by UTF-16 code units, as RFC 8785 says (the same as code points for the ASCII keys
    the ledger uses, but a payload key outside the BMP would sort differently)."""
    return _ENCODER.encode(_ordered(value))


def format_at(moment: datetime) -> str:
    """One spelling for every moment: UTC, microseconds, `Z` (`2026-11-26T11:20:00.000000Z`)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class Entry:
    seq: int
    at: str
    kind: str
    subject_id: int
    payload: Payload
    prev_hash: str

    def body(self) -> dict[str, Any]:
        """The entry without its hash, under the names the API shows."""
        return {
            "seq": self.seq,
            "at": self.at,
            "kind": self.kind,
            "subjectId": self.subject_id,
            "payload": self.payload,
            "prevHash": self.prev_hash,
        }

    def hash(self) -> str:
        return entry_hash(self.prev_hash, self.body())


def entry_hash(prev_hash: str, body: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + "\n" + canonical(body)).encode("utf-8")).hexdigest()


class IdeaState(Protocol):
    """What the ledger records of an idea: an event of the ideas domain or a row of its table has these (read-only,
    so a narrower type such as a Literal fits)."""

    @property
    def educator_id(self) -> int: ...
    @property
    def pair(self) -> str: ...
    @property
    def market_type(self) -> str: ...
    @property
    def order_type(self) -> str: ...
    @property
    def idea_type(self) -> str: ...
    @property
    def time_frame(self) -> str: ...
    @property
    def entry1(self) -> str: ...
    @property
    def entry2(self) -> str | None: ...
    @property
    def invalidation_level(self) -> str: ...
    @property
    def exit1(self) -> str: ...
    @property
    def exit2(self) -> str | None: ...
    @property
    def exit3(self) -> str | None: ...
    @property
    def setup_id(self) -> int | None: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def status(self) -> str: ...
    @property
    def outcome(self) -> str | None: ...
    @property
    def close_price(self) -> str | None: ...
    @property
    def r_multiple(self) -> float | None: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def closed_at(self) -> datetime | None: ...


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def idea_payload(idea: IdeaState) -> Payload:
    """The idea's identity (its setup and reason too), levels, status, outcome and dates as the ledger keeps them
    (every number a string; R with the two decimals it is stored with; moments as `format_at` writes them). Every
    field that shapes a record is here, so `verify-ledger` can compare each with the table (decisions 0080, 0170)."""
    r = idea.r_multiple
    closed = idea.closed_at
    return {
        "educatorId": str(idea.educator_id),
        "pair": idea.pair,
        "marketType": _text(idea.market_type),
        "orderType": _text(idea.order_type),
        "ideaType": _text(idea.idea_type),
        "timeFrame": idea.time_frame,
        "entry1": idea.entry1,
        "entry2": idea.entry2,
        "invalidationLevel": idea.invalidation_level,
        "exit1": idea.exit1,
        "exit2": idea.exit2,
        "exit3": idea.exit3,
        "setupId": _text(idea.setup_id),
        "reason": idea.reason,
        "status": _text(idea.status),
        "outcome": idea.outcome,
        "closePrice": idea.close_price,
        "rMultiple": None if r is None else f"{r:.2f}",
        "createdAt": format_at(idea.created_at),
        "closedAt": None if closed is None else format_at(closed),
    }


LESSON_KIND: Kind = "idea.lesson"


def lesson_payload(educator_id: int, what_happened: str, lesson: str) -> Payload:
    """A completed idea's lesson as the ledger keeps it (`idea.lesson`, decision 0171)."""
    return {"educatorId": str(educator_id), "whatHappened": what_happened, "lesson": lesson}


# Fields added to the payload after entries were first written (decisions 0080 and 0170): an entry hashed without
# them says nothing about them, so they are compared only where the ledger's last entry for the idea holds them.
LATER_FIELDS: frozenset[str] = frozenset({"createdAt", "closedAt", "setupId", "reason"})


@dataclass(frozen=True)
class Planned:
    """An entry to append, before the chain gives it a place."""

    at: datetime
    kind: Kind
    subject_id: int
    payload: Payload


class StoredIdea(IdeaState, Protocol):
    @property
    def id(self) -> int: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def lesson_what_happened(self) -> str | None: ...
    @property
    def lesson_text(self) -> str | None: ...
    @property
    def lesson_at(self) -> datetime | None: ...


def entries_for_existing(ideas: Iterable[StoredIdea]) -> list[Planned]:
    """Entries for ideas written before the ledger (or by the demo seed): each idea's publication with its
    current levels and an open status, then its result when it has one and its lesson when it has one, all in the
    order they happened."""
    planned: list[Planned] = []
    for idea in ideas:
        current = idea_payload(idea)
        published = {
            **current,
            "status": "active",
            "outcome": None,
            "closePrice": None,
            "rMultiple": None,
            "closedAt": None,
        }
        planned.append(Planned(idea.created_at, "idea.published", idea.id, published))
        if current != published:
            planned.append(Planned(idea.closed_at or idea.updated_at, "idea.result", idea.id, current))
        if idea.lesson_at is not None and idea.lesson_what_happened is not None and idea.lesson_text is not None:
            lesson = lesson_payload(idea.educator_id, idea.lesson_what_happened, idea.lesson_text)
            planned.append(Planned(idea.lesson_at, LESSON_KIND, idea.id, lesson))
    planned.sort(key=lambda p: (p.at, p.kind != "idea.published", p.kind == LESSON_KIND, p.subject_id))
    return planned
