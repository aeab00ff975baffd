"""Migration 0012 writes entries for the ideas that exist before the ledger, so an old database verifies too."""

import asyncio
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import insert, inspect, select

from tests.factories import open_idea
from tests.ledger.conftest import drop_own, own_settings
from tradeideas.auth.models import User
from tradeideas.cli import alembic_config
from tradeideas.db import Database
from tradeideas.ideas.models import TradeIdea
from tradeideas.ledger.chain import GENESIS
from tradeideas.ledger.models import LedgerDay, LedgerEntry
from tradeideas.ledger.verify import verify
from tradeideas.trackrecords.service import rebuild


def _as_0010_wrote(idea: TradeIdea) -> dict[str, Any]:
    """The idea's set attributes alone: later migrations add columns (0040: setup_id, reason) that a flush of the
    model would write and the table of 0010 does not have."""
    return {
        attr.key: value for attr in inspect(TradeIdea).column_attrs if (value := getattr(idea, attr.key)) is not None
    }


async def test_existing_ideas_get_published_and_result_entries(tmp_path: Path) -> None:
    name = f"tradeideas_backfill_{os.getpid()}"
    settings = await asyncio.to_thread(own_settings, tmp_path, name)
    try:
        await asyncio.to_thread(command.upgrade, alembic_config(settings), "0010")
        db = Database(settings)
        day1, day2, day3 = (datetime(2026, 3, d, 9, 30, tzinfo=UTC) for d in (1, 2, 4))
        async with db.sessionmaker() as s, s.begin():
            # The table of users is as 0010 left it, so its model writes it; ideas are written with their set columns.
            s.add(User(id=1, email="e@example.com", password_hash="x", role="educator", created_at=day1))
            await s.flush()
            first = open_idea(id=1, pair="EUR/USD", entry1="1.10", invalidation_level="1.09", exit1="1.12",
                              status="successful", completed=True, outcome="exit1", closed_at=day3, r_multiple=2.0,
                              created_at=day1, updated_at=day3)  # fmt: skip
            second = open_idea(id=2, pair="GBP/USD", created_at=day2, updated_at=day2)
            for idea in (first, second):
                await s.execute(insert(TradeIdea).values(_as_0010_wrote(idea)))
        await db.dispose()
        await asyncio.to_thread(command.upgrade, alembic_config(settings), "head")

        db = Database(settings)
        async with db.sessionmaker() as s:
            entries = list((await s.execute(select(LedgerEntry).order_by(LedgerEntry.seq))).scalars())
            assert [(e.seq, e.kind, e.subject_id, e.at) for e in entries] == [
                (1, "idea.published", 1, "2026-03-01T09:30:00.000000Z"),
                (2, "idea.published", 2, "2026-03-02T09:30:00.000000Z"),
                (3, "idea.result", 1, "2026-03-04T09:30:00.000000Z"),
            ]
            assert entries[0].prev_hash == GENESIS
            assert '"rMultiple":"2.00"' in entries[2].payload and '"status":"successful"' in entries[2].payload
            assert '"status":"active"' in entries[0].payload and '"rMultiple":null' in entries[0].payload
            days = {d.day.isoformat(): (d.last_seq, d.hash) for d in (await s.execute(select(LedgerDay))).scalars()}
            assert days == {
                "2026-03-01": (1, entries[0].hash),
                "2026-03-02": (2, entries[1].hash),
                "2026-03-04": (3, entries[2].hash),
            }
            await rebuild(s)  # the ideas were written past the app: their totals as the app keeps them
            report = await verify(s)
            assert report.intact, report.problems
            assert (report.entries, report.ideas) == (3, 2)
        await db.dispose()
    finally:
        await asyncio.to_thread(drop_own, settings, name)
