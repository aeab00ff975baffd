"""The ledger's tables: the hash-chained entries, and one fingerprint row per UTC day.

`ledger_entries` is only ever appended to (`service.append`); its primary key is the position in the chain, so
two writers that both read the same head cannot both add the next entry: the second insert fails instead of
forking the chain. `payload` is stored as the canonical JSON text it was hashed in.
"""

from datetime import date, datetime

from sqlalchemy import BigInteger, Date, Index, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tradeideas.db import Base, UTCDateTime


class LedgerEntry(Base):
    __tablename__ = "ledger_entries"
    # An idea's history (the last payload before an edit, the state `verify-ledger` compares with the table).
    __table_args__ = (Index("ix_ledger_entries_subject", "subject_id", "seq"),)

    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    at: Mapped[str] = mapped_column(String(32))  # `chain.format_at`, exactly as hashed
    kind: Mapped[str] = mapped_column(String(24))
    subject_id: Mapped[int] = mapped_column(Integer)
    payload: Mapped[str] = mapped_column(Text)  # canonical JSON, exactly as hashed
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)  # when it was appended (not hashed)


class LedgerDay(Base):
    """A UTC day's fingerprint: the hash of its last entry (by `at`), kept up to date by every append."""

    __tablename__ = "ledger_days"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    first_seq: Mapped[int] = mapped_column(BigInteger)
    last_seq: Mapped[int] = mapped_column(BigInteger)
    entries: Mapped[int] = mapped_column(Integer)
    hash: Mapped[str] = mapped_column(String(64))
    # When the fingerprint was posted to the messaging channel (null: not yet, or no channel configured).
    posted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)


class LedgerTimestamp(Base):
    """An RFC 3161 time-stamp of the chain's hash at `seq` by one authority (decision 0100): a day's fingerprint or
    the running head. `token` is the authority's signed token (DER), checked when it arrived and by both verifiers;
    `at` is the time it states. One per authority and position: the head stamped at the day's last entry is that
    day's fingerprint stamped too."""

    __tablename__ = "ledger_timestamps"
    __table_args__ = (
        UniqueConstraint("authority", "seq"),
        Index("ix_ledger_timestamps_seq", "seq"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    authority: Mapped[str] = mapped_column(String(500))  # the URL it was asked at
    seq: Mapped[int] = mapped_column(BigInteger)
    hash: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    token: Mapped[bytes] = mapped_column(LargeBinary)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TimestampAuthority(Base):
    """How each authority in TSA_URLS last answered, for the health check and the retries' backoff."""

    __tablename__ = "timestamp_authorities"

    url: Mapped[str] = mapped_column(String(500), primary_key=True)
    last_success: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    last_failure: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    failures: Mapped[int] = mapped_column(Integer, default=0)  # in a row; 0 after a success
    next_try_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
