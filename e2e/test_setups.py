"""Journeys of issue #42: an educator keeps setups on their profile and publishes an idea that names one and says
why; members read "Why: ..." on the card. Educator 3 is used by no other journey: once an educator keeps a setup,
every idea of theirs must name one."""

import re

from playwright.sync_api import Browser, expect

from e2e.conftest import CUSTOMER, login, new_context

EDUCATOR_C = "educator3@example.com"


def test_an_educator_publishes_with_a_setup_and_reason_and_members_read_why(browser: Browser, base_url: str) -> None:
    educator_ctx = new_context(browser, base_url)
    customer_ctx = new_context(browser, base_url)
    educator = educator_ctx.new_page()
    customer = customer_ctx.new_page()
    try:
        login(educator, EDUCATOR_C, educator=True)
        educator.goto("/educator/profile")
        add = educator.get_by_role("form", name="Add a setup")
        add.get_by_label("Setup name").fill("Breakout retest")
        add.get_by_label("Description").fill("A level that held for days breaks, price comes back to it and holds.")
        add.get_by_role("button", name="Add setup").click()
        setups = educator.get_by_role("list", name="Your setups")
        expect(setups.get_by_text("Breakout retest")).to_be_visible()
        add.get_by_label("Setup name").fill("Range fade")
        add.get_by_role("button", name="Add setup").click()
        expect(setups.get_by_text("Range fade")).to_be_visible()

        educator.goto("/educator/dashboard")
        educator.get_by_role("button", name="New idea").click()
        form = educator.get_by_role("form", name="Create Trade Idea")
        form.get_by_role("radio", name="Forex").check()
        form.get_by_label("Pair").fill("NZD/CAD")
        form.get_by_label("Time Frame").fill("4H")
        form.get_by_label("Entry 1").fill("0.8210")
        form.get_by_label("Invalidation Level").fill("0.8170")
        form.get_by_label("Exit 1").fill("0.8290")
        form.get_by_label(re.compile("^Why")).fill("The weekly range high broke and held on the retest.")
        # Without a setup the form refuses, naming it.
        form.get_by_role("button", name="Create Trade Idea").click()
        expect(form.get_by_role("alert").filter(has_text="Please choose one of your setups")).to_be_visible()
        form.get_by_role("combobox", name=re.compile("Setup")).select_option(label="Breakout retest")
        form.get_by_role("button", name="Create Trade Idea").click()
        expect(educator.get_by_text("Trade idea created successfully")).to_be_visible()
        mine = educator.get_by_role("article", name="NZD/CAD trade idea")
        expect(mine.get_by_text("Breakout retest")).to_be_visible()
        expect(mine.get_by_text("The weekly range high broke and held on the retest.")).to_be_visible()
        # A setup that an idea names stays: it can be renamed, not deleted.
        educator.goto("/educator/profile")
        expect(educator.get_by_role("button", name="Delete Breakout retest")).to_have_count(0)
        expect(educator.get_by_role("button", name="Delete Range fade")).to_be_visible()

        login(customer, CUSTOMER)
        customer.goto("/customer/forex")
        card = customer.get_by_role("article", name="NZD/CAD trade idea")
        expect(card).to_be_visible()
        expect(card.get_by_text("Breakout retest")).to_be_visible()
        expect(card.get_by_text("Why:")).to_be_visible()
        expect(card.get_by_text("The weekly range high broke and held on the retest.")).to_be_visible()
    finally:
        educator_ctx.close()
        customer_ctx.close()
