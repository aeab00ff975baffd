"""RFC 3161 time-stamps of the chain (decision 0100) against a local authority (`openssl ts -reply` behind a small
HTTP handler, with its own CA): the client checks every reply, rounds stamp what is due and back off a failing
authority, the proof routes and the health check show them, and `verify-ledger` checks every token."""

import base64
import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime, time, timedelta

import httpx
import pytest
from asgi_lifespan import LifespanManager
from cryptography import x509
from fastapi import FastAPI
from sqlalchemy import delete, select

from tests.conftest import make_client
from tests.ledger.local_tsa import LocalTsa, local_tsa, make_authority, reply_for
from tests.ledger.test_ledger import IDEA
from tradeideas.app import create_app
from tradeideas.db import utcnow
from tradeideas.ledger import timestamps, tsa
from tradeideas.ledger.models import LedgerEntry, LedgerTimestamp, TimestampAuthority
from tradeideas.ledger.verify import verify
from tradeideas.settings import Settings

HASH = hashlib.sha256(b"a chain hash").hexdigest()


@pytest.fixture(scope="module")
def authority(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalTsa]:
    with local_tsa(tmp_path_factory.mktemp("tsa")) as running:
        yield running


@pytest.fixture(scope="module")
def other_ca(tmp_path_factory: pytest.TempPathFactory) -> list[x509.Certificate]:
    """Another authority's CA certificate."""
    return tsa.load_trusted(
        (make_authority(tmp_path_factory.mktemp("other"), "Someone Else").parent / "ca.crt").read_bytes()
    )


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("down", "the authority answered HTTP 503"),
        ("refused", "the authority refused: rejection (bad request)"),
        ("wrong_nonce", "the token's nonce "),
        ("wrong_imprint", f"the token's imprint is not SHA-256 of {HASH}"),
        ("bad_signature", "the token's signature does not verify with the certificate in it"),
        ("garbage", "the reply is not a TimeStampResp"),
        ("huge", "the reply is longer than 262144 bytes"),
    ],
)
async def test_a_bad_reply_is_refused_saying_why(authority: LocalTsa, mode: str, said: str) -> None:
    authority.mode = mode
    try:
        async with httpx.AsyncClient() as client:
            with pytest.raises(tsa.TsaError) as refused:
                await tsa.stamp(client, authority.url, HASH, utcnow())
    finally:
        authority.mode = "ok"
    assert str(refused.value).startswith(said), refused.value


async def test_a_granted_reply_is_a_token_over_the_hash(authority: LocalTsa, other_ca: list[x509.Certificate]) -> None:
    async with httpx.AsyncClient() as client:
        before = utcnow().replace(microsecond=0)
        stamp = await tsa.stamp(client, authority.url, HASH, utcnow())
    assert before <= stamp.at <= utcnow()
    sent = authority.requests[-1]
    assert tsa.imprint(HASH) in sent  # SHA-256 of the hash's hex text, with a nonce and certReq
    # The token stands on its own, and chains to the authority's CA, not to another.
    assert tsa.check_token(stamp.token, HASH, authority.trusted()).at == stamp.at
    with pytest.raises(tsa.TsaError, match="does not chain to a trusted authority"):
        tsa.check_token(stamp.token, HASH, other_ca)
    with pytest.raises(tsa.TsaError, match="imprint"):
        tsa.check_token(stamp.token, "0" * 64)
    # A reply made for another moment (replayed, or a clock far off) is refused.
    with pytest.raises(tsa.TsaError, match="is not now"):
        body, nonce = tsa.request(HASH)
        tsa.check_reply(reply_for(authority.config, body), HASH, nonce, utcnow() + timedelta(hours=1))


async def test_rounds_stamp_the_head_back_off_and_show_in_the_proof_and_health(
    ledger_app: FastAPI,
    ledger_settings: Settings,
    teacher: httpx.AsyncClient,
    authority: LocalTsa,
    other_ca: list[x509.Certificate],
) -> None:
    settings = ledger_settings.model_copy(update={"tsa_urls": authority.url})
    database = ledger_app.state.db
    assert (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "AUD/SEK"})).status_code == 201
    # The rounds below look up to two hours ahead: kept inside today, where the new entries are, so that no day
    # ends meanwhile (a day that ends has its fingerprint stamped, which is not what these rounds check).
    now = min(utcnow(), datetime.combine(utcnow().date(), time(21, 30), UTC))
    try:
        async with httpx.AsyncClient() as client:
            # Down: the round fails and the authority is left alone for a minute.
            authority.mode = "down"
            failed = await timestamps.stamp_due(database, settings, client, now)
            assert "HTTP 503" in failed.failed[authority.url]
            asked = len(authority.requests)
            authority.mode = "ok"
            assert (await timestamps.stamp_due(database, settings, client, now + timedelta(seconds=30))).stamped == []
            assert len(authority.requests) == asked
            # Back: the next round after the backoff stamps the head.
            back = await timestamps.stamp_due(database, settings, client, now + timedelta(seconds=61))
            async with database.sessionmaker() as s:
                head = (await s.execute(select(LedgerEntry).order_by(LedgerEntry.seq.desc()).limit(1))).scalar_one()
                state = await s.get(TimestampAuthority, authority.url)
            assert (authority.url, head.seq) in back.stamped
            assert state is not None and state.failures == 0 and state.last_success is not None
            # The head moves, but is stamped again only an hour after its last stamp.
            assert (await teacher.post("/api/trade-ideas", json={**IDEA, "pair": "CAD/SEK"})).status_code == 201
            later = await timestamps.stamp_due(database, settings, client, now + timedelta(minutes=30))
            assert all(seq <= head.seq for _, seq in later.stamped)
            hour = await timestamps.stamp_due(database, settings, client, now + timedelta(hours=2))
            assert [seq for _, seq in hour.stamped if seq > head.seq] == [head.seq + 1]

        anyone = make_client(ledger_app)
        proof = (await anyone.get("/api/proof")).json()
        mine = [t for t in proof["timestamps"] if t["authority"] == "127.0.0.1"]
        assert [t["seq"] for t in mine] == [head.seq + 1]
        async with database.sessionmaker() as s:
            row = (await s.execute(select(LedgerTimestamp).where(LedgerTimestamp.seq == head.seq + 1))).scalar_one()
        assert base64.b64decode(mine[0]["token"]) == row.token
        today = proof["days"][0]["date"]
        day = (await anyone.get(f"/api/proof/days/{today}")).json()
        assert {t["seq"] for t in day["timestamps"]} >= {head.seq, head.seq + 1}

        # Health shows the authority's last success (an app with TSA_URLS set).
        application = create_app(settings)
        async with LifespanManager(application):
            health = (await make_client(application).get("/api/health")).json()
        seen = health["timestampAuthorities"][authority.url]
        assert seen["lastSuccess"] is not None and seen["failing"] is None

        # verify-ledger checks every token; with a CA file, that each chains to it.
        async with database.sessionmaker() as s:
            assert (await verify(s)).problems == []
            assert (await verify(s, authority.trusted())).problems == []
            problems = (await verify(s, other_ca)).problems
        async with database.sessionmaker() as s:  # the earliest stamp: an older finished day's, if one was due
            first = min((await s.execute(select(LedgerTimestamp.seq))).scalars())
        assert problems and problems[0].startswith(f"The time-stamp of seq {first} by 127.0.0.1 ("), problems
        assert "does not chain to a trusted authority" in problems[0]
    finally:
        authority.mode = "ok"
        async with database.sessionmaker() as s, s.begin():
            await s.execute(delete(LedgerTimestamp))
            await s.execute(delete(TimestampAuthority))
