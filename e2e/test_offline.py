"""Works on a train (issue #26): what a member has seen stays readable offline, writes made offline wait on the device
(through a reload) and are sent once, in order, within 3 s of the connection coming back; iPhones see install steps."""

import re
import time

from playwright.sync_api import Browser, Page, expect

from .conftest import CUSTOMER, PHONE, axe_findings, educator_api, login, new_context, publish_idea

OFFLINE_ROUTES = ["/customer/dashboard", "/customer/forex", "/customer/journal", "/customer/chat", "/customer/profile"]

IPHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)


def _banner(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_role("status").filter(has_text=re.compile(r"^Offline: "))


def test_offline_reads_and_writes_wait_then_go_once_when_back_online(browser: Browser, base_url: str) -> None:
    marker = f"OFF-{time.monotonic_ns() % 1_000_000}"
    idea = publish_idea(
        browser,
        base_url,
        pair="EUR/USD",
        timeFrame=marker,
        entry1="1.0850",
        invalidationLevel="1.0800",
        exit1="1.0950",
    )
    with educator_api(browser, base_url) as educator:
        room = educator.get("/api/chat/rooms").json()[0]
        text = f"Train note {marker}"
        posted = educator.post(
            f"/api/chat/rooms/{room['id']}/messages", data={"message": text}, headers={"Origin": base_url}
        )
        assert posted.status == 201, posted.text()
        message_id = posted.json()["id"]

    ctx = new_context(browser, base_url, PHONE)
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.evaluate("navigator.serviceWorker.ready")
        # Load the lists, the idea, the journal and the chat once while online.
        page.goto("/customer/forex")
        expect(page.get_by_role("article").first).to_be_visible()
        page.wait_for_timeout(500)  # the device writes what it loaded to IndexedDB a moment after it arrives
        page.goto("/customer/journal")
        expect(page.get_by_role("heading", name="My Journal")).to_be_visible()
        expect(page.get_by_text("Loading your journal...")).to_have_count(0)
        page.wait_for_timeout(500)
        page.goto("/customer/chat")
        expect(page.get_by_role("listitem").filter(has_text=text)).to_be_visible()
        page.wait_for_timeout(500)
        page.goto(f"/customer/ideas/{idea['id']}")
        expect(page.get_by_text(marker)).to_be_visible()
        before = len(page.request.get("/api/me/journal").json()["entries"])
        page.wait_for_timeout(500)  # the device writes what it loaded to IndexedDB a moment after it arrives

        ctx.set_offline(True)
        page.reload()
        expect(_banner(page)).to_contain_text("showing what you last loaded")
        expect(page.get_by_text(marker)).to_be_visible()
        expect(page.get_by_text("Network error. Please try again.")).to_have_count(0)

        # "I took this" without a connection: kept on the phone, shown as waiting.
        page.get_by_role("button", name="I took this").click()
        dialog = page.get_by_role("dialog", name="I took EUR/USD")
        expect(dialog.get_by_label("Fill price")).to_have_value("1.0850")
        dialog.get_by_label("Note (optional)").fill("Taken on the train")
        dialog.get_by_role("button", name="Save to journal").click()
        expect(dialog).to_have_count(0)
        expect(page.get_by_text("Waiting for connection")).to_be_visible()

        # A reload offline keeps it.
        page.reload()
        expect(page.get_by_text(marker)).to_be_visible()
        expect(page.get_by_text("Waiting for connection")).to_be_visible()

        # The journal reads from what was loaded, with the waiting trade on top.
        page.goto("/customer/journal")
        expect(page.get_by_role("heading", name="My Journal")).to_be_visible()
        expect(_banner(page)).to_contain_text("showing what you last loaded")
        waiting = page.get_by_role("region", name="Trades not yet sent")
        expect(waiting).to_contain_text("EUR/USD BUY")
        expect(waiting).to_contain_text("Waiting for connection")

        # A reaction in the chat, offline.
        page.goto("/customer/chat")
        card = page.get_by_role("listitem").filter(has_text=text)
        expect(card).to_be_visible()
        card.get_by_role("button", name=re.compile(r"^Heart ")).click()
        expect(card.get_by_text("Waiting for connection")).to_be_visible()
        expect(card.get_by_role("button", name="Heart 1")).to_have_attribute("aria-pressed", "true")

        # The word appears once: in the banner.
        assert page.get_by_text(re.compile("offline", re.IGNORECASE)).count() == 1

        started = time.monotonic()
        ctx.set_offline(False)
        expect(card.get_by_role("status").filter(has_text="Saved")).to_be_visible(timeout=3_000)
        expect(_banner(page)).to_have_count(0)
        page.goto("/customer/journal")
        expect(page.get_by_role("region", name="Open trades")).to_contain_text("Taken on the train")
        elapsed = time.monotonic() - started

        entries = page.request.get("/api/me/journal").json()["entries"]
        assert len(entries) == before + 1
        # Exactly one, however often the device sent it (its Idempotency-Key, decision 0057), at the price typed.
        taken = [e for e in entries if e["ideaId"] == idea["id"] and e["note"] == "Taken on the train"]
        assert len(taken) == 1 and taken[0]["fillPrice"] == "1.0850"
        messages = page.request.get(f"/api/chat/rooms/{room['id']}/messages").json()["items"]
        reacted = next(m for m in messages if m["id"] == message_id)
        assert reacted["hearts"] == 1 and reacted["hearted"] is True
        assert elapsed < 6, f"took {elapsed:.1f} s to recover"
    finally:
        ctx.set_offline(False)
        ctx.close()


def test_an_iphone_sees_the_add_to_home_screen_steps(browser: Browser, base_url: str) -> None:
    ctx = browser.new_context(base_url=base_url, viewport=PHONE, user_agent=IPHONE_UA)  # type: ignore[arg-type]
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        banner = page.get_by_role("region", name="Install app")
        expect(banner).to_contain_text("Install: tap")
        expect(banner).to_contain_text("then Add to Home Screen")
        expect(banner.get_by_role("button", name="Install")).to_have_count(0)
        box = banner.bounding_box()
        assert box is not None and box["height"] <= 0.12 * PHONE["height"], box  # one line at the bottom
        banner.get_by_role("button", name="Not now").click()
        expect(banner).to_have_count(0)
    finally:
        ctx.close()


def test_screens_read_offline_have_no_serious_accessibility_findings(browser: Browser, base_url: str) -> None:
    # axe is injected as an inline script, which the app's CSP (rightly) forbids.
    ctx = browser.new_context(base_url=base_url, viewport=PHONE, bypass_csp=True)  # type: ignore[arg-type]
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.evaluate("navigator.serviceWorker.ready")
        for route in OFFLINE_ROUTES:
            page.goto(route)
            expect(page.get_by_role("heading").first).to_be_visible()
            page.wait_for_load_state("networkidle")
        ctx.set_offline(True)
        found: dict[str, list[str]] = {}
        for route in OFFLINE_ROUTES:
            page.goto(route)
            expect(_banner(page)).to_be_visible()
            # The banner is the shell's and shows first: scan once the screen itself has rendered from the cache.
            expect(page.get_by_role("main")).to_be_visible()
            expect(page.get_by_role("heading", level=1)).to_be_visible()
            blocking = axe_findings(page)
            if blocking:
                found[route] = blocking
        assert found == {}
    finally:
        ctx.set_offline(False)
        ctx.close()
