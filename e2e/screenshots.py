"""Take screenshots of every screen at phone and desktop widths (for looking, not for asserting).

Usage: with the app running (`make run`), `cd backend && uv run python ../e2e/screenshots.py [BASE_URL] [OUT_DIR]`.
"""

import os
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: make `e2e` importable
from e2e.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE

PASSWORD = os.environ.get("DEMO_PASSWORD", "TradeIdeas2026!")
PUBLIC = ["/login", "/zinrai-educators-1", "/nope"]
CUSTOMER = [
    "/customer/dashboard",
    "/customer/forex",
    "/customer/crypto",
    "/customer/forex/leverage",
    "/customer/crypto/exchange",
    "/customer/chat",
    "/customer/profile",
]
EDUCATOR = [
    "/educator/dashboard",
    "/educator/ideas",
    "/educator/ideas/new",
    "/educator/chat",
    "/educator/profile",
    "/test-notifications",
]


def _login(page: Page, email: str, educator: bool) -> None:
    page.goto("/zinrai-educators-1" if educator else "/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Access Educator Portal" if educator else "Sign In").click()
    page.wait_for_url("**/dashboard")


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "../screenshots")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            for who, paths in (("anon", PUBLIC), ("customer", CUSTOMER), ("educator", EDUCATOR)):
                ctx = browser.new_context(base_url=base, viewport=viewport)  # type: ignore[arg-type]
                page = ctx.new_page()
                if who != "anon":
                    _login(
                        page,
                        "customer@example.com" if who == "customer" else "educator1@example.com",
                        who == "educator",
                    )
                for path in paths:
                    page.goto(path)
                    page.wait_for_timeout(700)
                    name = path.strip("/").replace("/", "_") or "root"
                    page.screenshot(path=str(out / f"{label}-{name}.png"), full_page=True)
                ctx.close()
        browser.close()
    print(f"screenshots in {out.resolve()}")


if __name__ == "__main__":
    main()
