"""The two verifiers: `tradeideas verify-ledger` on the database, and `tools/verify_ledger.py` (standard library
only, run by the system's own Python) against a running `tradeideas serve`, as a member would."""

import asyncio
import hashlib
import importlib.util
import os
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import func, select, update

from tests.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A, make_client
from tests.ledger.conftest import drop_own, own_settings
from tests.ledger.test_ledger import IDEA
from tests.realtime.conftest import free_port
from tests.serve import start_serve, stop_serve, wait_healthy
from tradeideas.db import Database
from tradeideas.ideas.models import TradeIdea
from tradeideas.ledger.chain import canonical
from tradeideas.ledger.models import LedgerDay, LedgerEntry
from tradeideas.settings import Settings
from tradeideas.trackrecords.models import TrackRecordTotal

TOOL = Path(__file__).resolve().parents[3] / "tools" / "verify_ledger.py"
SYSTEM_PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def _env(settings: Settings) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": settings.resolved_database_url, "DATA_DIR": str(settings.data_dir)}


async def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(
        subprocess.run, args, env=env, capture_output=True, text=True, timeout=120, check=False
    )


async def test_cli_exits_0_when_intact_and_1_naming_the_idea(
    ledger_app: FastAPI, ledger_settings: Settings, teacher: httpx.AsyncClient
) -> None:
    idea_id = (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "NZD/CHF"})).json()["id"]
    cli = [sys.executable, "-m", "tradeideas.cli", "verify-ledger"]
    ok = await _run(cli, _env(ledger_settings))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("Ledger intact: ")

    async with ledger_app.state.db.sessionmaker() as s, s.begin():
        await s.execute(update(TradeIdea).where(TradeIdea.id == idea_id).values(status="successful"))
    try:
        bad = await _run(cli, _env(ledger_settings))
        assert bad.returncode == 1
        assert bad.stderr.startswith(f"Idea #{idea_id} NZD/CHF differs from the ledger"), bad.stderr
        assert "trade_ideas.status 'successful' (ledger: 'active')" in bad.stderr
    finally:
        async with ledger_app.state.db.sessionmaker() as s, s.begin():
            await s.execute(update(TradeIdea).where(TradeIdea.id == idea_id).values(status="active"))


async def test_standalone_verifier_against_a_running_server(tmp_path: Path) -> None:
    name = f"tradeideas_ledger_serve_{os.getpid()}"
    settings = await asyncio.to_thread(own_settings, tmp_path, name)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **_env(settings),
        "PORT": str(port),
        "DEMO_PASSWORD": DEMO_PASSWORD,
        "STATIC_DIR": str(tmp_path / "no-spa"),
        "LOG_LEVEL": "warning",
        "DEMO_HISTORY": "false",  # the samples are enough here; the history is checked in test_demo_history
        # Nothing appends behind the test's back: the poller would settle the samples from their seeded candles and
        # move today's fingerprint between reading it and checking it.
        "PRICE_FEED": "off",
        "CACHE_ENTRIES": "0",  # every answer read from the tables, so a change behind the app's back is served
        "WORKERS": "2" if settings.resolved_database_url.startswith("postgresql") else "1",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = start_serve(env, stdout=subprocess.DEVNULL)
    try:
        await wait_healthy(proc, url)
        async with httpx.AsyncClient(base_url=url) as educator:
            login = {"email": EDUCATOR_A, "password": DEMO_PASSWORD, "selectedRole": "educator"}
            assert (await educator.post("/api/auth/login", json=login)).status_code == 200
            # A setup of its own (this demo keeps none): each idea names it, with a reason (decision 0170).
            made = await educator.post("/api/me/setups", json={"name": "Breakout retest"})
            setup_id = made.json()["id"]
            ids = []
            for pair in ("EUR/NOK", "USD/NOK", "GBP/NOK"):  # spread over both workers' connections
                ids.append(
                    (await educator.post("/api/trade-ideas", json={**IDEA, "setupId": setup_id, "pair": pair})).json()[
                        "id"
                    ]
                )
            assert (
                await educator.put(f"/api/trade-ideas/{ids[0]}", json={"status": "unsuccessful"})
            ).status_code == 200
            # Its lesson: an `idea.lesson` entry the verifier holds the served lesson against (decision 0171).
            lesson = {"whatHappened": "Stopped out on the open.", "lesson": "Wait for the first hour."}
            assert (await educator.put(f"/api/trade-ideas/{ids[0]}/lesson", json=lesson)).status_code == 200

        verifier = [SYSTEM_PYTHON, str(TOOL), url, "--email", CUSTOMER]
        tool_env = {"PATH": os.environ.get("PATH", ""), "TRADEIDEAS_PASSWORD": DEMO_PASSWORD}
        ok = await _run(verifier, tool_env)
        assert ok.returncode == 0, ok.stderr
        assert ok.stdout.startswith("Ledger intact: ")

        async with httpx.AsyncClient(base_url=url) as anyone:
            day = (await anyone.get("/api/proof")).json()["days"][0]
        kept = await _run([*verifier, "--fingerprint", f"{day['date']}={day['hash']}"], tool_env)
        assert kept.returncode == 0, kept.stderr
        # The day goes on: its fingerprint moves, and the one kept earlier is still an entry of that day's.
        async with httpx.AsyncClient(base_url=url) as educator:
            assert (await educator.post("/api/auth/login", json=login)).status_code == 200
            assert (
                await educator.post("/api/trade-ideas", json={**IDEA, "setupId": setup_id, "pair": "NZD/NOK"})
            ).status_code == 201
        async with httpx.AsyncClient(base_url=url) as anyone:
            assert (await anyone.get(f"/api/proof/days/{day['date']}")).json()["hash"] != day["hash"]
        still = await _run([*verifier, "--fingerprint", f"{day['date']}={day['hash']}"], tool_env)
        assert still.returncode == 0, still.stderr
        made_up = await _run([*verifier, "--fingerprint", f"{day['date']}={'0' * 63}1"], tool_env)
        assert made_up.returncode == 1
        assert made_up.stderr.strip().endswith(f"the fingerprint of {day['date']} you kept is no longer in the chain")

        # Changes behind the app's back that leave the chain intact: each served figure is held against the ledger.
        async def caught(statement: Any, *restore: Any) -> str:
            db = Database(settings)
            try:
                async with db.sessionmaker() as s, s.begin():
                    await s.execute(statement)
                bad = await _run(verifier, tool_env)
                async with db.sessionmaker() as s, s.begin():
                    for undo in restore:
                        await s.execute(undo)
            finally:
                await db.dispose()
            assert bad.returncode == 1, bad.stdout
            return bad.stderr.strip()

        day_row = LedgerDay.day == date.fromisoformat(day["date"])
        now_hash = (await anyone_get(url, f"/api/proof/days/{day['date']}"))["hash"]
        said = await caught(
            update(LedgerDay).where(day_row).values(hash="f" * 64),
            update(LedgerDay).where(day_row).values(hash=now_hash),
        )
        assert f"the fingerprint of {day['date']} in /api/proof ({'f' * 64}) is not the hash" in said, said
        loss = TradeIdea.id == ids[0]
        said = await caught(
            update(TradeIdea).where(loss).values(status="successful"),
            update(TradeIdea).where(loss).values(status="unsuccessful"),
        )
        assert said.startswith(f"idea #{ids[0]} EUR/NOK: the API serves status 'successful'"), said
        db = Database(settings)
        try:
            async with db.sessionmaker() as s:
                closed_at = (await s.execute(select(TradeIdea.closed_at).where(loss))).scalar_one()
        finally:
            await db.dispose()
        assert closed_at is not None
        said = await caught(
            update(TradeIdea).where(loss).values(closed_at=closed_at - timedelta(days=200)),
            update(TradeIdea).where(loss).values(closed_at=closed_at),
        )
        assert said.startswith(f"idea #{ids[0]} EUR/NOK: the API serves closedAt '"), said
        said = await caught(
            update(TradeIdea).where(loss).values(lesson_text="Nothing to learn."),
            update(TradeIdea).where(loss).values(lesson_text="Wait for the first hour."),
        )
        assert said.startswith(f"idea #{ids[0]} EUR/NOK: the API serves lesson lesson 'Nothing to learn.'"), said
        t = TrackRecordTotal
        whole = (t.grouping == "all", t.key == "")
        said = await caught(
            update(t).where(*whole).values(wins=t.wins + 50), update(t).where(*whole).values(wins=t.wins - 50)
        )
        assert "/api/educators/track-records shows ideas " in said, said  # 50 more wins: 50 more ideas
        still_ok = await _run(verifier, tool_env)
        assert still_ok.returncode == 0, still_ok.stderr

        # Someone with database access re-grades the loss and rewrites its entry to match.
        db = Database(settings)
        try:
            async with db.sessionmaker() as s, s.begin():
                result = (
                    update(LedgerEntry)
                    .where(LedgerEntry.subject_id == ids[0], LedgerEntry.kind == "idea.result")
                    .values(
                        payload=func.replace(LedgerEntry.payload, '"status":"unsuccessful"', '"status":"successful"')
                    )
                    .returning(LedgerEntry.seq)
                )
                tampered = (await s.execute(result)).scalar_one()
        finally:
            await db.dispose()
        bad = await _run(verifier, tool_env)
        assert bad.returncode == 1
        assert bad.stderr.strip() == f"seq {tampered}: hash does not match its content"
        wrong = await _run(verifier, {**tool_env, "TRADEIDEAS_PASSWORD": "not-the-password"})
        assert wrong.returncode == 2
    finally:
        stop_serve(proc)
        await asyncio.to_thread(drop_own, settings, name)


async def anyone_get(url: str, path: str) -> Any:
    async with httpx.AsyncClient(base_url=url) as anyone:
        return (await anyone.get(path)).json()


async def test_the_verifier_is_offered_for_download(ledger_app: FastAPI) -> None:
    anyone = make_client(ledger_app)
    got = await anyone.get("/proof/verify_ledger.py")
    assert got.status_code == 200
    assert got.headers["content-type"].startswith("text/x-python")
    assert got.content == TOOL.read_bytes()
    verifier = (await anyone.get("/api/proof")).json()["verifier"]
    assert verifier == {"url": "/proof/verify_ledger.py", "sha256": hashlib.sha256(TOOL.read_bytes()).hexdigest()}


def test_the_app_and_the_standalone_verifier_write_the_same_canonical_json() -> None:
    """The app writes canonical JSON in one C-coded pass; the standalone tool value by value, as RFC 8785 reads."""
    spec = importlib.util.spec_from_file_location("verify_ledger_tool", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    samples: list[object] = [
        {"seq": 2**53, "at": "2026-11-27T05:00:00.000000Z", "payload": {"pair": "EUR/USD", "exit2": None}},
        {"\uff61": "1", "\U0001f600": "2", "é": "3", "a": "4", "Z": [True, False, None, 0, -7]},
        {'quote"back\\slash': "tab\tnew\nline\rbell\x07nul\x00del\x7f", "nested": {"b": {"d": "", "c": []}}},
        ["\u2028\u2029", "ü€😀", {"\ue000": 1, "\U00010000": 2}],
    ]
    for sample in samples:
        assert canonical(sample) == tool.canonical(sample), sample
