"""Journeys of the foundation: both logins, the hidden educator entry, guards, 404, logout, theme, legal."""

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from e2e.conftest import CUSTOMER, DEMO_PASSWORD, DESKTOP, EDUCATOR_A, REPO, login


def test_customer_logs_in_and_lands_on_market_chooser(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("heading", name="Login")).to_be_visible()
    expect(page.get_by_text("Customer Portal - Learn Trading")).to_be_visible()
    page.get_by_label("Email").fill(CUSTOMER)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_text("Login Successful")).to_be_visible()
    expect(page.get_by_text("Welcome back, Demo!")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/customer/dashboard$"))
    expect(page.get_by_role("heading", name="Choose Your Market")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Forex"))).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Crypto"))).to_be_visible()


def test_a_screen_whose_code_cannot_be_fetched_offers_a_reload(browser: Browser, base_url: str) -> None:
    # The service worker would answer from its cache; this is the case it cannot cover (a first visit offline,
    # or files replaced by an update).
    ctx = browser.new_context(base_url=base_url, viewport=DESKTOP, service_workers="block")  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        login(page, CUSTOMER)
        page.route(re.compile(r"/assets/MarketDashboardPage-[^/]*\.js$"), lambda route: route.abort())
        page.goto("/customer/forex")
        expect(page.get_by_role("alert")).to_contain_text("This page could not be shown")
        page.unroute(re.compile(r"/assets/MarketDashboardPage-[^/]*\.js$"))
        page.get_by_role("button", name="Reload").click()
        expect(page.get_by_role("heading", name="Forex Trade Ideas")).to_be_visible()
    finally:
        ctx.close()


def test_session_token_never_reaches_local_storage(page: Page, context: BrowserContext) -> None:
    login(page, CUSTOMER)
    cookie = next(c for c in context.cookies() if c["name"] == "session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    storage = page.evaluate("JSON.stringify({...localStorage, ...sessionStorage})")
    assert cookie["value"] not in storage
    assert page.evaluate("document.cookie").find(cookie["value"]) == -1


def test_wrong_password_shows_the_servers_message(page: Page) -> None:
    page.goto("/login")
    page.get_by_label("Email").fill(CUSTOMER)
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("alert")).to_contain_text("Invalid email or password")
    expect(page).to_have_url(re.compile(r"/login$"))


def test_educator_logs_in_through_the_hidden_portal(page: Page) -> None:
    page.goto("/zinrai-educators-1")
    expect(page.get_by_role("heading", name="Educator Login")).to_be_visible()
    expect(page.get_by_text("Staff Portal")).to_be_visible()
    page.get_by_label("Email").fill(EDUCATOR_A)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Access Educator Portal").click()
    expect(page.get_by_text("Welcome back, Alex!")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/educator/dashboard$"))


def test_customer_account_is_refused_by_the_educator_portal(page: Page) -> None:
    page.goto("/zinrai-educators-1")
    page.get_by_label("Email").fill(CUSTOMER)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Access Educator Portal").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Access denied: Only authorized educators can access this portal."
    )


def test_five_quick_clicks_unlock_the_educator_entry(page: Page) -> None:
    page.goto("/login")
    heading = page.get_by_role("heading", name="Login")
    for _ in range(4):
        heading.click()
    page.wait_for_timeout(3300)  # the counter resets after 3 s
    heading.click()
    expect(page).to_have_url(re.compile(r"/login$"))
    for _ in range(4):
        heading.click()
    expect(page.get_by_text("Educator Access Unlocked")).to_be_visible()
    expect(page.get_by_text("Redirecting to educator login...")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/zinrai-educators-1$"))


def test_guards_send_people_where_they_belong(page: Page) -> None:
    page.goto("/customer/forex")
    expect(page).to_have_url(re.compile(r"/login$"))
    page.goto("/educator/ideas")
    expect(page).to_have_url(re.compile(r"/login$"))
    login(page, CUSTOMER)
    for path in ("/educator/dashboard", "/educator/chat", "/test-notifications"):
        page.goto(path)
        expect(page).to_have_url(re.compile(r"/customer/forex$"))


def test_educator_slug_routes_and_404(page: Page) -> None:
    login(page, EDUCATOR_A, educator=True)
    page.goto("/educator/alex-morgan")
    expect(page.get_by_text("Your Trade Ideas").first).to_be_visible()
    page.goto("/educator/not-a-real-educator")
    expect(page.get_by_role("heading", name="404 Page Not Found")).to_be_visible()
    page.goto("/this/does/not/exist")
    expect(page.get_by_role("heading", name="404 Page Not Found")).to_be_visible()


def test_logout_ends_the_session(page: Page, context: BrowserContext) -> None:
    login(page, CUSTOMER)
    page.get_by_role("button", name=re.compile("Log ?out", re.I)).first.click()
    expect(page).to_have_url(re.compile(r"/login$"))
    page.goto("/customer/dashboard")
    expect(page).to_have_url(re.compile(r"/login$"))
    status = page.evaluate("fetch('/api/auth/user').then(r => r.status)")
    assert status == 401


def test_educator_logout_from_the_menu(page: Page) -> None:
    login(page, EDUCATOR_A, educator=True)
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("menuitem", name=re.compile("Log ?out", re.I)).click()
    expect(page).to_have_url(re.compile(r"/login$"))


def test_terms_and_privacy_open_as_dialogs(page: Page) -> None:
    page.goto("/login")
    page.get_by_role("button", name="Terms of Use").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Terms of Use")).to_be_visible()
    expect(dialog).to_contain_text("January 2025")
    expect(dialog).to_contain_text(re.compile("limitation of liability", re.I))
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Privacy Policy").click()
    expect(page.get_by_role("dialog")).to_contain_text(re.compile("information we collect", re.I))


def test_channel_link_comes_from_configuration(page: Page) -> None:
    page.goto("/login")
    link = page.locator('a[href="https://example.com/e2e-channel"]').first
    expect(link).to_be_visible()


def test_theme_defaults_to_dark_and_the_choice_persists(page: Page) -> None:
    page.goto("/login")
    html = page.locator("html")
    expect(html).to_have_class(re.compile(r"\bdark\b"))
    page.get_by_role("button", name="Toggle theme").first.click()
    expect(html).not_to_have_class(re.compile(r"\bdark\b"))
    page.reload()
    expect(html).not_to_have_class(re.compile(r"\bdark\b"))


def test_no_educator_email_in_the_browser_bundle() -> None:
    dist = REPO / "frontend" / "dist"
    bundle = "".join(p.read_text(errors="ignore") for p in Path(dist).rglob("*") if p.suffix in (".js", ".html"))
    educators = json.loads((REPO / "backend" / "tradeideas" / "educators.json").read_text())
    assert len(educators) == 7
    for educator in educators:
        assert educator["email"] not in bundle
