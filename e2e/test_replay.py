"""Journey (issue #42): a customer replays a completed demo idea on its own page: plays it and sees the candles
advance, pauses, steps, scrubs, reads the best and worst moves (MFE/MAE), and replays it again offline after a
reload. On a 390 px phone and at 1366 px, with no axe violations."""

import re
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, Locator, expect

from e2e.conftest import CUSTOMER, DESKTOP, PHONE, axe_findings, login

WIDTHS = [pytest.param(PHONE, id="390"), pytest.param(DESKTOP, id="1366")]
MINUS = "\u2212"
TIMES = "\u00d7"  # the multiplication sign the speeds are written with
STATUS = re.compile(r"^Candle (\d+) of (\d+) · (\w{3} \d{1,2}, )?\d{2}:\d{2} UTC$")


def _r(value: float) -> str:
    """The app's R figure: signed, two decimals, a real minus sign ("+2.05 R", "\u22121.00 R", "0.00 R")."""
    text = f"{abs(value):.2f}"
    if text == "0.00":
        return "0.00 R"
    return f"{'+' if value > 0 else MINUS}{text} R"


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _settled_idea(api: APIRequestContext) -> dict[str, Any]:
    """A completed demo idea whose price check settled at an exit some minutes after its trigger, which came some
    minutes after publishing (so the replay has candles before, during and after the trade). The price checks settle
    the demo's history in the background once the server is up: waits for one."""
    for _ in range(90):
        cursor = None
        for _page in range(5):
            params: dict[str, str | float | bool] = {"status": "completed", **({"cursor": cursor} if cursor else {})}
            answer = api.get("/api/trade-ideas", params=params).json()
            items: list[dict[str, Any]] = answer["items"]
            for idea in items:
                v = idea.get("verification") or {}
                if v.get("state") != "settled" or not str(v.get("outcome", "")).startswith("exit"):
                    continue
                if v["mfeR"] is None or v["maeR"] is None or v["triggeredAt"] is None:
                    continue
                if _when(v["triggeredAt"]) - _when(idea["createdAt"]) > timedelta(minutes=5):
                    return idea
            cursor = answer.get("nextCursor")
            if not cursor:
                break
        time.sleep(2)
    raise AssertionError("no demo idea's price check settled at an exit")


def _position(slider: Locator) -> int:
    return int(slider.input_value())


@pytest.mark.parametrize("viewport", WIDTHS)
def test_a_customer_replays_an_idea_and_again_offline(
    browser: Browser, history_url: str, viewport: dict[str, int]
) -> None:
    # axe is injected as a script: the context bypasses the app's CSP.
    ctx = browser.new_context(base_url=history_url, viewport=viewport, bypass_csp=True)  # type: ignore[arg-type]
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.evaluate("navigator.serviceWorker.ready")
        idea = _settled_idea(page.request)
        v = idea["verification"]

        page.goto(f"/customer/ideas/{idea['id']}")
        panel = page.get_by_role("region", name="Replay")
        slider = panel.get_by_label("Replay position")
        status = panel.get_by_role("status")
        # It opens on the whole trade: the last candle, the price check's own best and worst moves.
        expect(status).to_have_text(STATUS)
        match = STATUS.match(status.inner_text())
        assert match is not None
        count = int(match.group(2))
        assert int(match.group(1)) == count > 10
        expect(slider).to_have_attribute("aria-valuetext", status.inner_text())
        mfe = panel.get_by_role("definition").nth(0)
        mae = panel.get_by_role("definition").nth(1)
        expect(mfe).to_have_text(_r(v["mfeR"]))
        expect(mae).to_have_text(_r(v["maeR"]))
        expect(panel.get_by_role("listitem").filter(has_text="Entry triggered: candle")).to_be_visible()
        assert axe_findings(page) == []

        # Play from the end starts again at the first candle and advances.
        panel.get_by_role("button", name="Play").click()
        expect(status).to_have_text(f"Playing at 5{TIMES}")
        first = _position(slider)
        page.wait_for_timeout(1_500)
        assert _position(slider) > first
        panel.get_by_role("button", name="Pause").click()
        expect(status).to_have_text(STATUS)
        paused = _position(slider)
        expect(status).to_contain_text(f"Candle {paused} of {count}")

        # Step forward, then back.
        panel.get_by_role("button", name="Step forward").click()
        expect(status).to_contain_text(f"Candle {paused + 1} of {count}")
        panel.get_by_role("button", name="Step back").click()
        panel.get_by_role("button", name="Step back").click()
        expect(status).to_contain_text(f"Candle {paused - 1} of {count}")

        # Scrub to the first candle: published, not triggered yet, no steps.
        slider.fill("1")
        expect(status).to_contain_text(f"Candle 1 of {count}")
        expect(mfe).to_have_text("Not triggered yet")
        expect(mae).to_have_text("Not triggered yet")
        expect(panel.get_by_text("None yet.")).to_be_visible()

        # A faster speed, and scrubbing to the end again: the price check's figures.
        panel.get_by_role("group", name="Speed").get_by_label(f"60{TIMES}").check()
        slider.fill(str(count))
        expect(status).to_contain_text(f"Candle {count} of {count}")
        expect(mfe).to_have_text(_r(v["mfeR"]))
        expect(mae).to_have_text(_r(v["maeR"]))
        assert axe_findings(page) == []
        page.wait_for_timeout(500)  # the device writes what it loaded to IndexedDB a moment after it arrives

        # Offline, the page opens again and the replay still plays.
        ctx.set_offline(True)
        page.reload()
        expect(page.get_by_role("status").filter(has_text=re.compile(r"^Offline: "))).to_be_visible()
        panel = page.get_by_role("region", name="Replay")
        slider = panel.get_by_label("Replay position")
        status = panel.get_by_role("status")
        expect(status).to_contain_text(f"Candle {count} of {count}")
        panel.get_by_role("button", name="Play").click()
        page.wait_for_timeout(1_000)
        panel.get_by_role("button", name="Pause").click()
        expect(status).to_have_text(STATUS)
        assert 1 < _position(slider) < count
        panel.get_by_role("button", name="Step forward").click()
        expect(panel.get_by_role("definition").nth(0)).not_to_have_text("")
    finally:
        ctx.close()
