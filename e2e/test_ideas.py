"""Journeys of the trade ideas: create with a photo, the customer's badge, NEW, copy, chart, status, history,
inline editing, form validation, and notes that contain HTML."""

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from e2e.conftest import CUSTOMER, EDUCATOR_A, PHONE, login, new_context, record_anyway_if_the_price_check_disagrees


def _png(path: Path, size: tuple[int, int] = (1200, 700), color: str = "#1f8a70") -> Path:
    Image.new("RGB", size, color).save(path, "PNG")
    return path


def _idea_body(pair: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "marketType": "Forex",
        "orderType": "BUY",
        "ideaType": "Leverage",
        "pair": pair,
        "timeFrame": "4H",
        "entry1": "100.00",
        "invalidationLevel": "90.00",
        "exit1": "125.00",
    }
    body.update(extra)
    return body


def _create_via_api(context: BrowserContext, body: dict[str, Any]) -> dict[str, Any]:
    response = context.request.post("/api/trade-ideas", data=body)
    assert response.status == 201, response.text()
    result: dict[str, Any] = response.json()
    return result


def _card(page: Page, pair: str) -> Locator:
    return page.get_by_role("article", name=f"{pair} trade idea")


def test_idea_journey_from_educator_to_customer_history(browser: Browser, base_url: str, tmp_path: Path) -> None:
    customer_ctx = new_context(browser, base_url)
    educator_ctx = new_context(browser, base_url)
    customer = customer_ctx.new_page()
    educator = educator_ctx.new_page()
    try:
        login(customer, CUSTOMER)
        expect(customer.get_by_role("img", name=re.compile(r"new idea"))).to_be_visible()
        # From the API: the bell reads 0 until its counts arrive, which may be after it is visible.
        before = int(customer.request.get("/api/me/unseen-counts").json()["total"])

        # The educator publishes a Forex idea with a photo from the dashboard form.
        login(educator, EDUCATOR_A, educator=True)
        educator.get_by_role("button", name="New idea").click()
        form = educator.get_by_role("form", name="Create Trade Idea")
        expect(form.get_by_role("radio", name="Crypto")).to_be_checked()
        expect(form.get_by_role("radio", name="Bullish")).to_be_checked()
        expect(form.get_by_role("radio", name="Leverage")).to_be_checked()
        expect(form.get_by_label("Pair")).to_have_attribute("placeholder", "BTC/USDT")
        form.get_by_role("radio", name="Forex").check()
        expect(form.get_by_label("Pair")).to_have_attribute("placeholder", "EUR/USD")
        form.get_by_label("Pair").fill("CHF/JPY")
        form.get_by_label("Time Frame").fill("4H")
        form.get_by_label("Entry 1").fill("176.40")
        form.get_by_label("Invalidation Level").fill("175.90")
        form.get_by_label("Exit 1").fill("177.65")
        form.get_by_label("Exit 2").fill("178.20")
        form.get_by_label("Notes").fill("Breakout retest on the 4H.")
        form.get_by_label("Photos").set_input_files(str(_png(tmp_path / "chart.png")))
        expect(form.get_by_role("img", name="Photo 1")).to_be_visible()
        form.get_by_role("button", name="Create Trade Idea").click()
        expect(educator.get_by_text("Trade idea created successfully")).to_be_visible()
        expect(form).to_be_hidden()
        mine = _card(educator, "CHF/JPY")
        expect(mine).to_be_visible()
        expect(mine.get_by_text("Active")).to_be_visible()
        expect(mine.get_by_text("Bullish")).to_be_visible()

        # The customer's bell and Forex card count it.
        customer.reload()
        # "1 new idea in all markets" when nothing was unseen before (e.g. after test_quality's visits).
        expect(
            customer.get_by_role("img", name=re.compile(rf"^{before + 1} new ideas? in all markets$"))
        ).to_be_visible()
        forex = customer.get_by_role("link", name=re.compile("Forex"))
        expect(forex).to_contain_text("new")

        # Opening the market shows the idea first with NEW; its levels copy; the chart opens large.
        forex.click()
        expect(customer).to_have_url(re.compile(r"/customer/forex$"))
        card = _card(customer, "CHF/JPY")
        expect(card).to_be_visible()
        expect(card.get_by_text("NEW", exact=True)).to_be_visible()
        expect(card.get_by_text("R:R 1:2.5")).to_be_visible()
        card.get_by_role("button", name="Copy Entry 1").click()
        expect(customer.get_by_text("Entry 1 copied to clipboard.")).to_be_visible()
        assert customer.evaluate("navigator.clipboard.readText()") == "176.40"
        card.get_by_role("button", name="Open CHF/JPY chart").click()
        dialog = customer.get_by_role("dialog", name="CHF/JPY chart")
        expect(dialog).to_be_visible()
        big = dialog.get_by_role("img", name="CHF/JPY chart")
        expect(big).to_be_visible()
        # The viewer shows the large version (the photo's own 1200 px; cards get the spec's 800 px one).
        expect(big).to_have_js_property("complete", True)
        assert big.evaluate("img => img.naturalWidth") == 1200
        customer.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        # Opening the market marked it seen (the bell still counts the other market's unseen ideas).
        customer.goto("/customer/dashboard")
        expect(customer.get_by_role("link", name=re.compile("Forex"))).not_to_contain_text("new")

        # The educator marks it successful: it leaves the active list and joins Leverage history.
        mine.get_by_role("button", name="Successful", exact=True).click()
        educator.get_by_role("menuitem", name="Exit 1 reached").click()
        record_anyway_if_the_price_check_disagrees(educator)
        expect(
            educator.get_by_text("Trade idea marked successful and moved to Leverage Ideas for Forex")
        ).to_be_visible()
        expect(mine.get_by_text("Successful", exact=True)).to_be_visible()

        customer.goto("/customer/forex/leverage")
        expect(customer.get_by_role("heading", name="Leverage Ideas History")).to_be_visible()
        done = _card(customer, "CHF/JPY")
        expect(done).to_be_visible()
        expect(done.get_by_text("Successful", exact=True)).to_be_visible()
        customer.goto("/customer/forex")
        expect(customer.get_by_role("article").first).to_be_visible()
        expect(_card(customer, "CHF/JPY")).to_have_count(0)
    finally:
        customer_ctx.close()
        educator_ctx.close()


def test_inline_edit_saves_on_blur_and_customers_see_the_change(browser: Browser, base_url: str) -> None:
    educator_ctx = new_context(browser, base_url)
    customer_ctx = new_context(browser, base_url)
    try:
        educator = educator_ctx.new_page()
        login(educator, EDUCATOR_A, educator=True)
        _create_via_api(educator_ctx, _idea_body("EUR/AUD", timeFrame="1H"))
        educator.reload()
        card = _card(educator, "EUR/AUD")
        exit2 = card.get_by_label("Exit 2")
        exit2.fill("130.00")
        exit2.press("Tab")
        expect(educator.get_by_text("Trade idea updated")).to_be_visible()
        # A required level cannot be cleared.
        entry = card.get_by_label("Entry 1")
        entry.fill("")
        entry.press("Tab")
        expect(educator.get_by_text("Failed to update Entry 1")).to_be_visible()
        expect(entry).to_have_value("100.00")
        educator.reload()
        expect(_card(educator, "EUR/AUD").get_by_label("Exit 2")).to_have_value("130.00")

        customer = customer_ctx.new_page()
        login(customer, CUSTOMER)
        customer.goto("/customer/forex")
        seen = _card(customer, "EUR/AUD")
        expect(seen.get_by_text("130.00")).to_be_visible()
        seen.get_by_role("button", name="edited").click()
        changes = customer.get_by_role("dialog", name="Changes to EUR/AUD")
        expect(changes).to_contain_text("Exit 2")
        expect(changes).to_contain_text("130.00")
    finally:
        educator_ctx.close()
        customer_ctx.close()


def test_edit_from_card_then_delete(page: Page) -> None:
    login(page, EDUCATOR_A, educator=True)
    _create_via_api(page.context, _idea_body("NZD/CHF"))
    page.reload()
    _card(page, "NZD/CHF").get_by_role("button", name="Edit trade idea").click()
    form = page.get_by_role("form", name="Edit Trade Idea")
    expect(form.get_by_text("Edit Mode")).to_be_visible()
    expect(form.get_by_label("Pair")).to_have_value("NZD/CHF")
    form.get_by_label("Time Frame").fill("15M")
    form.get_by_role("button", name="Update Trade Idea").click()
    expect(page.get_by_text("Trade idea updated successfully")).to_be_visible()
    expect(form).to_be_hidden()
    expect(_card(page, "NZD/CHF")).to_contain_text("15M")

    _card(page, "NZD/CHF").get_by_role("button", name="Delete trade idea").click()
    confirm = page.get_by_role("alertdialog")
    expect(confirm).to_contain_text("Are you sure you want to delete this trade idea?")
    confirm.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("The trade idea has been successfully deleted")).to_be_visible()
    expect(_card(page, "NZD/CHF")).to_have_count(0)


def test_invalid_form_shows_messages(page: Page, tmp_path: Path) -> None:
    login(page, EDUCATOR_A, educator=True)
    page.goto("/educator/ideas/new")
    form = page.get_by_role("form", name="Create Trade Idea")
    form.get_by_role("button", name="Create Trade Idea").click()
    expect(form.get_by_role("alert")).to_have_text("Please fill in all required fields")
    expect(form.get_by_label("Pair")).to_have_attribute("aria-invalid", "true")
    expect(form.get_by_label("Exit 1")).to_have_attribute("aria-invalid", "true")
    expect(form.get_by_label("Entry 2")).not_to_have_attribute("aria-invalid", "true")

    text = tmp_path / "notes.txt"
    text.write_text("not an image")
    form.get_by_label("Photos").set_input_files(str(text))
    expect(form.get_by_text("Please upload only image files.")).to_be_visible()
    pictures = [str(_png(tmp_path / f"p{i}.png", (400, 300))) for i in range(4)]
    form.get_by_label("Photos").set_input_files(pictures)
    expect(form.get_by_text("You can upload maximum 3 photos per trade idea.")).to_be_visible()
    form.get_by_label("Photos").set_input_files(pictures[:3])
    expect(form.get_by_role("img", name="Photo 3")).to_be_visible()
    form.get_by_role("button", name="Remove photo 2").click()
    expect(form.get_by_role("img", name="Photo 3")).to_have_count(0)


def test_notes_with_html_render_as_text(browser: Browser, base_url: str) -> None:
    educator_ctx = new_context(browser, base_url)
    customer_ctx = new_context(browser, base_url, PHONE)
    try:
        educator = educator_ctx.new_page()
        login(educator, EDUCATOR_A, educator=True)
        notes = '<img src=x onerror="window.__xss=1"><b>bold claim</b>'
        _create_via_api(educator_ctx, _idea_body("LINK/USDT", marketType="Crypto", ideaType="Exchange", notes=notes))
        customer = customer_ctx.new_page()
        login(customer, CUSTOMER)
        customer.get_by_role("link", name=re.compile("Crypto")).click()
        card = _card(customer, "LINK/USDT")
        expect(card.get_by_text(notes)).to_be_visible()
        expect(card.locator("b")).to_have_count(0)
        assert customer.evaluate("window.__xss") is None
    finally:
        educator_ctx.close()
        customer_ctx.close()


def test_my_trade_ideas_cards_mark_edit_and_delete(page: Page) -> None:
    login(page, EDUCATOR_A, educator=True)
    _create_via_api(page.context, _idea_body("CAD/JPY"))
    _create_via_api(page.context, _idea_body("EUR/NZD"))
    page.goto("/educator/ideas")
    card = _card(page, "CAD/JPY")
    card.get_by_role("button", name="Successful", exact=True).click()
    page.get_by_role("menuitem", name="Exit 1 reached").click()
    record_anyway_if_the_price_check_disagrees(page)
    expect(page.get_by_text("Trade idea marked successful and moved to Leverage Ideas for Forex")).to_be_visible()
    expect(card.locator("span").get_by_text("Successful", exact=True)).to_be_visible()  # the status badge
    # Just recorded: the result can be corrected for 15 minutes, and the card says until when, in UTC.
    expect(
        card.get_by_text(re.compile(r"^You can correct this result until \d\d:\d\d UTC today \(1[45] min\)\.$"))
    ).to_be_visible()
    # Only the changes possible from "successful": no second Successful.
    expect(card.get_by_role("button", name="Unsuccessful")).to_be_visible()
    expect(card.get_by_role("button", name="Successful", exact=True)).to_have_count(0)

    card.get_by_role("link", name="Edit CAD/JPY trade idea").click()
    expect(page).to_have_url(re.compile(r"/educator/ideas/\d+/edit$"))
    form = page.get_by_role("form", name="Edit Trade Idea")
    expect(form.get_by_text("Edit Mode")).to_be_visible()
    form.get_by_label("Time Frame").fill("D1")
    form.get_by_role("button", name="Update Trade Idea").click()
    expect(page).to_have_url(re.compile(r"/educator/ideas$"))
    expect(_card(page, "CAD/JPY")).to_contain_text("D1")

    _card(page, "EUR/NZD").get_by_role("button", name="Delete EUR/NZD trade idea").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Delete").click()
    expect(_card(page, "EUR/NZD")).to_have_count(0)


def test_reset_returns_an_idea_to_pending_in_the_active_list(browser: Browser, base_url: str) -> None:
    educator_ctx = new_context(browser, base_url)
    customer_ctx = new_context(browser, base_url)
    try:
        educator = educator_ctx.new_page()
        login(educator, EDUCATOR_A, educator=True)
        _create_via_api(educator_ctx, _idea_body("GBP/CHF"))
        educator.reload()
        mine = _card(educator, "GBP/CHF")
        mine.get_by_role("button", name="Unsuccessful").click()
        educator.get_by_role("menuitem", name="Stopped at invalidation").click()
        record_anyway_if_the_price_check_disagrees(educator)
        expect(mine.get_by_text("Unsuccessful", exact=True)).to_be_visible()
        mine.get_by_role("button", name="Reset").click()
        expect(educator.get_by_text("Trade idea status reset to pending")).to_be_visible()
        expect(mine.get_by_text("Pending", exact=True)).to_be_visible()
        expect(mine.get_by_role("button", name="Reset")).to_have_count(0)  # nothing left to reset

        customer = customer_ctx.new_page()
        login(customer, CUSTOMER)
        customer.goto("/customer/forex")
        expect(_card(customer, "GBP/CHF")).to_have_count(1)
    finally:
        educator_ctx.close()
        customer_ctx.close()


RESULT_FIXED = "This idea's result is part of the track record and can no longer be changed."
IDENTITY_FIXED = (
    "This idea is published: its market, pair, direction, type, time frame, setup and reason can no longer be changed."
)


def test_a_result_recorded_days_ago_offers_no_controls_to_change_it(page: Page) -> None:
    login(page, EDUCATOR_A, educator=True)
    # A demo idea of this educator that closed days ago: its result is part of the track record.
    listed = page.context.request.get("/api/trade-ideas", params={"educatorId": 1, "status": "completed", "limit": 50})
    now = datetime.now(UTC)
    old = next(i for i in listed.json()["items"] if datetime.fromisoformat(i["resultFixedAt"]) < now)
    page.goto("/educator/ideas")
    card = page.get_by_role("article", name=f"{old['pair']} trade idea").filter(
        has=page.get_by_role("link", name=f"Edit {old['pair']} trade idea").and_(
            page.locator(f'a[href="/educator/ideas/{old["id"]}/edit"]')
        )
    )
    expect(card.get_by_role("note")).to_have_text(RESULT_FIXED)
    expect(card.get_by_role("button", name="Successful", exact=True)).to_have_count(0)
    expect(card.get_by_role("button", name="Unsuccessful", exact=True)).to_have_count(0)
    # The server refuses it too, with the same words.
    refused = page.context.request.put(f"/api/trade-ideas/{old['id']}", data={"status": "pending"})
    assert refused.status == 409 and refused.json()["message"] == RESULT_FIXED

    # The edit form keeps what the idea is and lets the educator add to its notes.
    page.goto(f"/educator/ideas/{old['id']}/edit")
    form = page.get_by_role("form", name="Edit Trade Idea")
    expect(form.get_by_role("note")).to_contain_text(IDENTITY_FIXED)
    expect(form.get_by_label("Pair")).to_be_disabled()
    expect(form.get_by_label("Time Frame")).to_be_disabled()
    expect(form.get_by_role("radio", name="Forex")).to_be_disabled()
    form.get_by_label("Notes").fill("Post-mortem: the stop was too tight for the news.")
    form.get_by_role("button", name="Update Trade Idea").click()
    expect(page.get_by_text("Trade idea updated successfully")).to_be_visible()
    after = page.context.request.get(f"/api/trade-ideas/{old['id']}").json()
    assert (after["notes"], after["status"], after["rMultiple"]) == (
        "Post-mortem: the stop was too tight for the news.",
        old["status"],
        old["rMultiple"],
    )
