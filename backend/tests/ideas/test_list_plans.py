"""The list's page statements use an index on PostgreSQL for every list: no sort of the open ideas (issue #38).

With 60,000 ideas written (and analysed) in a transaction that is rolled back, each list's statement is explained:
every read of `trade_ideas` must be an index scan, and no sort may stand between it and the limit that ends it
(the active list's outer order sorts at most two parts of a page). SQLite has no such planner to pin: skipped.
"""

import base64
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest
from fastapi import FastAPI
from sqlalchemy import Dialect

from tradeideas.core.deps import component_of
from tradeideas.db import Database
from tradeideas.ideas.queries import page_statement
from tradeideas.ideas.schemas import IdeaListQuery
from tradeideas.settings import Settings

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DB") != "postgres", reason="PostgreSQL's plans only")

IDEAS = 60_000
# Half forex, half crypto; 85 % active, 10 % completed (half of them each way), 3 % invalidated (a third of them in
# the last day), 2 % pending; one idea a minute, so the newest are open ones of both markets.
INSERT = f"""
INSERT INTO trade_ideas (educator_id, market_type, market, order_type, idea_type, pair, time_frame, entry_1,
    invalidation_level, exit_1, status, completed, edited, edited_after_publish, outcome, closed_at, created_at,
    updated_at)
SELECT e.id,
    CASE WHEN i % 2 = 0 THEN 'Forex' ELSE 'Crypto' END, CASE WHEN i % 2 = 0 THEN 'forex' ELSE 'crypto' END,
    'BUY', CASE WHEN i % 3 = 0 THEN 'Exchange' ELSE 'Leverage' END, 'EUR/USD', '4H', '1.1', '1.0', '1.2',
    s.status, s.status IN ('successful', 'unsuccessful'), false, false,
    CASE WHEN s.status = 'successful' THEN 'exit1' WHEN s.status = 'unsuccessful' THEN 'invalidation' END,
    CASE WHEN s.status IN ('successful', 'unsuccessful') OR (s.status = 'invalidated' AND i % 3 = 0)
        THEN now() - interval '30 days' + i * interval '1 second'
        WHEN s.status = 'invalidated' THEN now() - interval '1 hour' END,
    now() - ({IDEAS} - i) * interval '1 minute', now()
FROM generate_series(1, {IDEAS}) AS i
CROSS JOIN LATERAL (SELECT CASE
    WHEN i % 100 < 85 THEN 'active' WHEN i % 100 < 90 THEN 'successful' WHEN i % 100 < 95 THEN 'unsuccessful'
    WHEN i % 100 < 98 THEN 'invalidated' ELSE 'pending' END AS status) AS s
CROSS JOIN LATERAL (SELECT id FROM users WHERE role = 'educator' ORDER BY id OFFSET i % 7 LIMIT 1) AS e
"""
NOW = datetime.now(UTC)


def cursor(at: datetime, idea_id: int, invalidated_part: bool = False) -> str:
    """A page's `nextCursor` as the list writes it (created_at|id, "|1" past the active list's live ideas)."""
    raw = f"{at.isoformat()}|{idea_id}{'|1' if invalidated_part else ''}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


LISTS: dict[str, dict[str, Any]] = {
    "active": {"market": "forex", "status": "active"},
    "active, page 2": {"market": "forex", "status": "active", "cursor": "MIDDLE"},
    "active, invalidated part": {"market": "forex", "status": "active", "cursor": "MIDDLE|1"},
    "active, one idea type": {"market": "crypto", "status": "active", "ideaType": "leverage", "limit": 100},
    "history": {"market": "forex", "status": "completed", "limit": 12},
    "history, one idea type, page 2": {
        "market": "forex",
        "status": "completed",
        "ideaType": "exchange",
        "cursor": "MIDDLE",
    },
    "an educator's ideas": {"educatorId": "EDUCATOR", "limit": 100},
    "an educator's record": {"educatorId": "EDUCATOR", "status": "closed", "limit": 10},
    "an educator's record, page 2": {"educatorId": "EDUCATOR", "status": "closed", "cursor": "MIDDLE"},
}


@pytest.fixture
def database(settings: Settings, app: FastAPI) -> Iterator[str]:
    yield settings.resolved_database_url.replace("postgresql+asyncpg://", "postgresql://")


@pytest.fixture
def dialect(app: FastAPI) -> Dialect:
    return component_of(app, Database).engine.dialect


def reads_of_ideas(plan: dict[str, Any], sorted_above: bool = False) -> Iterator[tuple[dict[str, Any], bool]]:
    """Every plan node that reads `trade_ideas`, and whether a sort stands between it and the nearest limit above."""
    node_type = plan["Node Type"]
    if node_type == "Limit":
        sorted_above = False
    elif node_type in ("Sort", "Incremental Sort"):
        sorted_above = True
    if plan.get("Relation Name") == "trade_ideas":
        yield plan, sorted_above
    for child in plan.get("Plans", ()):
        yield from reads_of_ideas(child, sorted_above)


async def test_every_list_reads_its_page_in_index_order(database: str, dialect: Dialect) -> None:
    conn = await asyncpg.connect(database)
    transaction = conn.transaction()
    await transaction.start()
    try:
        await conn.execute(INSERT)
        await conn.execute("ANALYZE trade_ideas")
        middle_id, middle_at = await conn.fetchrow(
            f"SELECT id, created_at FROM trade_ideas ORDER BY id DESC OFFSET {IDEAS // 2} LIMIT 1"
        )
        educator = await conn.fetchval("SELECT id FROM users WHERE role = 'educator' ORDER BY id LIMIT 1")
        for name, listed in LISTS.items():
            query = dict(listed)
            if query.get("educatorId") == "EDUCATOR":
                query["educatorId"] = educator
            if "cursor" in query:
                query["cursor"] = cursor(middle_at, middle_id, query["cursor"].endswith("|1"))
            statement, params = page_statement(IdeaListQuery.model_validate(query), NOW)
            compiled = statement.compiled(dialect)
            explained = await conn.fetchval(f"EXPLAIN (FORMAT JSON) {compiled.sql}", *compiled.arguments(params))
            plan = json.loads(explained)[0]["Plan"]
            reads = list(reads_of_ideas(plan))
            assert reads, (name, plan)
            for node, sorted_above in reads:
                assert node["Node Type"] in ("Index Scan", "Index Only Scan"), (name, node["Node Type"], plan)
                assert not sorted_above, (name, "sorts what it reads of trade_ideas", plan)
    finally:
        await transaction.rollback()
        await conn.close()
