"""The public proof page and a filtered record: anyone reads the latest fingerprints in full at /proof, and a
customer's filter on an educator's record changes the figures, the 95 % range and the sample-size note together."""

import re

from playwright.sync_api import Browser, expect

from e2e.conftest import login, new_context
from e2e.test_track_records import _figure

MEI_ID = 4


def test_anyone_reads_the_fingerprints_at_proof(browser: Browser, base_url: str) -> None:
    ctx = new_context(browser, base_url)
    try:
        page = ctx.new_page()
        proof = ctx.request.get("/api/proof").json()
        page.goto("/proof")
        expect(page.get_by_role("heading", name="How we keep the record honest", level=1)).to_be_visible()
        expect(page.get_by_text(f"Latest entry: #{proof['head']['seq']}")).to_be_visible()
        days = page.get_by_role("list", name="Daily fingerprints")
        newest = proof["days"][0]
        assert re.fullmatch(r"[0-9a-f]{64}", newest["hash"])
        expect(days.get_by_text(newest["hash"], exact=True)).to_be_visible()  # all 64 characters
        expect(days.get_by_text(newest["date"], exact=True)).to_be_visible()
        expect(page.get_by_role("heading", name="How to check it yourself")).to_be_visible()
        # The ledger itself is for members.
        assert ctx.request.get("/api/proof/ledger").status == 401
    finally:
        ctx.close()


def test_a_filter_changes_the_statistics_and_their_note(browser: Browser, base_url: str) -> None:
    ctx = new_context(browser, base_url)
    try:
        page = ctx.new_page()
        login(page, "customer@example.com")
        page.goto("/customer/educators/mei-tanaka")
        expect(page.get_by_role("heading", name="Mei Tanaka", level=2)).to_be_visible()
        whole = ctx.request.get(f"/api/educators/{MEI_ID}/track-record").json()
        note = page.get_by_role("note")
        expect(note).to_have_text(whole["statistics"]["sampleSizeNote"])

        page.get_by_label("Market", exact=True).select_option("forex")
        forex = ctx.request.get(f"/api/educators/{MEI_ID}/track-record?market=forex").json()
        stats = forex["statistics"]
        expect(note).to_have_text(stats["sampleSizeNote"])
        expect(_figure(page, "Completed")).to_have_text(str(forex["completed"]))
        interval = stats["averageRInterval95"]
        shown = "—" if interval is None else re.compile(r"^[+-]?\d+\.\d\d to [+-]?\d+\.\d\d R$")
        expect(_figure(page, "Average R, 95 % range")).to_have_text(shown)
        expect(page.get_by_text("Open ideas deleted more than 15 minutes after publishing")).to_be_visible()
    finally:
        ctx.close()
