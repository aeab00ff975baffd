"""A customer switches one educator off in the Notification settings dialog: that educator's next idea sends
no push, another educator's does. Headless Chromium has no push service, so the customer's subscription
points at a fake one on 127.0.0.1 that decrypts and records what it receives."""

import base64
import json
import os
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece  # type: ignore[import-untyped]
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Browser, BrowserContext, expect

from e2e.conftest import DEMO_PASSWORD, EDUCATOR_A, EDUCATOR_B, new_context
from e2e.test_ideas import _create_via_api, _idea_body

ADMIN = "admin@example.com"


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class FakePushService:
    """POST /push/<name>: decrypted with the subscription's keys and kept in `received`."""

    def __init__(self) -> None:
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        self.received: list[dict[str, Any]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                plain = http_ece.decrypt(
                    body, private_key=service.private_key, auth_secret=service.auth_secret, version="aes128gcm"
                )
                service.received.append(json.loads(plain))
                self.send_response(201)
                self.end_headers()

            def log_message(self, *_args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def subscription(self) -> dict[str, Any]:
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        endpoint = f"http://127.0.0.1:{self.server.server_address[1]}/push/{uuid.uuid4().hex}"
        return {"endpoint": endpoint, "keys": {"p256dh": _b64url(public), "auth": _b64url(self.auth_secret)}}

    def wait_for(self, count: int, seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while len(self.received) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"expected {count} pushes, got {self.received}")
            time.sleep(0.1)


@pytest.fixture
def push_service() -> Iterator[FakePushService]:
    service = FakePushService()
    yield service
    service.server.shutdown()


def _api_login(context: BrowserContext, email: str, role: str) -> None:
    body = {"email": email, "password": DEMO_PASSWORD, "selectedRole": role}
    response = context.request.post("/api/auth/login", data=body)
    assert response.status == 200, response.text()


def _new_customer(browser: Browser, base_url: str) -> BrowserContext:
    """A customer of this test alone (invited by the admin), so switching an educator off touches no other journey."""
    admin = new_context(browser, base_url)
    _api_login(admin, ADMIN, "admin")
    email = f"push-{uuid.uuid4().hex[:10]}@example.com"
    invite = admin.request.post("/api/admin/invites", data={"email": email, "firstName": "Pia", "lastName": "Push"})
    assert invite.status == 201, invite.text()
    token = invite.json()["inviteUrl"].rstrip("/").rsplit("/", 1)[1]
    admin.close()
    customer = new_context(browser, base_url, {"width": 390, "height": 844})
    accepted = customer.request.post(f"/api/invites/{token}/accept", data={"password": "push-journey-pass-1"})
    assert accepted.status == 200, accepted.text()
    return customer


def test_no_push_for_a_switched_off_educator_and_one_for_another(
    browser: Browser, base_url: str, push_service: FakePushService
) -> None:
    customer = _new_customer(browser, base_url)
    educator_a, educator_b = new_context(browser, base_url), new_context(browser, base_url)
    try:
        page = customer.new_page()
        page.goto("/customer/forex")
        page.get_by_role("button", name="Notification settings").click()
        dialog = page.get_by_role("dialog", name="Notification Settings")
        alex = dialog.get_by_role("switch", name="Alex Morgan")  # educator1@example.com
        expect(alex).to_be_checked()
        alex.click()
        expect(page.get_by_text("Alex Morgan off.")).to_be_visible()
        expect(dialog.get_by_role("switch", name="Sofia Reyes")).to_be_checked()

        subscribed = customer.request.post("/api/push/subscriptions", data=push_service.subscription())
        assert subscribed.status == 201, subscribed.text()

        _api_login(educator_a, EDUCATOR_A, "educator")
        _api_login(educator_b, EDUCATOR_B, "educator")
        muted = _create_via_api(educator_a, _idea_body("NZD/CHF", timeFrame="17m push-off"))
        heard = _create_via_api(educator_b, _idea_body("CAD/CHF", timeFrame="17m push-on"))

        # Deliveries are sent in the order they were queued: once Sofia's idea arrived, Alex's would have too.
        push_service.wait_for(1)
        assert [(m["pair"], m.get("ideaId")) for m in push_service.received] == [("CAD/CHF", heard["id"])]
        assert push_service.received[0]["title"] == "New Forex trade idea from Sofia Reyes"

        for idea, educator in ((muted, educator_a), (heard, educator_b)):
            assert educator.request.delete(f"/api/trade-ideas/{idea['id']}").status == 204
    finally:
        for context in (customer, educator_a, educator_b):
            context.close()
