"""The public proof page and a filtered record: anyone reads the latest fingerprints in full at /proof, and a
customer's filter on an educator's record changes the figures, the 95 % range and the sample-size note together."""

import base64
import hashlib
import re
import time
from datetime import UTC, datetime
from pathlib import Path

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


def test_proof_offers_the_verifier_and_copies_a_fingerprint(browser: Browser, base_url: str) -> None:
    ctx = new_context(browser, base_url)
    try:
        page = ctx.new_page()
        proof = ctx.request.get("/api/proof").json()
        page.goto("/proof")
        link = page.get_by_role("link", name="Download verify_ledger.py")
        expect(link).to_have_attribute("href", "/proof/verify_ledger.py")
        expect(page.get_by_text(proof["verifier"]["sha256"], exact=True)).to_be_visible()
        served = ctx.request.get("/proof/verify_ledger.py")
        assert served.status == 200 and served.headers["content-type"].startswith("text/x-python")
        assert hashlib.sha256(served.body()).hexdigest() == proof["verifier"]["sha256"]
        expect(page.get_by_text(f"python3 verify_ledger.py {base_url.rstrip('/')} --email")).to_be_visible()
        newest = proof["days"][0]
        page.get_by_role("button", name=f"Copy fingerprint of {newest['date']}").click()
        expect(page.get_by_text(f"fingerprint of {newest['date']} copied to clipboard.")).to_be_visible()
        # The day's fingerprint as the page shows it (today's may have moved since /api/proof was read above).
        copied = page.evaluate("navigator.clipboard.readText()")
        assert re.fullmatch(r"[0-9a-f]{64}", copied)
        expect(page.get_by_role("list", name="Daily fingerprints").get_by_text(copied, exact=True)).to_be_visible()
    finally:
        ctx.close()


def test_proof_shows_who_time_stamped_the_record_and_offers_the_token(browser: Browser, base_url: str) -> None:
    """The server's leader has the latest entry stamped by the authority in TSA_URLS (the local one of conftest)
    within a minute of starting; /proof names the authority and the time, and the token downloads byte for byte."""
    ctx = new_context(browser, base_url)
    try:
        deadline = time.monotonic() + 120
        while not (stamps := ctx.request.get("/api/proof").json()["timestamps"]):
            assert time.monotonic() < deadline, "no time-stamp within two minutes of the server starting"
            time.sleep(1)
        stamp = stamps[0]
        at = datetime.fromisoformat(stamp["at"].replace("Z", "+00:00")).astimezone(UTC)
        page = ctx.new_page()
        page.goto("/proof")
        latest = page.get_by_role("list", name="Time-stamps of the latest time-stamped entry")
        expect(latest.get_by_text(f"Time-stamped by {stamp['authority']} at {at:%H:%M:%S} UTC")).to_be_visible()
        with page.expect_download() as download:
            latest.get_by_role(
                "link", name=f"Download the time-stamp token of the latest time-stamped entry by {stamp['authority']}"
            ).click()
        token = Path(download.value.path()).read_bytes()
        # The token of the stamp the page shows (the head may have been stamped again since it was read above).
        shown = {base64.b64decode(s["token"]): s for s in ctx.request.get("/api/proof").json()["timestamps"] + stamps}
        assert token in shown and len(token) > 500  # a DER token, the authority's certificate in it
        kept = shown[token]
        assert download.value.suggested_filename == f"ledger-{kept['seq']}-{kept['authority']}.tst"
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
        note = page.get_by_role("region", name="Track record").get_by_role("note")  # the statistics' note
        expect(note).to_have_text(whole["statistics"]["sampleSizeNote"])

        page.get_by_label("Market", exact=True).select_option("forex")
        forex = ctx.request.get(f"/api/educators/{MEI_ID}/track-record?market=forex").json()
        stats = forex["statistics"]
        expect(note).to_have_text(stats["sampleSizeNote"])
        expect(_figure(page, "Completed")).to_have_text(str(forex["completed"]))
        interval = stats["averageRInterval95"]
        shown = "—" if interval is None else re.compile(r"^[+\u2212]?\d+\.\d\d to [+\u2212]?\d+\.\d\d R$")
        expect(_figure(page, "Average R, 95 % range")).to_have_text(shown)
        expect(page.get_by_text("Open ideas deleted more than 15 minutes after publishing")).to_be_visible()
    finally:
        ctx.close()
