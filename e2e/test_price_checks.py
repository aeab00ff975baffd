"""Price checks in the browser: a customer watches an idea whose price path (served by a local feed speaking the
Binance protocol) triggers the entry and reaches exit 1; the card's price-check line changes without a reload."""

import os
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A, REPO, _free_port, login, new_context, serve_app

sys.path.insert(0, str(REPO / "backend"))  # the local feed of the API tests
from tests.prices.fakefeed import Bar, FeedState, fake_feed

MINUTE = 60


@pytest.fixture(scope="module")
def feed() -> Iterator[tuple[str, FeedState]]:
    with fake_feed() as served:
        served[1].now = time.time() + 3600  # every candle served counts as complete
        yield served


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, feed: tuple[str, FeedState]) -> Iterator[str]:
    """A server of this module's own, polling the local feed every second."""
    data_dir = tmp_path_factory.mktemp("e2e-prices")
    port = _free_port()
    env = {
        **os.environ,
        "DATA_DIR": str(data_dir),
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DEMO_PASSWORD": DEMO_PASSWORD,
        "LOG_LEVEL": "warning",
        "BINANCE_API_URL": feed[0],
        "PRICE_POLL_SECONDS": "1",
    }
    env.pop("DATABASE_URL", None)
    yield from serve_app(env, data_dir, port)


def test_customer_watches_an_idea_trigger_and_reach_exit_1(
    browser: Browser, server: str, feed: tuple[str, FeedState]
) -> None:
    _, state = feed
    now = int(time.time())
    minute = now - now % MINUTE
    state.put("BTCUSDT", "1m", [Bar(minute - k * MINUTE, "95", "95.5", "94.5", "95") for k in range(1, 120)])
    with httpx.Client(base_url=server) as api:
        r = api.post(
            "/api/auth/login", json={"email": EDUCATOR_A, "password": DEMO_PASSWORD, "selectedRole": "educator"}
        )
        assert r.status_code == 200, r.text
        body = {
            "marketType": "Crypto",
            "orderType": "BUY",
            "ideaType": "Leverage",
            "pair": "BTC/USDT",
            "timeFrame": "1H",
            "entry1": "100",
            "invalidationLevel": "90",
            "exit1": "110",
        }
        r = api.post("/api/trade-ideas", json=body)
        assert r.status_code == 201, r.text
        idea_id = r.json()["id"]

    ctx = new_context(browser, server)
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.goto(f"/customer/ideas/{idea_id}")
        line = page.get_by_role("button", name="Price check: waiting for entry")
        expect(line).to_be_visible(timeout=20_000)

        # The next minute trades through the entry: the line changes while the page stays open.
        state.put("BTCUSDT", "1m", [Bar(minute + MINUTE, "95", "100.5", "95", "100.2")])
        expect(page.get_by_role("button", name="Price check: entry triggered")).to_be_visible(timeout=20_000)

        # Then it reaches exit 1, the idea's last exit: settled at +1.00 R, its receipts one click away.
        state.put("BTCUSDT", "1m", [Bar(minute + 2 * MINUTE, "100.2", "110.4", "100", "110.1")])
        settled = page.get_by_role("button", name="Price check: Exit 1 reached +1.00 R")
        expect(settled).to_be_visible(timeout=20_000)
        settled.click()
        receipts = page.get_by_role("list", name="Receipts")
        expect(receipts.get_by_role("listitem")).to_have_count(2)
        expect(page.get_by_role("dialog").get_by_text("BTCUSDT")).to_be_visible()
    finally:
        ctx.close()
