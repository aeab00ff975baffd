"""Track records: an educator completes an idea at exit 2 and a customer watching the educator's page sees the
win rate, total R and equity curve change without a reload; the educators list, the card link and the CSV."""

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from e2e.conftest import educator_api, login, new_context, publish_idea, record_anyway_if_the_price_check_disagrees

MEI = "educator4@example.com"  # an educator the other journeys leave alone
MEI_ID = 4


def _r(value: float) -> str:
    sign = "+" if value > 0 else "\u2212" if value < 0 else ""  # a real minus sign, as the screens write it
    return f"{sign}{abs(value):.2f} R"


def _win_rate(wins: int, losses: int) -> str:
    rate = round(wins / (wins + losses) * 1000) / 10
    return f"{rate:g} %"  # lib/format.ts: a space before the sign, as the server writes it


def _figure(page: Page, label: str) -> Any:
    return page.get_by_role("term").filter(has_text=re.compile(f"^{label}$")).locator("xpath=following-sibling::dd[1]")


def test_completing_at_exit_2_updates_the_open_track_record_live(browser: Browser, base_url: str) -> None:
    customer_ctx = new_context(browser, base_url)
    educator_ctx = new_context(browser, base_url)
    try:
        customer = customer_ctx.new_page()
        login(customer, "customer@example.com")
        customer.goto("/customer/educators/mei-tanaka")
        expect(customer.get_by_role("heading", name="Mei Tanaka", level=2)).to_be_visible()
        before = customer_ctx.request.get(f"/api/educators/{MEI_ID}/track-record").json()
        expect(_figure(customer, "Total R")).to_have_text(_r(before["totalR"]))
        curve = customer.get_by_role("img", name=re.compile("^Equity curve"))
        expect(curve).to_have_attribute("aria-label", re.compile(re.escape(f"now {_r(before['totalR'])}")))
        customer.evaluate("window.__noReload = true")

        educator = educator_ctx.new_page()
        login(educator, MEI, educator=True)
        body = {"marketType": "Forex", "orderType": "BUY", "ideaType": "Leverage", "pair": "EUR/CHF", "timeFrame": "4H",
                "entry1": "100", "invalidationLevel": "90", "exit1": "120", "exit2": "130"}  # fmt: skip
        created = educator_ctx.request.post("/api/trade-ideas", data=body, headers={"Origin": base_url})
        assert created.status == 201, created.text()
        educator.goto("/educator/ideas")
        card = educator.get_by_role("article", name="EUR/CHF trade idea")
        card.get_by_role("button", name="Successful", exact=True).click()
        educator.get_by_role("menuitem", name="Exit 2 reached").click()
        record_anyway_if_the_price_check_disagrees(educator)
        expect(card.get_by_text("Exit 2 reached")).to_be_visible()
        expect(card.get_by_text("+3.00 R")).to_be_visible()

        # The customer's open page follows: +3 R, one more win, the curve ends higher; no reload.
        total = before["totalR"] + 3
        expect(_figure(customer, "Total R")).to_have_text(_r(total))
        expect(_figure(customer, "Win rate")).to_have_text(_win_rate(before["wins"] + 1, before["losses"]))
        expect(_figure(customer, "Completed")).to_have_text(str(before["completed"] + 1))
        expect(curve).to_have_attribute("aria-label", re.compile(re.escape(f"now {_r(total)}")))
        completed = customer.get_by_role("region", name="Completed ideas")
        expect(completed.get_by_text("EUR/CHF")).to_be_visible()
        expect(completed.get_by_text("+3.00 R")).to_be_visible()
        assert customer.evaluate("window.__noReload") is True
    finally:
        customer_ctx.close()
        educator_ctx.close()


def test_educators_list_card_link_and_csv(page: Page, browser: Browser, base_url: str) -> None:
    login(page, "customer@example.com")
    page.goto("/customer/forex")
    page.get_by_role("link", name="Educators").first.click()
    expect(page).to_have_url(re.compile("/customer/educators$"))
    cards = page.get_by_role("article", name=re.compile("track record$"))
    expect(cards).to_have_count(7)
    mei = page.get_by_role("article", name="Mei Tanaka track record")
    expect(mei.get_by_text("Swing Trading")).to_be_visible()
    expect(mei.get_by_role("img", name=re.compile("^Equity curve"))).to_be_visible()
    mei.get_by_role("link", name="Mei Tanaka").click()
    expect(page).to_have_url(re.compile("/customer/educators/mei-tanaka$"))

    with page.expect_download() as download:
        page.get_by_role("link", name="Download CSV").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("closedAt,publishedAt,pair,market,ideaType,timeFrame,direction,entry1")
    assert "GBP/AUD" in text  # the seeded history

    # History cards show how each idea ended and link the educator's record. The idea is this test's own, stopped
    # just now (newest first): the seeded ones move down the history as other journeys complete theirs.
    marker = f"H{time.monotonic_ns() % 1_000_000}"
    idea = publish_idea(browser, base_url, pair="GBP/AUD", timeFrame=marker, entry1="1.9000",
                        invalidationLevel="1.8900", exit1="1.9200")  # fmt: skip
    with educator_api(browser, base_url) as api:
        assert api.put(f"/api/trade-ideas/{idea['id']}", data={"status": "unsuccessful"}).ok
    page.goto("/customer/forex/leverage")
    card = page.get_by_role("article", name="GBP/AUD trade idea").filter(has_text=marker)
    expect(card.get_by_text("Stopped at invalidation")).to_be_visible()
    expect(card.get_by_text("\u22121.00 R")).to_be_visible()  # a real minus sign
    card.get_by_role("link", name="Alex Morgan").click()
    expect(page).to_have_url(re.compile("/customer/educators/alex-morgan$"))
