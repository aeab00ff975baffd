"""Push endpoints are allow-listed push services over https: no server-side requests anywhere else."""

from collections.abc import AsyncIterator

import httpx
import pytest
from aiohttp import web
from fastapi import FastAPI

from tests.push.conftest import Browser
from tests.realtime.conftest import free_port
from tradeideas.push.endpoints import EndpointPolicy
from tradeideas.push.sender import Outcome, Sender, WebPushTarget
from tradeideas.push.vapid import load_vapid_keys
from tradeideas.settings import Settings

DEFAULT_HOSTS = Settings.model_fields["push_endpoint_hosts"].default


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://wns2-par02p.notify.windows.com/w/?token=abc",
        "https://updates.push.services.mozilla.com/wpush/v2/abc",
        "https://web.push.apple.com/QGx",
        "https://fcm.googleapis.com:443/fcm/send/abc",  # the https port, written out
    ],
)
def test_the_default_list_accepts_the_browsers_push_services(endpoint: str) -> None:
    assert EndpointPolicy(DEFAULT_HOSTS).refusal(endpoint) is None


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        ("http://fcm.googleapis.com/fcm/send/abc", "must be an https URL"),
        ("https://evil.example.com/push", "evil.example.com is not an allowed push service"),
        ("https://fcm.googleapis.com.evil.example/x", "is not an allowed push service"),
        ("https://notify.windows.com.attacker.net/x", "is not an allowed push service"),
        ("http://127.0.0.1:8000/push/x", "must be an https URL"),
        ("http://localhost/push", "must be an https URL"),
        ("http://10.0.0.5/internal", "must be an https URL"),
        ("https://user:pw@fcm.googleapis.com/x", "must not contain credentials"),
        ("https://fcm.googleapis.com:99999/x", "not a valid URL"),
        ("ftp://fcm.googleapis.com/x", "must be an https URL"),
        # A listed host on another port is another service (an admin panel, a mail server, ...) on that machine.
        ("https://fcm.googleapis.com:8443/fcm/send/abc", "must use the https port (443)"),
        ("https://web.push.apple.com:22/x", "must use the https port (443)"),
        ("https://updates.push.services.mozilla.com:80/wpush/v2/abc", "must use the https port (443)"),
    ],
)
def test_anything_else_is_refused_with_a_reason(endpoint: str, reason: str) -> None:
    refusal = EndpointPolicy(DEFAULT_HOSTS).refusal(endpoint)
    assert refusal is not None and reason in refusal


def test_plain_http_only_for_loopback_listed_explicitly() -> None:
    policy = EndpointPolicy("fcm.googleapis.com,127.0.0.1")
    assert policy.refusal("http://127.0.0.1:9000/push/a") is None
    assert policy.refusal("http://localhost:9000/push/a") is not None  # localhost is not listed
    assert EndpointPolicy("localhost").refusal("http://localhost:9/p") is None
    assert EndpointPolicy(".example.com").refusal("http://a.example.com/p") is not None  # never http elsewhere
    assert policy.refusal("http://127.0.0.1/push/a") is None  # the listed loopback host: any port (test servers)
    assert policy.refusal("https://127.0.0.1:9443/push/a") is None


async def test_registering_an_internal_address_is_a_422(customer: httpx.AsyncClient) -> None:
    browser = Browser("ssrf", "http://10.0.0.5/internal")
    r = await customer.post("/api/push/subscriptions", json=browser.subscription)
    assert r.status_code == 422
    assert r.json() == {
        "message": "Push endpoint must be an https URL of a browser push service",
        "code": "endpoint_not_allowed",
    }
    other = Browser("other", "https://metadata.internal.example/latest")
    r = await customer.post("/api/push/subscriptions", json=other.subscription)
    assert r.status_code == 422 and "metadata.internal.example is not an allowed push service" in r.json()["message"]
    elsewhere = Browser("port", "https://fcm.googleapis.com:8080/fcm/send/endpoint-of-a-test")
    r = await customer.post("/api/push/subscriptions", json=elsewhere.subscription)
    assert r.status_code == 422 and r.json() == {
        "message": "Push endpoint must use the https port (443)",
        "code": "endpoint_not_allowed",
    }
    ok = Browser("fcm", "https://fcm.googleapis.com/fcm/send/endpoint-of-a-test")
    r = await customer.post("/api/push/subscriptions", json=ok.subscription)
    assert r.status_code == 201
    await customer.request("DELETE", "/api/push/subscriptions", json={"endpoint": ok.endpoint})


@pytest.fixture
async def redirecting_service() -> AsyncIterator[tuple[str, list[str]]]:
    hits: list[str] = []
    port = free_port()

    async def redirect(_: web.Request) -> web.Response:
        hits.append("redirect")
        raise web.HTTPTemporaryRedirect(f"http://127.0.0.1:{port}/target")

    async def target(_: web.Request) -> web.Response:
        hits.append("target")
        return web.Response(status=201)

    app = web.Application()
    app.router.add_post("/push/redirect", redirect)
    app.router.add_post("/target", target)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield f"http://127.0.0.1:{port}", hits
    await runner.cleanup()


async def test_the_sender_rechecks_and_never_follows_redirects(
    app: FastAPI, settings: Settings, redirecting_service: tuple[str, list[str]]
) -> None:
    base, hits = redirecting_service
    sender = Sender(settings, await load_vapid_keys(settings, app.state.db))
    try:
        result = await sender.post_webpush(WebPushTarget(f"{base}/push/redirect", "k", "a"), b"body")
        assert result.outcome == Outcome.FAILED and result.status == 307
        assert hits == ["redirect"]  # the redirect target was never asked

        strict = Sender(settings.model_copy(update={"push_endpoint_hosts": DEFAULT_HOSTS}), sender.keys)
        refused = await strict.post_webpush(WebPushTarget(f"{base}/push/redirect", "k", "a"), b"body")
        assert refused.outcome == Outcome.FAILED and refused.error is not None and "https" in refused.error
        assert hits == ["redirect"]  # no request at all once the host is no longer allowed
        await strict.close()
    finally:
        await sender.close()
