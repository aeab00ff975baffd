"""What the proof routes answer: ledger entries as hashed, the head of the chain and the days' fingerprints."""

import datetime as dt

from pydantic import Field

from tradeideas.core.schemas import CamelModel

HASH = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256, 64 lower-case hex characters")


class EntryOut(CamelModel):
    """One ledger entry. `hash` = SHA-256 hex of `prevHash + "\\n" + ` the RFC 8785 canonical JSON of the entry
    without `hash`."""

    seq: int = Field(ge=1)
    at: str = Field(
        description="When the ledger recorded the entry, never before the entry it follows; UTC, always written as "
        "YYYY-MM-DDTHH:MM:SS.ffffffZ"
    )
    kind: str = Field(description="idea.published, idea.edited, idea.result, idea.deleted or idea.price_check")
    subject_id: int = Field(description="The idea the entry is about")
    payload: dict[str, str | None] = Field(
        description="The idea's levels, status, outcome, createdAt and closedAt after the change (for "
        "idea.price_check: the step, the price and `candleAt`, the time of the candle that proves it); every number "
        "is a string"
    )
    prev_hash: str = HASH
    hash: str = HASH


class LedgerPage(CamelModel):
    entries: list[EntryOut]
    next_after: int | None = Field(description="Pass as `after` for the next page; null when there is none")


class Head(CamelModel):
    seq: int = Field(ge=0, description="The last entry's position (0 while the ledger is empty)")
    hash: str = HASH


class TimestampOut(CamelModel):
    """An RFC 3161 time-stamp of the chain's hash at `seq` (decision 0100). The token's imprint is SHA-256 of the
    hash's 64 hex characters: `openssl ts -verify -data FILE -in TOKEN -token_in -CAfile CA` with FILE holding the
    hash checks it."""

    authority: str = Field(description="The time-stamp authority's host, e.g. freetsa.org")
    at: dt.datetime = Field(description="The time the authority signed (the token's genTime), UTC")
    seq: int = Field(ge=1)
    hash: str = HASH
    token: str = Field(description="The authority's token (a DER CMS SignedData), base64")


class DayFingerprint(CamelModel):
    """A UTC day's fingerprint: the hash of its last entry, which fixes every entry before it. Entries are dated when
    they are recorded, so once the day is over its fingerprint never changes."""

    date: dt.date
    first_seq: int
    last_seq: int
    entries: int
    hash: str = HASH
    timestamps: list[TimestampOut] = Field(
        default_factory=list,
        description="In /api/proof: the time-stamps of the fingerprint itself; in /api/proof/days/{date}: every "
        "time-stamp of the day's entries (the fingerprint's and the hourly heads')",
    )


class VerifierOut(CamelModel):
    """The standalone verifier (`tools/verify_ledger.py`, standard-library Python) as this server offers it."""

    url: str = Field(description="Where to download it (served as text)")
    sha256: str = HASH


class Proof(CamelModel):
    head: Head
    days: list[DayFingerprint] = Field(description="Newest day first")
    timestamps: list[TimestampOut] = Field(description="Each time-stamp authority's most recent time-stamp")
    verifier: VerifierOut
