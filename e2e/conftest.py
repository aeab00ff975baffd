"""Browser journeys: a real server (built SPA + API on a fresh SQLite DATA_DIR) driven by Debian's Chromium."""

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import (
    APIRequestContext,
    Browser,
    BrowserContext,
    Page,
    Playwright,
    expect,
    sync_playwright,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from tests.billing.fakestripe import FakeStripe
from tests.ledger.local_tsa import local_tsa
from tests.prices.fakefeed import FeedState, fake_feed

REPO = Path(__file__).resolve().parents[1]
AXE = REPO / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
DEMO_PASSWORD = "e2e-demo-password"
CUSTOMER = "customer@example.com"
EDUCATOR_A = "educator1@example.com"
EDUCATOR_B = "educator2@example.com"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STRIPE_WEBHOOK_SECRET = "whsec_e2e"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}  # the desktop width the app is reviewed at (issue #13)

expect.set_options(timeout=10_000)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve_app(env: dict[str, str], data_dir: Path, port: int) -> Iterator[str]:
    """`tradeideas serve` with `env` until the generator is closed: yields its address once it answers."""
    log = (data_dir / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "tradeideas.cli", "serve"], env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # migrating and seeding take over a minute on a busy machine
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"server did not start:\n{(data_dir / 'server.log').read_text()}")
        time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=15)


@pytest.fixture(scope="module")
def feed() -> Iterator[tuple[str, FeedState]]:
    """The local price feed (Binance's and Dukascopy's protocols) of one module's server, and its state."""
    with fake_feed() as served:
        served[1].now = time.time() + 3600  # every candle served counts as complete
        yield served


def serve_with_feed(data_dir: Path, feed_url: str, **env: str) -> Iterator[str]:
    """`serve_app` polling the local feed every second for crypto and forex alike (no OANDA account), with `env`."""
    port = _free_port()
    settings = {
        **os.environ,
        "DATA_DIR": str(data_dir),
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DEMO_PASSWORD": DEMO_PASSWORD,
        "LOG_LEVEL": "warning",
        "BINANCE_API_URL": feed_url,
        "DUKASCOPY_URL": feed_url,
        "PRICE_POLL_SECONDS": "1",
        **env,
    }
    for name in ("DATABASE_URL", "OANDA_TOKEN", "FOREX_FEED"):
        settings.pop(name, None)
    yield from serve_app(settings, data_dir, port)


def _server_env(data_dir: Path, port: int) -> dict[str, str]:
    if not (REPO / "frontend" / "dist" / "index.html").is_file():
        raise RuntimeError("frontend/dist is missing: run `make build` first")
    env = {
        **os.environ,
        "DATA_DIR": str(data_dir),
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DEMO_PASSWORD": DEMO_PASSWORD,
        "CHANNEL_URL": "https://example.com/e2e-channel",
        "LOG_LEVEL": "warning",
        # The journeys count ideas on pages the six months of demo history would fill (test_proof reads the record).
        "DEMO_HISTORY": "false",
        # The push journeys' fake push service listens on 127.0.0.1 (plain http only when listed explicitly).
        "PUSH_ENDPOINT_HOSTS": "fcm.googleapis.com,updates.push.services.mozilla.com,.push.apple.com,127.0.0.1",
    }
    env.pop("DATABASE_URL", None)
    return env


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("e2e-data")
    port = _free_port()
    env = _server_env(data_dir, port)
    # The ledger is time-stamped by a local RFC 3161 authority (OpenSSL's, as in tests/ledger), since none outside
    # is reachable here: /proof then shows real tokens (test_proof).
    with local_tsa(data_dir / "tsa", "E2E Test") as tsa:
        env["TSA_URLS"] = tsa.url
        yield from serve_app(env, data_dir, port)


@dataclass(frozen=True)
class PaidServer:
    url: str
    stripe: FakeStripe

    def webhook(self, kind: str, obj: dict[str, Any]) -> None:
        """The local Stripe delivers a signed event to the server's webhook endpoint."""
        r = self.stripe.deliver(f"{self.url}/api/billing/webhook", STRIPE_WEBHOOK_SECRET, kind, obj)
        assert r.status_code == 200, r.text


@pytest.fixture(scope="module")
def paid_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PaidServer]:
    """A server of its own with billing configured (the other journeys keep billing off): Stripe is the local server
    of tests/billing, with its stand-in for the hosted checkout page, at STRIPE_API_URL."""
    data_dir = tmp_path_factory.mktemp("e2e-paid")
    port = _free_port()
    stripe = FakeStripe()
    env = _server_env(data_dir, port) | {
        "STRIPE_SECRET_KEY": "sk_test_e2e",
        "STRIPE_WEBHOOK_SECRET": STRIPE_WEBHOOK_SECRET,
        "STRIPE_API_URL": stripe.url,
    }
    try:
        for url in serve_app(env, data_dir, port):
            yield PaidServer(url, stripe)
    finally:
        stripe.close()


@pytest.fixture(scope="module")
def history_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own with the demo's six months of history (`make run`'s data): records long enough for what
    needs many price-checked ideas, such as the challenge (the other journeys count ideas on pages it would fill)."""
    data_dir = tmp_path_factory.mktemp("e2e-history")
    port = _free_port()
    yield from serve_app(_server_env(data_dir, port) | {"DEMO_HISTORY": "true"}, data_dir, port)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield b
    b.close()


def new_context(browser: Browser, base_url: str, viewport: dict[str, int] | None = None) -> BrowserContext:
    ctx = browser.new_context(base_url=base_url, viewport=viewport or DESKTOP)  # type: ignore[arg-type]
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    return ctx


@pytest.fixture
def context(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    ctx = new_context(browser, base_url)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


def login(page: Page, email: str, *, educator: bool = False, password: str = DEMO_PASSWORD) -> None:
    page.goto("/zinrai-educators-1" if educator else "/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Access Educator Portal" if educator else "Sign In").click()
    target = "/educator/dashboard" if educator else "/customer/dashboard"
    expect(page).to_have_url(re.compile(re.escape(target) + "$"))


@contextmanager
def educator_api(browser: Browser, base_url: str) -> Iterator[APIRequestContext]:
    """Requests made as educator A (signed in through the API), for a test's setup and clean-up."""
    ctx = browser.new_context(base_url=base_url)
    try:
        r = ctx.request.post(
            "/api/auth/login", data={"email": EDUCATOR_A, "password": DEMO_PASSWORD, "selectedRole": "educator"}
        )
        assert r.ok, r.text()
        yield ctx.request
    finally:
        ctx.close()


def publish_idea(
    browser: Browser, base_url: str, *, edit: dict[str, Any] | None = None, **fields: Any
) -> dict[str, Any]:
    """Educator A publishes a Forex idea through the API (the form has its own journeys), then applies `edit`
    to it if given (which marks it edited); returns the idea."""
    with educator_api(browser, base_url) as api:
        body = {"marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage", **fields}
        r = api.post("/api/trade-ideas", data=body)
        assert r.status == 201, r.text()
        idea: dict[str, Any] = r.json()
        if edit is not None:
            r = api.patch(f"/api/trade-ideas/{idea['id']}", data=edit)
            assert r.ok, r.text()
            idea = r.json()
        return idea


def record_anyway_if_the_price_check_disagrees(page: Page) -> None:
    """Recording an outcome the price check contradicts asks once (issue #39); the journeys' feeds are unreachable,
    so a check that has seen no price yet may say the entry never triggered. Answers "Record anyway" when asked."""
    dialog = page.get_by_role("alertdialog", name="The price check disagrees")
    try:
        dialog.wait_for(timeout=3_000)
    except PlaywrightTimeoutError:
        return
    dialog.get_by_role("button", name="Record anyway").click()


def axe_findings(page: Page) -> list[str]:
    """The page's axe violations of every impact (issue #39: "0 violations on every page"), each with up to five of
    its elements (empty when clean). The context must bypass the app's CSP: axe is injected as a script."""
    # Colours caught mid-transition (a radio just unchecked fading from its colour) are not what anyone reads, and a
    # busy headless browser may hold a transition at its start: finite animations and transitions jump to their end.
    page.evaluate(
        """document.getAnimations().forEach((a) => {
            try {
                if (a.effect && a.effect.getComputedTiming().endTime !== Infinity) a.finish();
            } catch { /* an animation that cannot finish is left as it is */ }
        })"""
    )
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}" for v in results["violations"]]
