"""Issue 37's twelve tamperings (T1-T12) by someone with database access, each against both verifiers: `verify-ledger`
on the tables (as the CLI runs it) and `tools/verify_ledger.py` (standard library and OpenSSL) against a running
`tradeideas serve`, with a day's fingerprint kept from before and the chain time-stamped by a local RFC 3161
authority. Each is caught by at least one; a tail rewritten after a time-stamp is caught by the time-stamp."""

import asyncio
import json
import os
import subprocess
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import delete, insert, inspect, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from tests.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A
from tests.ledger.conftest import drop_own, own_settings
from tests.ledger.local_tsa import local_tsa
from tests.ledger.test_ledger import IDEA
from tests.ledger.test_verifiers import SYSTEM_PYTHON, TOOL, _env, _run
from tests.realtime.conftest import free_port
from tests.serve import start_serve, stop_serve, wait_healthy
from tradeideas.db import Database
from tradeideas.ideas.models import TradeIdea
from tradeideas.ledger import timestamps
from tradeideas.ledger.chain import Entry, canonical
from tradeideas.ledger.models import LedgerDay, LedgerEntry
from tradeideas.ledger.verify import verify
from tradeideas.trackrecords.models import TrackRecordTotal

Rows = list[dict[str, Any]]
COLUMNS = [a.key for a in inspect(LedgerEntry).column_attrs]


async def chain_rows(s: AsyncSession) -> Rows:
    rows = (await s.execute(select(LedgerEntry).order_by(LedgerEntry.seq))).scalars()
    return [{c: getattr(r, c) for c in COLUMNS} for r in rows]


async def put_chain(s: AsyncSession, rows: Rows, *, rehash: bool) -> None:
    """Replace the whole chain (and so, through the trigger, every day's fingerprint) with `rows`; with `rehash`,
    positions and hashes are recomputed as the app would, the way a careful forger would write them."""
    out, prev = [], "0" * 64
    for number, row in enumerate(rows, start=1):
        row = dict(row)
        if rehash:
            entry = Entry(number, row["at"], row["kind"], row["subject_id"], json.loads(row["payload"]), prev)
            row.update(seq=number, prev_hash=prev, hash=entry.hash(), payload=canonical(entry.payload))
            prev = row["hash"]
        out.append(row)
    await s.execute(delete(LedgerDay))
    await s.execute(delete(LedgerEntry))
    for row in out:  # one at a time, in order: the trigger keeps each day's last entry
        await s.execute(insert(LedgerEntry).values(**row))


def with_payload(row: dict[str, Any], **changes: str) -> dict[str, Any]:
    return {**row, "payload": canonical({**json.loads(row["payload"]), **changes})}


async def test_each_tampering_is_caught_by_a_verifier(tmp_path: Path) -> None:
    name = f"tradeideas_ledger_matrix_{os.getpid()}"
    settings = (await asyncio.to_thread(own_settings, tmp_path, name)).model_copy(update={"demo_history": False})
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **_env(settings),
        "PORT": str(port),
        "DEMO_PASSWORD": DEMO_PASSWORD,
        "STATIC_DIR": str(tmp_path / "no-spa"),
        "LOG_LEVEL": "warning",
        "DEMO_HISTORY": "false",
        "PRICE_FEED": "off",
        "CACHE_ENTRIES": "0",  # every answer read from the tables
        "TSA_URLS": "",  # the test asks its local authority itself, at moments it chooses
        "WORKERS": "1",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = start_serve(env, stdout=subprocess.DEVNULL)
    database = Database(settings)
    with local_tsa(tmp_path / "tsa") as authority:
        try:
            await wait_healthy(proc, url)
            login = {"email": EDUCATOR_A, "password": DEMO_PASSWORD, "selectedRole": "educator"}
            async with httpx.AsyncClient(base_url=url) as educator:
                assert (await educator.post("/api/auth/login", json=login)).status_code == 200
                # A setup of its own (this demo keeps none): each idea names it, with a reason (decision 0170).
                made = await educator.post("/api/me/setups", json={"name": "Breakout retest"})
                setup_id = made.json()["id"]
                ids = []
                for pair in ("EUR/DKK", "USD/DKK", "GBP/DKK", "CHF/DKK"):
                    ids.append(
                        (
                            await educator.post("/api/trade-ideas", json={**IDEA, "setupId": setup_id, "pair": pair})
                        ).json()["id"]
                    )
                closed = await educator.put(f"/api/trade-ideas/{ids[0]}", json={"status": "unsuccessful"})
                assert closed.status_code == 200
            # The head is time-stamped, and a member keeps today's fingerprint.
            stamping = settings.model_copy(update={"tsa_urls": authority.url})
            async with httpx.AsyncClient() as client:
                stamped = await timestamps.stamp_due(database, stamping, client)
            async with httpx.AsyncClient(base_url=url) as anyone:
                proof = (await anyone.get("/api/proof")).json()
            head = proof["head"]
            assert (authority.url, head["seq"]) in stamped.stamped
            kept = f"{proof['days'][0]['date']}={proof['days'][0]['hash']}"
            trusted = await asyncio.to_thread(authority.trusted)
            standalone = [SYSTEM_PYTHON, str(TOOL), url, "--email", CUSTOMER, "--tsa-ca", str(authority.ca)]
            tool_env = {"PATH": os.environ.get("PATH", ""), "TRADEIDEAS_PASSWORD": DEMO_PASSWORD}

            async def both(*extra: str) -> tuple[list[str], str]:
                async with database.sessionmaker() as s:
                    problems = (await verify(s, trusted)).problems
                ran = await _run([*standalone, *extra], tool_env)
                assert ran.returncode in (0, 1), ran.stderr
                return problems, ran.stderr.strip() if ran.returncode == 1 else ""

            assert await both("--fingerprint", kept) == ([], "")
            async with database.sessionmaker() as s:
                original = await chain_rows(s)
                idea_row = (await s.execute(select(TradeIdea).where(TradeIdea.id == ids[3]))).scalar_one()
                idea_kept = {a.key: getattr(idea_row, a.key) for a in inspect(TradeIdea).column_attrs}
                closed_at = (await s.execute(select(TradeIdea.closed_at).where(TradeIdea.id == ids[0]))).scalar_one()
            assert closed_at is not None
            result_at = next(i for i, r in enumerate(original) if r["kind"] == "idea.result")
            published = [i for i, r in enumerate(original) if r["kind"] == "idea.published"]

            async def restore(s: AsyncSession) -> None:
                await put_chain(s, original, rehash=False)

            def idea_set(idea_id: int, **values: Any) -> Callable[[AsyncSession], Awaitable[Any]]:
                return lambda s: s.execute(update(TradeIdea).where(TradeIdea.id == idea_id).values(**values))

            t = TrackRecordTotal
            whole = (t.educator_id == idea_row.educator_id, t.grouping == "all", t.key == "")

            async def forged_tail(s: AsyncSession) -> None:
                # Truncated at the loss, before the time-stamped head, then a forged tail: a win instead, and more.
                win = with_payload(original[result_at], status="successful")
                more = with_payload(original[-1], exit2="0.9700")
                await put_chain(s, [*original[:result_at], win, *original[result_at + 1 :], more], rehash=True)
                await s.execute(update(TradeIdea).where(TradeIdea.id == ids[0]).values(status="successful"))

            async def deleted_idea(s: AsyncSession) -> None:
                await put_chain(s, [r for r in original if r["subject_id"] != ids[3]], rehash=True)
                await s.execute(delete(TradeIdea).where(TradeIdea.id == ids[3]))

            async def tail_truncated(s: AsyncSession) -> None:
                await put_chain(s, original[:-1], rehash=False)

            swap = published[-2:]
            swapped = list(original)
            a, b = swapped[swap[0]], swapped[swap[1]]
            swapped[swap[0]] = {**a, "payload": b["payload"], "subject_id": b["subject_id"]}
            swapped[swap[1]] = {**b, "payload": a["payload"], "subject_id": a["subject_id"]}
            rewritten = [with_payload(r, closePrice="0.9600") if i == result_at else r for i, r in enumerate(original)]

            cases: dict[str, tuple[Callable[[AsyncSession], Awaitable[Any]], list[Any], str]] = {
                "T1 payload edit": (
                    lambda s: put_chain(
                        s,
                        [with_payload(r, status="successful") if i == result_at else r for i, r in enumerate(original)],
                        rehash=False,
                    ),
                    [restore],
                    "hash",
                ),
                "T2 row delete": (
                    lambda s: put_chain(s, original[:1] + original[2:], rehash=False),
                    [restore],
                    "missing",
                ),
                "T3 level edit": (idea_set(ids[1], entry1="0.9300"), [idea_set(ids[1], entry1="0.9400")], "entry"),
                "T3b reason edit (issue #42)": (
                    idea_set(ids[1], reason="Rewritten after the loss."),
                    [idea_set(ids[1], reason=IDEA["reason"])],
                    "reason",
                ),
                "T4 outcome edit": (
                    idea_set(ids[0], status="successful"),
                    [idea_set(ids[0], status="unsuccessful")],
                    "status",
                ),
                "T5 swap": (lambda s: put_chain(s, swapped, rehash=False), [restore], "hash"),
                "T6 rehashed rewrite before a fingerprint": (
                    lambda s: put_chain(s, rewritten, rehash=True),
                    [restore],
                    "time-stamp",
                ),
                "T7 truncated and forged tail": (
                    forged_tail,
                    [restore, idea_set(ids[0], status="unsuccessful")],
                    "time-stamp",
                ),
                "T8 deleted idea with rehash": (
                    deleted_idea,
                    [restore, lambda s: s.execute(insert(TradeIdea).values(**idea_kept))],
                    "time-stamp",
                ),
                "T9 tail truncation": (tail_truncated, [restore], "seq"),
                "T10 track_record_totals edit": (
                    lambda s: s.execute(update(t).where(*whole).values(wins=t.wins + 50, sum_r=t.sum_r + 100)),
                    [lambda s: s.execute(update(t).where(*whole).values(wins=t.wins - 50, sum_r=t.sum_r - 100))],
                    "track",
                ),
                "T11 closed_at move": (
                    idea_set(ids[0], closed_at=closed_at - timedelta(days=200)),
                    [idea_set(ids[0], closed_at=closed_at)],
                    "closed",
                ),
                "T12 fingerprint overwrite": (
                    lambda s: s.execute(
                        update(LedgerDay).where(LedgerDay.last_seq == head["seq"]).values(hash="f" * 64)
                    ),
                    [
                        lambda s: s.execute(
                            update(LedgerDay).where(LedgerDay.last_seq == head["seq"]).values(hash=head["hash"])
                        )
                    ],
                    "fingerprint",
                ),
            }
            caught: dict[str, tuple[list[str], str]] = {}
            for case, (tamper, undo, word) in cases.items():
                async with database.sessionmaker() as s, s.begin():
                    await tamper(s)
                try:
                    problems, said = await both("--fingerprint", kept)
                    caught[case] = (problems, said)
                    assert problems or said, f"{case} was caught by neither verifier"
                    named = (problems[0] if problems else "") + " " + said
                    assert word in named.lower() or word in named, f"{case}: {named}"
                    if word == "reason":  # identity the API serves: both verifiers name it
                        assert "trade_ideas.reason" in problems[0] and "reason" in said, f"{case}: {named}"
                    if word == "time-stamp":
                        # Without the kept fingerprint, the time-stamp alone names the rewrite, in both verifiers.
                        problems, said = await both()
                        assert "time-stamp" in problems[0], f"{case}: {problems}"
                        assert "time-stamp" in said, f"{case}: {said}"
                finally:
                    async with database.sessionmaker() as s, s.begin():
                        for step in undo:
                            await step(s)
                assert await both("--fingerprint", kept) == ([], ""), f"{case} was not undone"
            # Every case names something in at least one verifier, and the forged tail is named by the time-stamp.
            assert set(caught) == {c for c in cases}
        finally:
            stop_serve(proc)
            await database.dispose()
            await asyncio.to_thread(drop_own, settings, name)
