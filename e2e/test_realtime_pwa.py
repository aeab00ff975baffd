"""Realtime and PWA journeys: ideas arrive and leave live over Server-Sent Events (no reload, no refetch),
the service worker registers at /sw.js with scope /, the web app manifest and its icons load, the install
banner's Not Now, the push test page, and the discreet Reconnecting notice."""

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page, Request, Route, expect

from e2e.conftest import (
    CUSTOMER,
    DESKTOP,
    EDUCATOR_A,
    PHONE,
    educator_api,
    login,
    new_context,
    record_anyway_if_the_price_check_disagrees,
)

SHOTS = Path(os.environ["E2E_SHOTS"]) if os.environ.get("E2E_SHOTS") else None


def _shot(page: Page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


# Other journeys share the server and leave ideas on the same pair; this one's cards carry their own time frame.
LIVE_TIME_FRAME = "LIVE-1H"


def _card(page: Page, pair: str) -> Locator:
    return page.get_by_role("article", name=f"{pair} trade idea").filter(has_text=LIVE_TIME_FRAME)


def _idea_body(pair: str) -> dict[str, Any]:
    return {
        "marketType": "Forex",
        "orderType": "SELL",
        "ideaType": "Leverage",
        "pair": pair,
        "timeFrame": LIVE_TIME_FRAME,
        "entry1": "1.2500",
        "invalidationLevel": "1.2600",
        "exit1": "1.2300",
    }


def _wait_for_stream(page: Page) -> None:
    """The page's EventSource is open (so nothing published after this point can be missed)."""
    # A selector, not wait_for_function: polling a string predicate needs eval, which the app's CSP forbids.
    expect(page.locator("html[data-realtime='open']")).to_have_count(1)


_STAMP_WHEN_CARD_APPEARS = """([label, text]) => {
    const found = () => [...document.querySelectorAll('article')].some(
        a => a.getAttribute('aria-label') === label && a.textContent.includes(text));
    new MutationObserver((_, observer) => {
        if (found()) { window.__cardAppearedAt = Date.now(); observer.disconnect(); }
    }).observe(document.body, { childList: true, subtree: true });
}"""


def _idea_requests(page: Page) -> list[str]:
    seen: list[str] = []

    def on_request(request: Request) -> None:
        if "/api/trade-ideas" in request.url and request.method == "GET":
            seen.append(request.url)

    page.on("request", on_request)
    return seen


def test_new_idea_and_status_change_arrive_live(browser: Browser, base_url: str) -> None:
    customer_ctx = new_context(browser, base_url)
    educator_ctx = new_context(browser, base_url)
    try:
        customer = customer_ctx.new_page()
        login(customer, CUSTOMER)
        customer.goto("/customer/forex")
        expect(customer.get_by_role("heading", name="Forex Trade Ideas")).to_be_visible()
        expect(customer.get_by_role("article").first).to_be_visible()
        history = customer_ctx.new_page()
        history.goto("/customer/forex/leverage")
        expect(history.get_by_role("heading", name="Leverage Ideas History")).to_be_visible()

        educator = educator_ctx.new_page()
        login(educator, EDUCATOR_A, educator=True)
        for p in (customer, history, educator):
            _wait_for_stream(p)
            p.evaluate("window.__noReload = true")
        refetches = _idea_requests(customer)

        # (a) An idea created in another browser shows up on the customer's open page within a second,
        # pushed over SSE (no refetch, no reload). The page itself stamps the moment the card is
        # rendered, so the measurement does not depend on how often the test polls.
        pair = "GBP/USD"
        customer.evaluate(_STAMP_WHEN_CARD_APPEARS, [f"{pair} trade idea", LIVE_TIME_FRAME])
        started_ms = time.time() * 1000
        response = educator_ctx.request.post("/api/trade-ideas", data=_idea_body(pair), headers={"Origin": base_url})
        assert response.status == 201, response.text()
        idea = response.json()
        card = _card(customer, pair)
        expect(card).to_be_visible()
        elapsed_ms = customer.evaluate("window.__cardAppearedAt") - started_ms
        assert elapsed_ms < 1000, f"the new idea took {elapsed_ms:.0f} ms to appear"
        expect(card.get_by_text("NEW", exact=True)).to_be_visible()
        assert customer.evaluate("window.__noReload") is True
        assert refetches == [], f"the list was refetched: {refetches}"
        # The educator's own dashboard got it live too.
        mine = _card(educator, pair)
        expect(mine).to_be_visible()
        assert educator.evaluate("window.__noReload") is True

        # (b) The educator marks it successful: it leaves the customer's carousel and joins history, live.
        mine.get_by_role("button", name="Successful", exact=True).click()
        educator.get_by_role("menuitem", name="Exit 1 reached").click()
        record_anyway_if_the_price_check_disagrees(educator)
        expect(educator.get_by_text("Trade idea marked successful")).to_be_visible()
        expect(_card(customer, pair)).to_have_count(0)
        done = _card(history, pair)
        expect(done).to_be_visible()
        expect(done.get_by_text("Successful", exact=True)).to_be_visible()
        assert customer.evaluate("window.__noReload") is True
        assert history.evaluate("window.__noReload") is True
        assert refetches == [], f"the list was refetched: {refetches}"

        # Reopening it removes it from history everywhere (completed ideas cannot be deleted); then it can go.
        url = f"/api/trade-ideas/{idea['id']}"
        reopened = educator_ctx.request.put(url, data={"status": "pending"}, headers={"Origin": base_url})
        assert reopened.status == 200, reopened.text()
        expect(_card(history, pair)).to_have_count(0)
        gone = educator_ctx.request.delete(url, headers={"Origin": base_url})
        assert gone.status == 204, gone.text()
        expect(_card(history, pair)).to_have_count(0)
    finally:
        customer_ctx.close()
        educator_ctx.close()


def test_an_idea_published_between_the_first_data_and_the_stream_still_shows(browser: Browser, base_url: str) -> None:
    """The market page opens its event stream a moment after its first data (decision 0063). An idea published in
    that moment is on no list the page read and in no event the stream sends live: the stream, opened from the
    data's position (`?since=`), starts with `resync` and the page reloads its list."""
    # Without the service worker, whose fetches the page's routes would not see.
    ctx = browser.new_context(base_url=base_url, viewport=PHONE, service_workers="block")  # type: ignore[arg-type]
    held: list[Route] = []
    idea: dict[str, Any] | None = None
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)

        def hold(route: Route) -> None:  # the stream waits until the idea is out
            held.append(route)

        page.route("**/api/events*", hold)
        page.goto("/customer/forex")
        expect(page.get_by_role("article").first).to_be_visible()
        deadline = time.monotonic() + 10
        while not held and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert held, "the page never opened its event stream"
        assert re.search(r"[?&]since=\d+", held[0].request.url), held[0].request.url

        with educator_api(browser, base_url) as api:
            r = api.post("/api/trade-ideas", data=_idea_body("AUD/USD"), headers={"Origin": base_url})
            assert r.status == 201, r.text()
            idea = r.json()
            card = _card(page, "AUD/USD")
            expect(card).to_have_count(0)  # not on the list the page read
            held[0].continue_()
            page.unroute("**/api/events*")
            expect(card).to_be_visible(timeout=5_000)
            _wait_for_stream(page)
    finally:
        if idea is not None:
            with educator_api(browser, base_url) as api:
                api.delete(f"/api/trade-ideas/{idea['id']}", headers={"Origin": base_url})
        ctx.close()


def test_service_worker_and_manifest(browser: Browser, base_url: str) -> None:
    ctx = new_context(browser, base_url)
    try:
        page = ctx.new_page()
        page.goto("/login")
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == f"{base_url}/"
        script = page.evaluate("navigator.serviceWorker.ready.then(r => r.active && r.active.scriptURL)")
        assert script == f"{base_url}/sw.js"

        href = page.locator("link[rel=manifest]").get_attribute("href")
        assert href == "/manifest.webmanifest"
        response = ctx.request.get(href)
        assert response.status == 200
        manifest = json.loads(response.text())
        assert manifest["name"] == "Trade Ideas"
        assert manifest["short_name"]
        assert manifest["description"]
        assert manifest["start_url"] == "/"
        assert manifest["display"] == "standalone"
        assert re.fullmatch(r"#[0-9a-fA-F]{6}", manifest["background_color"])
        assert re.fullmatch(r"#[0-9a-fA-F]{6}", manifest["theme_color"])
        sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
        for icon in manifest["icons"]:
            got = ctx.request.get(icon["src"])
            assert got.status == 200, icon["src"]
            assert got.headers["content-type"] == "image/png", icon["src"]
            assert got.body()[:8] == b"\x89PNG\r\n\x1a\n"

        sw = ctx.request.get("/sw.js")
        assert sw.status == 200
        assert "javascript" in sw.headers["content-type"]
        assert "no-cache" in sw.headers.get("cache-control", "")
    finally:
        ctx.close()


def _offer_install(page: Page) -> None:
    page.evaluate(
        """() => {
            const e = new Event('beforeinstallprompt', { cancelable: true });
            e.prompt = async () => { window.__prompted = true; };
            e.userChoice = Promise.resolve({ outcome: 'dismissed', platform: 'web' });
            window.dispatchEvent(e);
        }"""
    )


def test_install_banner_not_now_hides_it_for_seven_days(browser: Browser, base_url: str) -> None:
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx = new_context(browser, base_url, viewport)
        try:
            page = ctx.new_page()
            page.goto("/login")
            expect(page.get_by_role("button", name="Sign In")).to_be_visible()
            banner = page.get_by_role("region", name="Install app")
            # Never on the login page, where it would cover the legal links (issue #39).
            _offer_install(page)
            page.wait_for_timeout(300)
            expect(banner).to_have_count(0)
            expect(page.get_by_role("button", name="Terms of Use")).to_be_visible()

            login(page, CUSTOMER)
            _offer_install(page)
            expect(banner).to_be_visible()
            expect(banner.get_by_role("button", name="Install")).to_be_visible()
            box = banner.bounding_box()
            assert box is not None
            if viewport is PHONE:  # one line at the bottom: at most 12 % of the screen
                assert box["height"] <= 0.12 * viewport["height"], box
                assert abs(box["y"] + box["height"] - viewport["height"]) <= 1, box
            _shot(page, f"install-banner-{name}")

            banner.get_by_role("button", name="Not now").click()
            expect(banner).to_have_count(0)
            stored = page.evaluate("Number(localStorage.getItem('pwa-install-dismissed-at'))")
            assert abs(stored - page.evaluate("Date.now()")) < 60_000

            page.reload()
            expect(page.get_by_role("main")).to_be_visible()
            _offer_install(page)
            page.wait_for_timeout(300)
            expect(banner).to_have_count(0)

            # Eight days later it is offered again; Install opens the browser's dialog.
            page.evaluate("localStorage.setItem('pwa-install-dismissed-at', String(Date.now() - 8 * 864e5))")
            page.reload()
            expect(page.get_by_role("main")).to_be_visible()
            _offer_install(page)
            expect(banner).to_be_visible()
            banner.get_by_role("button", name="Install").click()
            expect(banner).to_have_count(0)
            assert page.evaluate("window.__prompted") is True
        finally:
            ctx.close()


def test_push_test_page_reports_the_outcome(browser: Browser, base_url: str) -> None:
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx: BrowserContext = new_context(browser, base_url, viewport)
        ctx.grant_permissions(["notifications"], origin=base_url)
        try:
            page = ctx.new_page()
            login(page, EDUCATOR_A, educator=True)
            page.goto("/test-notifications")
            expect(page.get_by_role("heading", name="Push Notification Test")).to_be_visible()
            page.get_by_role("button", name="Send Test Notification").click()
            # Headless Chromium has no push service, so the browser cannot subscribe: the page says so.
            outcome = page.get_by_role("alert").or_(page.get_by_role("status").filter(has_text="Test notification"))
            expect(outcome).to_contain_text(
                re.compile(r"Test notification (sent successfully!|failed)"), timeout=20_000
            )
            expect(page.get_by_text("PushAlert")).to_have_count(0)  # plain words, no vendor name
            _shot(page, f"test-notifications-{name}")
            page.get_by_role("button", name="Send Trade Notification").click()
            outcome = page.get_by_role("alert").or_(page.get_by_role("status").filter(has_text="Trade notification"))
            expect(outcome).to_contain_text(
                re.compile(r"Trade notification (sent successfully!|failed)"), timeout=20_000
            )
        finally:
            ctx.close()


def test_reconnecting_notice_when_the_stream_drops(browser: Browser, base_url: str) -> None:
    ctx = new_context(browser, base_url)
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.goto("/customer/forex")
        expect(page.get_by_role("article").first).to_be_visible()
        _wait_for_stream(page)
        notice = page.get_by_role("status").filter(has_text="Reconnecting…")
        expect(notice).to_have_count(0)
        ctx.set_offline(True)
        expect(page.get_by_role("status").filter(has_text="Offline: ")).to_be_visible()
        expect(notice).to_be_visible()
        ctx.set_offline(False)
        expect(notice).to_have_count(0, timeout=15_000)
        expect(page.get_by_role("status").filter(has_text="Offline: ")).to_have_count(0)
    finally:
        ctx.close()


# Resolves once the number of idea cards on the page has not changed for ten frames: the carousel draws the
# slides next to the view shortly after the first ones, once it has measured itself.
_CARDS_SETTLED = """() => new Promise((resolve) => {
  let last = -1, same = 0;
  const tick = () => {
    const count = document.querySelectorAll('article').length;
    same = count === last ? same + 1 : 0;
    last = count;
    if (same >= 10) resolve(count); else requestAnimationFrame(tick);
  };
  tick();
})"""


def test_offline_the_dashboard_shows_the_ideas_last_loaded(browser: Browser, base_url: str) -> None:
    ctx = new_context(browser, base_url)
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.evaluate("navigator.serviceWorker.ready")
        page.goto("/customer/forex")
        expect(page.get_by_role("article").first).to_be_visible()
        assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
        page.evaluate(_CARDS_SETTLED)
        pairs = page.get_by_role("article").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        cached = page.evaluate(
            "caches.open('api-offline').then(c => c.keys()).then(ks => ks.map(r => new URL(r.url).pathname))"
        )
        assert "/api/trade-ideas" in cached and "/api/auth/user" in cached

        ctx.set_offline(True)
        page.reload()
        expect(page.get_by_role("status").filter(has_text="Offline: ")).to_be_visible()
        expect(page.get_by_role("heading", name="Forex Trade Ideas")).to_be_visible()
        expect(page.get_by_role("article").first).to_be_visible()
        page.evaluate(_CARDS_SETTLED)
        assert page.get_by_role("article").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") == pairs
        ctx.set_offline(False)
    finally:
        ctx.close()


def test_chat_messages_edits_deletes_and_reactions_arrive_live(browser: Browser, base_url: str) -> None:
    """Two open customer chat pages follow an educator's posts, edits, deletes and reactions without reloading."""
    first_ctx = new_context(browser, base_url, viewport=PHONE)
    second_ctx = new_context(browser, base_url)
    educator_ctx = new_context(browser, base_url)
    try:
        readers = []
        for ctx in (first_ctx, second_ctx):
            page = ctx.new_page()
            login(page, CUSTOMER)
            page.goto("/customer/chat")
            expect(page.get_by_role("tab", name="Leverage Ideas")).to_have_attribute("aria-selected", "true")
            _wait_for_stream(page)
            page.evaluate("window.__noReload = true")
            readers.append(page)
        first, second = readers

        educator = educator_ctx.new_page()
        login(educator, EDUCATOR_A, educator=True)
        room = educator_ctx.request.get("/api/chat/rooms").json()[0]
        text = f"Live note {time.monotonic_ns()}"
        posted = educator_ctx.request.post(
            f"/api/chat/rooms/{room['id']}/messages", data={"message": text}, headers={"Origin": base_url}
        )
        assert posted.status == 201, posted.text()
        message_id = posted.json()["id"]
        for page in readers:
            expect(page.get_by_role("listitem").filter(has_text=text)).to_be_visible()

        edited = f"{text} (updated)"
        educator_ctx.request.patch(
            f"/api/chat/messages/{message_id}", data={"message": edited}, headers={"Origin": base_url}
        )
        for page in readers:
            card = page.get_by_role("listitem").filter(has_text=edited)
            expect(card).to_be_visible()
            expect(card.get_by_text("(edited)")).to_be_visible()

        # A heart from one device: the other open page shows the new count live.
        first.get_by_role("listitem").filter(has_text=edited).get_by_role("button", name="Heart").click()
        heart_on_second = second.get_by_role("listitem").filter(has_text=edited).get_by_role("button", name="Heart")
        expect(heart_on_second).to_contain_text("1")
        heart_on_first = first.get_by_role("listitem").filter(has_text=edited).get_by_role("button", name="Heart")
        expect(heart_on_first).to_have_attribute("aria-pressed", "true")

        educator_ctx.request.delete(f"/api/chat/messages/{message_id}", headers={"Origin": base_url})
        for page in readers:
            expect(page.get_by_role("listitem").filter(has_text=edited)).to_have_count(0)
            assert page.evaluate("window.__noReload") is True
    finally:
        first_ctx.close()
        second_ctx.close()
        educator_ctx.close()
