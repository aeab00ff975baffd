"""The customer's notification matrix: markets, educators, events, quiet hours and a test notification."""

import re

from playwright.sync_api import Page, expect

from e2e.conftest import CUSTOMER, login


def test_customer_switches_off_one_educator_and_sets_quiet_hours(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, CUSTOMER)
    page.goto("/customer/forex")
    page.get_by_role("button", name="Notification settings").click()
    dialog = page.get_by_role("dialog", name="Notification Settings")
    for heading in ("Markets", "Educators", "Events", "Quiet hours"):
        expect(dialog.get_by_role("heading", name=heading)).to_be_visible()
    sofia = dialog.get_by_role("switch", name="Sofia Reyes")
    expect(sofia).to_be_checked()
    sofia.click()
    expect(page.get_by_text("Sofia Reyes off.")).to_be_visible()
    expect(dialog.get_by_role("switch", name="Alex Morgan")).to_be_checked()
    expect(dialog.get_by_role("switch", name="Chat messages")).not_to_be_checked()

    dialog.get_by_role("switch", name="Hold notifications at night").click()
    expect(dialog.get_by_label("From", exact=True)).to_have_value("22:00")
    dialog.get_by_label("To", exact=True).fill("06:30")
    dialog.get_by_role("button", name="Save quiet hours").click()
    expect(page.get_by_text("Quiet hours 22:00-06:30.")).to_be_visible()

    # This browser has no push subscription (headless): the exact reason is shown.
    dialog.get_by_role("button", name="Send me a test notification").click()
    expect(dialog.get_by_role("status").filter(has_text=re.compile("failed"))).to_contain_text(
        "No push subscription for this account"
    )

    page.reload()
    page.get_by_role("button", name="Notification settings").click()
    dialog = page.get_by_role("dialog", name="Notification Settings")
    expect(dialog.get_by_role("switch", name="Sofia Reyes")).not_to_be_checked()
    expect(dialog.get_by_label("To", exact=True)).to_have_value("06:30")
    # Back to the defaults for the other journeys.
    dialog.get_by_role("switch", name="Sofia Reyes").click()
    expect(dialog.get_by_role("switch", name="Sofia Reyes")).to_be_checked()
    dialog.get_by_role("switch", name="Hold notifications at night").click()
    expect(dialog.get_by_label("From", exact=True)).to_have_count(0)
