"""`tradeideas verify-ledger`: recompute the whole chain and hold it against the live tables.

The chain is read in batches by position. Each entry's hash is recomputed from its stored fields in the documented
form (`chain`), its `prevHash` must be the previous entry's hash and its position the previous one's plus one, so an
edited, inserted or deleted row is named by the first position where the chain breaks. Then every idea in the table
must stand exactly as the ledger last described it, field by field (levels, setup, reason, status, outcome, close
price, R, `createdAt`, `closedAt`), every idea the ledger knows must still be there unless the ledger recorded its
deletion, every final price check must be the verdict the ledger last recorded for it, and every stored aggregate
(`track_record_totals`) must be what the ideas make when recomputed: a change made behind the app's back is named
by its table, its row and its field (decision 0080). Every RFC 3161 time-stamp kept in `ledger_timestamps` must be
a token signed by the certificate in it (chaining to `trusted` when given) whose imprint is SHA-256 of the chain's
hash at that position now, so a tail rewritten after a time-stamp is named by the first token it breaks (decision
0100).
"""

import hashlib
import json
from dataclasses import dataclass, field

from cryptography import x509
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.ideas import service as ideas
from tradeideas.ledger import tsa
from tradeideas.ledger.chain import (
    GENESIS,
    LATER_FIELDS,
    LESSON_KIND,
    STATE_KINDS,
    StoredIdea,
    idea_payload,
    lesson_payload,
)
from tradeideas.ledger.models import LedgerDay, LedgerEntry, LedgerTimestamp
from tradeideas.prices import reads as price_checks
from tradeideas.trackrecords import service as track_records

BATCH = 10_000
COLUMNS = (
    LedgerEntry.seq,
    LedgerEntry.at,
    LedgerEntry.kind,
    LedgerEntry.subject_id,
    LedgerEntry.payload,
    LedgerEntry.prev_hash,
    LedgerEntry.hash,
)
# Price checks describe the market's view of an idea, not the idea's own fields: they do not change its state.
# Their final step (the verdict) is held against `idea_verifications`.
VERDICT_STEPS = ('"step":"settled"', '"step":"unverifiable"')
# The table's column of each payload field, to name what differs.
COLUMN = {
    "educatorId": "educator_id",
    "marketType": "market_type",
    "orderType": "order_type",
    "ideaType": "idea_type",
    "timeFrame": "time_frame",
    "entry1": "entry_1",
    "entry2": "entry_2",
    "invalidationLevel": "invalidation_level",
    "exit1": "exit_1",
    "exit2": "exit_2",
    "exit3": "exit_3",
    "setupId": "setup_id",
    "closePrice": "close_price",
    "rMultiple": "r_multiple",
    "createdAt": "created_at",
    "closedAt": "closed_at",
}


@dataclass
class Report:
    entries: int = 0
    ideas: int = 0
    head_seq: int = 0
    head_hash: str = GENESIS
    problems: list[str] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        return not self.problems


def _hash(seq: int, at: str, kind: str, subject_id: int, payload: str, prev_hash: str) -> str:
    """The documented hash of a stored row. `payload` is stored as the canonical text it was hashed in, so the
    canonical entry is assembled around it (keys in RFC 8785 order: at, kind, payload, prevHash, seq, subjectId)
    instead of parsing and re-serialising a million payloads. `at`, `kind` and `prevHash` are ASCII without
    characters JSON escapes when the app writes them, so quoting them is their canonical form; a row stored in any
    other form (edited by hand) cannot reproduce its hash and fails the check."""
    body = (
        f'{{"at":"{at}","kind":"{kind}","payload":{payload},'
        f'"prevHash":"{prev_hash}","seq":{seq},"subjectId":{subject_id}}}'
    )
    return hashlib.sha256(f"{prev_hash}\n{body}".encode()).hexdigest()


def _pair(payload: str) -> str:
    try:
        return str(json.loads(payload).get("pair"))
    except ValueError:
        return "?"


async def verify(db: AsyncSession, trusted: list[x509.Certificate] | None = None) -> Report:
    """The chain and the tables checked; `problems` lists what is wrong, the first break of the chain first, then
    the first time-stamp that fails. `trusted`: the time-stamp authorities' CA certificates (`--tsa-ca`)."""
    report = Report()
    days = {d.last_seq: d for d in (await db.execute(select(LedgerDay))).scalars()}
    stamped = set((await db.execute(select(LedgerTimestamp.seq).distinct())).scalars())
    hash_at: dict[int, str] = {}
    # Per idea: (kind, canonical payload text, seq) of the last entry that described its state.
    last: dict[int, tuple[str, str, int]] = {}
    # Per idea: (canonical payload text, seq) of its last price-check verdict, and of its last lesson.
    verdict: dict[int, tuple[str, int]] = {}
    lessons: dict[int, tuple[str, int]] = {}
    prev, expected = GENESIS, 1
    broken = False
    while not broken:
        rows = (
            await db.execute(select(*COLUMNS).where(LedgerEntry.seq >= expected).order_by(LedgerEntry.seq).limit(BATCH))
        ).all()
        for seq, at, kind, subject_id, payload, prev_hash, stored in rows:
            if seq != expected:
                report.problems.append(f"Ledger entry seq {expected} is missing (the next one is seq {seq})")
            elif prev_hash != prev:
                report.problems.append(f"Ledger entry seq {seq} does not follow seq {seq - 1}: prevHash differs")
            elif _hash(seq, at, kind, subject_id, payload, prev_hash) != stored:
                report.problems.append(f"Ledger entry seq {seq} was changed: its hash does not match its content")
            if report.problems:
                broken = True
                break
            if kind in STATE_KINDS:
                last[subject_id] = (kind, payload, seq)
            elif kind == LESSON_KIND:
                lessons[subject_id] = (payload, seq)
            elif any(step in payload for step in VERDICT_STEPS):
                verdict[subject_id] = (payload, seq)
            if seq in stamped:
                hash_at[seq] = stored
            day = days.pop(seq, None)
            if day is not None and day.hash != stored:
                report.problems.append(f"The fingerprint of {day.day} differs from the hash of entry seq {seq}")
            prev, expected = stored, expected + 1
            report.entries += 1
        if not rows:
            break
    report.head_seq, report.head_hash = expected - 1, prev
    if broken:
        return report
    report.problems.extend(await _timestamp_problems(db, hash_at, report.head_seq, trusted))
    for day in days.values():
        report.problems.append(
            f"The fingerprint of {day.day} names entry seq {day.last_seq}, which is not in the chain"
        )
    async for batch in ideas.idea_states(db):
        for idea in batch:
            report.ideas += 1
            known = last.pop(idea.id, None)
            if known is None:
                report.problems.append(f"Idea #{idea.id} {idea.pair} has no ledger entry")
                continue
            kind, text, seq = known
            if kind == "idea.deleted":
                report.problems.append(
                    f"Idea #{idea.id} {idea.pair} is in the table, but the ledger deleted it (seq {seq})"
                )
                continue
            recorded, current = json.loads(text), idea_payload(idea)
            differ = [
                k
                for k in sorted(set(recorded) | set(current))
                if recorded.get(k) != current.get(k) and (k in recorded or k not in LATER_FIELDS)
            ]
            if differ:
                changes = ", ".join(
                    f"trade_ideas.{COLUMN.get(k, k)} {current.get(k)!r} (ledger: {recorded.get(k)!r})" for k in differ
                )
                report.problems.append(f"Idea #{idea.id} {idea.pair} differs from the ledger (seq {seq}): {changes}")
            report.problems.extend(_lesson_problems(idea, lessons.pop(idea.id, None)))
    for subject, (kind, text, seq) in sorted(last.items()):
        if kind != "idea.deleted":
            report.problems.append(f"Idea #{subject} {_pair(text)} is gone without a ledger entry (last: seq {seq})")
    async for rows in price_checks.verdicts(db):
        for idea_id, state, outcome, r in rows:
            recorded_verdict = verdict.pop(idea_id, None)
            name = f"idea_verifications row {idea_id}"
            if recorded_verdict is None:
                report.problems.append(f"{name} is {state} without a ledger entry for its verdict")
                continue
            step = json.loads(recorded_verdict[0])
            want = {"state": step.get("step"), "outcome": step.get("outcome"), "r_multiple": step.get("rMultiple")}
            have = {"state": state, "outcome": outcome, "r_multiple": None if r is None else f"{r:.2f}"}
            for column in want:
                if want[column] != have[column]:
                    report.problems.append(
                        f"{name} differs from the ledger (seq {recorded_verdict[1]}): "
                        f"idea_verifications.{column} {have[column]!r} (ledger: {want[column]!r})"
                    )
    report.problems.extend(await track_records.stored_totals_problems(db))
    return report


def _lesson_problems(idea: StoredIdea, recorded: tuple[str, int] | None) -> list[str]:
    """The idea's lesson against the ledger's last `idea.lesson` entry for it: both absent, or equal field by field."""
    have = (
        None
        if idea.lesson_at is None and idea.lesson_what_happened is None and idea.lesson_text is None
        else lesson_payload(idea.educator_id, idea.lesson_what_happened or "", idea.lesson_text or "")
    )
    name = f"Idea #{idea.id} {idea.pair}"
    if recorded is None:
        return [] if have is None else [f"{name} has a lesson without a ledger entry"]
    text, seq = recorded
    if have is None:
        return [f"{name} has no lesson, but the ledger recorded one (seq {seq})"]
    want = json.loads(text)
    return [
        f"{name}'s lesson differs from the ledger (seq {seq}): trade_ideas.{LESSON_COLUMN[k]} {have.get(k)!r} "
        f"(ledger: {want.get(k)!r})"
        for k in LESSON_COLUMN
        if have.get(k) != want.get(k)
    ]


LESSON_COLUMN = {"whatHappened": "lesson_what_happened", "lesson": "lesson_text"}


async def _timestamp_problems(
    db: AsyncSession, hash_at: dict[int, str], head_seq: int, trusted: list[x509.Certificate] | None
) -> list[str]:
    """The first time-stamp whose token does not prove the chain's hash at its position now (one problem: after a
    rewrite, every later token fails the same way)."""
    rows = await db.stream(select(LedgerTimestamp).order_by(LedgerTimestamp.seq, LedgerTimestamp.authority))
    async for row in rows.scalars():
        name = f"The time-stamp of seq {row.seq} by {tsa.authority_name(row.authority)} ({row.at.isoformat()})"
        now = hash_at.get(row.seq)
        if now is None:
            return [f"{name}: seq {row.seq} is no longer in the chain, which ends at seq {head_seq}"]
        try:
            tsa.check_token(row.token, now, trusted)
        except tsa.TsaError as exc:
            held = "" if row.hash == now else f"; it was asked for {row.hash}: the chain was rewritten after it"
            return [f"{name} does not hold against the chain's hash at seq {row.seq} now: {exc}{held}"]
    return []
