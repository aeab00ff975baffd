"""Take screenshots of every screen at phone and desktop widths (for looking, not for asserting).

Usage: with the app running (`make run`), `cd backend && uv run python ../e2e/screenshots.py [BASE_URL] [OUT_DIR]`.
THEME=light (or dark, the default) picks the theme; the file names then start with it.
"""

import os
import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: make `e2e` importable
from e2e.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE

PASSWORD = os.environ.get("DEMO_PASSWORD", "TradeIdeas2026!")
THEME = os.environ.get("THEME", "dark")
PUBLIC = ["/login", "/zinrai-educators-1", "/admin/login", "/invite/not-a-token", "/proof", "/nope"]
CUSTOMER = [
    "/customer/dashboard",
    "/customer/forex",
    "/customer/crypto",
    "/customer/forex/leverage",
    "/customer/crypto/exchange",
    "/customer/chat",
    "/customer/profile",
    "/customer/educators",
    "/customer/educators/alex-morgan",
    "/customer/ideas/1",
    "/customer/chat?room=2",
    "/customer/journal",
]
EDUCATOR = [
    "/educator/dashboard",
    "/educator/ideas",
    "/educator/ideas/new",
    "/educator/chat",
    "/educator/profile",
    "/test-notifications",
]

ADMIN = ["/admin"]
PORTALS = {  # who: (login page, e-mail, submit button, landing page)
    "customer": ("/login", "customer@example.com", "Sign In", "**/dashboard"),
    "educator": ("/zinrai-educators-1", "educator1@example.com", "Access Educator Portal", "**/dashboard"),
    "admin": ("/admin/login", "admin@example.com", "Sign In to Admin", "**/admin"),
}


def _login(page: Page, who: str) -> None:
    login_page, email, button, landing = PORTALS[who]
    page.goto(login_page)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=button).click()
    page.wait_for_url(landing)


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    out = Path(sys.argv[2] if len(sys.argv) > 2 else "../screenshots")
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            for who, paths in (("anon", PUBLIC), ("customer", CUSTOMER), ("educator", EDUCATOR), ("admin", ADMIN)):
                ctx = browser.new_context(base_url=base, viewport=viewport)  # type: ignore[arg-type]
                ctx.add_init_script(f"localStorage.setItem('theme', '{THEME}')")
                page = ctx.new_page()
                if who != "anon":
                    _login(page, who)
                for path in paths:
                    page.goto(path)
                    page.wait_for_timeout(700)
                    name = path.strip("/").replace("/", "_") or "root"
                    page.screenshot(path=str(out / f"{THEME}-{label}-{name}.png"), full_page=True)
                ctx.close()
        browser.close()
    print(f"screenshots in {out.resolve()}")


if __name__ == "__main__":
    main()
