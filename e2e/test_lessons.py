"""Journey of issue #42: an educator publishes an idea with a setup and a reason, completes it and later adds a
lesson from its card; members read "What happened" and "Lesson" on the history card and find it with the history's
"With a lesson" filter. On a 390 px phone and on the desktop. Educator 3 keeps setups (as in test_setups)."""

import re

import pytest
from playwright.sync_api import Browser, expect

from e2e.conftest import CUSTOMER, DESKTOP, PHONE, login, new_context, record_anyway_if_the_price_check_disagrees

EDUCATOR_C = "educator3@example.com"
SETUP = "Liquidity sweep"


@pytest.mark.parametrize(("viewport", "pair"), [(PHONE, "NZD/SGD"), (DESKTOP, "AUD/SGD")], ids=["phone", "desktop"])
def test_an_educator_publishes_with_a_setup_and_reason_and_later_adds_a_lesson(
    browser: Browser, base_url: str, viewport: dict[str, int], pair: str
) -> None:
    educator_ctx = new_context(browser, base_url, viewport)
    customer_ctx = new_context(browser, base_url, viewport)
    educator = educator_ctx.new_page()
    customer = customer_ctx.new_page()
    try:
        login(educator, EDUCATOR_C, educator=True)
        kept = educator_ctx.request.get("/api/me/setups").json()
        if SETUP not in [s["name"] for s in kept]:
            made = educator_ctx.request.post(
                "/api/me/setups", data={"name": SETUP, "description": "Stops run, snap back."}
            )
            assert made.status == 201, made.text()

        educator.get_by_role("button", name="New idea").click()
        form = educator.get_by_role("form", name="Create Trade Idea")
        form.get_by_role("radio", name="Forex").check()
        form.get_by_label("Pair").fill(pair)
        form.get_by_label("Time Frame").fill("1H")
        form.get_by_label("Entry 1").fill("1.2000")
        form.get_by_label("Invalidation Level").fill("1.1950")
        form.get_by_label("Exit 1").fill("1.2100")
        form.get_by_role("combobox", name=re.compile("Setup")).select_option(label=SETUP)
        form.get_by_label(re.compile("^Why")).fill("The Asian low was swept and price closed back inside.")
        form.get_by_role("button", name="Create Trade Idea").click()
        expect(educator.get_by_text("Trade idea created successfully")).to_be_visible()

        mine = educator.get_by_role("article", name=f"{pair} trade idea")
        expect(mine.get_by_text("The Asian low was swept and price closed back inside.")).to_be_visible()
        mine.get_by_role("button", name="Unsuccessful").click()
        educator.get_by_role("menuitem", name="Stopped at invalidation").click()
        record_anyway_if_the_price_check_disagrees(educator)
        expect(mine.get_by_text("Unsuccessful", exact=True)).to_be_visible()

        mine.get_by_role("button", name="Add lesson").click()
        dialog = educator.get_by_role("dialog", name="Add lesson")
        dialog.get_by_label("What happened").fill("A news spike ran the stop before the move came.")
        dialog.get_by_label("Lesson", exact=True).fill("Stand aside before high-impact news.")
        dialog.get_by_role("button", name="Save lesson").click()
        expect(educator.get_by_text("Lesson saved")).to_be_visible()
        expect(dialog).to_have_count(0)
        expect(mine.get_by_text("Stand aside before high-impact news.")).to_be_visible()
        # Within 15 minutes it can still be corrected.
        expect(mine.get_by_role("button", name="Edit lesson")).to_be_visible()

        login(customer, CUSTOMER)
        customer.goto("/customer/forex/leverage")
        customer.get_by_role("button", name="With a lesson").click()
        card = customer.get_by_role("article", name=f"{pair} trade idea")
        expect(card).to_be_visible()
        lesson = card.get_by_role("group", name="Lesson after the close")
        expect(lesson.get_by_text("What happened")).to_be_visible()
        expect(lesson.get_by_text("A news spike ran the stop before the move came.")).to_be_visible()
        expect(lesson.get_by_text("Stand aside before high-impact news.")).to_be_visible()
        expect(card.get_by_text(SETUP)).to_be_visible()
        expect(card.get_by_text("The Asian low was swept and price closed back inside.")).to_be_visible()
    finally:
        educator_ctx.close()
        customer_ctx.close()
