"""Price checks in the browser: a customer watches an idea whose price path (served by a local feed speaking the
Binance protocol) triggers the entry and reaches exit 1; the card's price-check line changes without a reload. A
forex idea is checked out of the box from Dukascopy's hour files (the same local server), and an index reads as
not available, in the member's words."""

import itertools
import re
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A, REPO, login, new_context, serve_with_feed

sys.path.insert(0, str(REPO / "backend"))  # the local feed of the API tests
from tests.prices.fakefeed import Bar, FeedState

MINUTE = 60


def _a_setup(api: httpx.Client) -> int:
    """One of the signed-in educator's setups: this server keeps the demo history, whose educators keep setups, so
    a new idea names one (issue #42)."""
    setups = api.get("/api/me/setups").json()
    return int(setups[0]["id"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, feed: tuple[str, FeedState]) -> Iterator[str]:
    """A server of this module's own, polling the local feed every second."""
    yield from serve_with_feed(tmp_path_factory.mktemp("e2e-prices"), feed[0])


def level_tags_stay_in_the_pane(page: Page, pair: str, titles: tuple[str, ...]) -> None:
    """Each level's tag is shown inside the chart's pane (so none covers a label of the price scale), and no two
    overlap."""
    chart = page.get_by_role("img", name=re.compile(re.escape(pair).replace("/", "\\/") + " candlestick chart"))
    expect(chart).to_be_visible(timeout=20_000)
    tags = [chart.locator("..").get_by_text(re.compile(f"^{title} [0-9]")) for title in titles]
    for tag in tags:
        expect(tag).to_be_visible()
    pane = chart.locator("tr").first.locator("td").nth(1).bounding_box()  # left scale, pane, right scale
    assert pane is not None
    boxes = [box for box in (tag.bounding_box() for tag in tags) if box is not None]
    assert len(boxes) == len(titles)
    for box in boxes:
        assert pane["x"] <= box["x"] and box["x"] + box["width"] <= pane["x"] + pane["width"]
        assert pane["y"] <= box["y"] and box["y"] + box["height"] <= pane["y"] + pane["height"]
    tops = sorted(box["y"] for box in boxes)
    assert all(lower - upper >= boxes[0]["height"] - 0.5 for upper, lower in itertools.pairwise(tops))


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
        r = api.post("/api/trade-ideas", json={**body, "setupId": _a_setup(api)})
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
        level_tags_stay_in_the_pane(page, "BTC/USDT", ("Entry 1", "Invalidation", "Exit 1"))

        # Then it reaches exit 1, the idea's last exit: settled at +1.00 R, its receipts one click away. That candle
        # opens once the one before it is under way: the server refuses a candle from further in the future.
        time.sleep(max(0.0, minute + MINUTE + 1 - time.time()))
        state.put("BTCUSDT", "1m", [Bar(minute + 2 * MINUTE, "100.2", "110.4", "100", "110.1")])
        settled = page.get_by_role("button", name="Price check: Exit 1 reached +1.00 R")
        expect(settled).to_be_visible(timeout=20_000)
        settled.click()
        receipts = page.get_by_role("list", name="Receipts")
        expect(receipts.get_by_role("listitem")).to_have_count(2)
        expect(page.get_by_role("dialog").get_by_text("BTCUSDT")).to_be_visible()
    finally:
        ctx.close()


def test_a_forex_idea_is_checked_from_dukascopy_without_any_account(
    browser: Browser, server: str, feed: tuple[str, FeedState]
) -> None:
    _, state = feed
    now = int(time.time())
    hour = now - now % 3600
    # The hour before publishing has ended, so its file is there; the hour in progress appears once it ends.
    state.put_ticks("EURCHF", hour - 3600, [(k * 60_000, 94_210 + k, 94_200 + k) for k in range(60)])
    with httpx.Client(base_url=server) as api:
        r = api.post(
            "/api/auth/login", json={"email": EDUCATOR_A, "password": DEMO_PASSWORD, "selectedRole": "educator"}
        )
        assert r.status_code == 200, r.text
        ids = []
        for pair, levels in (("EUR/CHF", ("0.9450", "0.9400", "0.9520")), ("SPX500", ("5210", "5140", "5290"))):
            body = {"marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage", "pair": pair, "timeFrame": "1H",
                    "entry1": levels[0], "invalidationLevel": levels[1], "exit1": levels[2]}  # fmt: skip
            r = api.post("/api/trade-ideas", json={**body, "setupId": _a_setup(api)})
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])

    ctx = new_context(browser, server)
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.goto(f"/customer/ideas/{ids[0]}")
        awaited = f"{time.gmtime(time.time()).tm_hour:02d}:00 UTC"
        expect(page.get_by_role("button", name=f"Price check: waiting for the {awaited} data")).to_be_visible(
            timeout=20_000
        )
        expect(page.get_by_text("Prices from Dukascopy (bid)")).to_be_visible(timeout=20_000)
        page.goto(f"/customer/ideas/{ids[1]}")
        line = page.get_by_role("button", name="Price check: not available for SPX500 yet")
        expect(line).to_be_visible(timeout=20_000)
        line.click()
        # The operator's reason is one tap away, in the receipts; the card itself speaks to the member.
        expect(page.get_by_role("dialog").get_by_text("the pair has no Dukascopy symbol")).to_be_visible()
    finally:
        ctx.close()


def test_the_record_switch_changes_every_panel_to_the_price_checks(
    browser: Browser, server: str, feed: tuple[str, FeedState]
) -> None:
    """An idea the price check settles at exit 1 (+1 R) that the educator called a loss (-1 R): the record's
    "Price-checked" view shows the price check's curve, coverage and list, the "Educator's calls" view the call."""
    _, state = feed
    now = int(time.time())
    minute = now - now % MINUTE
    state.put("ETHUSDT", "1m", [Bar(minute - k * MINUTE, "95", "95.5", "94.5", "95") for k in range(1, 120)])
    login_body = {"email": EDUCATOR_A, "password": DEMO_PASSWORD, "selectedRole": "educator"}
    body = {"marketType": "Crypto", "orderType": "BUY", "ideaType": "Exchange", "pair": "ETH/USDT", "timeFrame": "2H",
            "entry1": "100", "invalidationLevel": "90", "exit1": "110"}  # fmt: skip
    with httpx.Client(base_url=server) as api:
        assert api.post("/api/auth/login", json=login_body).status_code == 200
        r = api.post("/api/trade-ideas", json={**body, "setupId": _a_setup(api)})
        assert r.status_code == 201, r.text
        idea = r.json()
        state.put("ETHUSDT", "1m", [Bar(minute + MINUTE, "95", "100.5", "95", "100.2")])
        time.sleep(max(0.0, minute + MINUTE + 1 - time.time()))
        state.put("ETHUSDT", "1m", [Bar(minute + 2 * MINUTE, "100.2", "110.4", "100", "110.1")])
        deadline = time.time() + 30
        while time.time() < deadline:
            shown = api.get(f"/api/trade-ideas/{idea['id']}").json()["verification"]
            if shown and shown["state"] == "settled":
                break
            time.sleep(0.5)
        assert shown and shown["state"] == "settled", shown
        called = api.put(f"/api/trade-ideas/{idea['id']}", json={"status": "unsuccessful"})  # the educator's call
        assert called.status_code == 200, called.text
        slug = next(e["educator"]["slug"] for e in api.get("/api/educators/track-records").json()
                    if e["educator"]["id"] == idea["educatorId"])  # fmt: skip

    ctx = new_context(browser, server)
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.goto(f"/customer/educators/{slug}")
        page.get_by_label("Time frame").select_option("2H")  # this idea's selection alone
        completed = page.get_by_role("region", name=re.compile("^Completed ideas"))
        curve = page.get_by_role("heading", name=re.compile("^Equity curve"))
        expect(curve).to_contain_text("educator's calls")
        expect(curve).to_contain_text("now \u22121.00 R")
        expect(completed.get_by_text("\u22121.00 R", exact=True)).to_be_visible()

        page.get_by_role("group", name="Figures from").get_by_role("button", name="Price-checked").click()
        expect(curve).to_contain_text("price-checked")
        expect(curve).to_contain_text("now +1.00 R")
        expect(page.get_by_role("group", name="What these figures cover")).to_contain_text("1 of 1 ideas price-checked")
        checked = re.compile("^Price check: Exit 1 reached \\+1.00 R · educator's call")
        expect(completed.get_by_text(checked)).to_be_visible()
        expect(completed.get_by_text("+1.00 R", exact=True)).to_be_visible()
        agreement = re.compile("^Agreement .+ on the 1 price-checked idea: the price checks give")
        expect(page.get_by_text(agreement)).to_be_visible()
    finally:
        ctx.close()
