"""Honest records in the browser: the "taken" line on an idea card once five members journaled it, and a filtered
track record whose statistics, breakdown and list of completed ideas follow one selection (an empty selection says
so once), on a desktop and on a 390 px phone without cut table columns."""

import re
from typing import Any

from playwright.sync_api import APIRequestContext, Browser, Page, expect

from e2e.conftest import DEMO_PASSWORD, PHONE, login, new_context, publish_idea

FILLS = (1.1010, 1.1000, 1.0990, 1.1020, 1.1005)  # -0.2, 0, +0.2, -0.4, -0.1 R of slippage: median -0.10


def _member(browser: Browser, base_url: str, admin: APIRequestContext, n: int) -> Any:
    """A new customer, invited by the admin and signed in by accepting the link (a context of their own)."""
    invited = admin.post(
        "/api/admin/invites",
        data={"email": f"records.member{n}@example.com", "firstName": "Records", "lastName": f"Member{n}"},
        headers={"Origin": base_url},
    )
    assert invited.status == 201, invited.text()
    token = invited.json()["inviteUrl"].rsplit("/", 1)[1]
    ctx = new_context(browser, base_url)
    accepted = ctx.request.post(f"/api/invites/{token}/accept", data={"password": DEMO_PASSWORD},
                                headers={"Origin": base_url})  # fmt: skip
    assert accepted.ok, accepted.text()
    return ctx


def test_an_idea_card_shows_what_five_members_got(browser: Browser, base_url: str, page: Page) -> None:
    idea = publish_idea(browser, base_url, pair="EUR/SEK", timeFrame="4H", entry1="1.1000",
                        invalidationLevel="1.0950", exit1="1.1100")  # fmt: skip
    admin_ctx = new_context(browser, base_url)
    members = []
    try:
        r = admin_ctx.request.post("/api/auth/login", data={"email": "admin@example.com", "password": DEMO_PASSWORD,
                                                            "selectedRole": "admin"})  # fmt: skip
        assert r.ok, r.text()
        for n, fill in enumerate(FILLS):
            member = _member(browser, base_url, admin_ctx.request, n)
            members.append(member)
            entry = member.request.post("/api/me/journal", data={"ideaId": idea["id"], "fillPrice": fill},
                                        headers={"Origin": base_url})  # fmt: skip
            assert entry.status == 201, entry.text()
            # Two close: 1.1010 -> 1.1100 is +1.5 R, 1.1000 -> 1.0950 is -1 R (median +0.25).
            if n < 2:
                out = member.request.patch(f"/api/me/journal/{entry.json()['id']}",
                                           data={"exitPrice": 1.11 if n == 0 else 1.095},
                                           headers={"Origin": base_url})  # fmt: skip
                assert out.ok, out.text()
            if n == 3:  # four members: nothing shows yet, to anyone
                four = member.request.get(f"/api/trade-ideas/{idea['id']}").json()
                assert four["taken"] is None
        login(page, "customer@example.com")
        page.goto(f"/customer/ideas/{idea['id']}")
        card = page.get_by_role("article", name="EUR/SEK trade idea")
        minus = "\u2212"  # the card writes a true minus sign
        taken = f"Taken by 5 members · median slippage {minus}0.10 R · median realised +0.25 R"
        expect(card.get_by_text(taken)).to_be_visible()
        expect(card).not_to_contain_text("Member0")  # never names them
    finally:
        for member in members:
            member.close()
        admin_ctx.close()


def _listed(page: Page) -> Any:
    return page.get_by_role("region", name=re.compile("^Completed ideas")).get_by_role("listitem")


def test_a_filtered_record_is_one_selection(browser: Browser, base_url: str) -> None:
    for viewport in (None, PHONE):
        ctx = new_context(browser, base_url, viewport)
        try:
            page = ctx.new_page()
            login(page, "customer@example.com")
            page.goto("/customer/educators/alex-morgan")
            expect(page.get_by_role("heading", name="Alex Morgan", level=2)).to_be_visible()
            page.get_by_label("Idea type", exact=True).select_option("exchange")
            # What the API lists and counts for the same selection is what the page shows, panel by panel.
            closed = page.request.get("/api/trade-ideas?educatorId=1&status=closed&ideaType=exchange&limit=100").json()
            record = page.request.get("/api/educators/1/track-record?ideaType=exchange").json()
            assert closed["items"], "the sample history has an Exchange idea of Alex Morgan's"
            expect(_listed(page)).to_have_count(len(closed["items"]))
            for idea in closed["items"]:
                expect(_listed(page).filter(has_text=idea["pair"]).first).to_be_visible()
            sample = record["statistics"]["sampleSizeNote"]
            expect(page.get_by_role("note").filter(has_text=sample)).to_be_visible()
            expect(page.get_by_text("Average R, 95 % range")).to_be_visible()
            table = page.get_by_role("tabpanel").get_by_role("table")
            expect(table.get_by_role("row")).to_have_count(1 + len(record["byMarket"]))
            # On a phone the breakdown fits: no column is cut off or scrolled away.
            assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth + 1")
            # A selection with nothing completed says so once, instead of empty panels.
            page.get_by_label("Market", exact=True).select_option("crypto")
            expect(page.get_by_text("No completed ideas in this selection")).to_have_count(1)
            expect(page.get_by_role("region", name=re.compile("^Completed ideas"))).to_have_count(0)
            expect(page.get_by_role("tabpanel")).to_have_count(0)
        finally:
            ctx.close()
