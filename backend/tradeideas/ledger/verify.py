"""`tradeideas verify-ledger`: recompute the whole chain and hold it against the live tables.

The chain is read in batches by position. Each entry's hash is recomputed from its stored fields in the documented
form (`chain`), its `prevHash` must be the previous entry's hash and its position the previous one's plus one, so an
edited, inserted or deleted row is named by the first position where the chain breaks. Then every idea in the table
must stand exactly as the ledger last described it, and every idea the ledger knows must still be there unless the
ledger recorded its deletion: a change made behind the app's back is named by the idea's id and pair.
"""

import hashlib
import json
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.ideas import service as ideas
from tradeideas.ledger.chain import GENESIS, STATE_KINDS, idea_payload
from tradeideas.ledger.models import LedgerDay, LedgerEntry

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


async def verify(db: AsyncSession) -> Report:
    """The chain and the tables checked; `problems` lists what is wrong, the first break of the chain first."""
    report = Report()
    days = {d.last_seq: d for d in (await db.execute(select(LedgerDay))).scalars()}
    # Per idea: (kind, canonical payload text, seq) of the last entry that described its state.
    last: dict[int, tuple[str, str, int]] = {}
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
            differ = [k for k in sorted(set(recorded) | set(current)) if recorded.get(k) != current.get(k)]
            if differ:
                changes = ", ".join(f"{k} {current.get(k)!r} (ledger: {recorded.get(k)!r})" for k in differ)
                report.problems.append(f"Idea #{idea.id} {idea.pair} differs from the ledger (seq {seq}): {changes}")
    for subject, (kind, text, seq) in sorted(last.items()):
        if kind != "idea.deleted":
            report.problems.append(f"Idea #{subject} {_pair(text)} is gone without a ledger entry (last: seq {seq})")
    return report
