"""Accessibility (axe-core: no violation of any impact) on every route at both widths in both themes, tap targets
on phones, and the carousel's touch and keys."""

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from e2e.conftest import CUSTOMER, DESKTOP, EDUCATOR_A, PHONE, axe_findings, educator_api, login, publish_idea
from e2e.test_admin import admin_login

PUBLIC = [
    "/login",
    "/zinrai-educators-1",
    "/admin/login",
    "/terms",
    "/privacy",
    "/proof",
    "/plans",
    "/reset/not-a-token",
    "/nope",
]
CUSTOMER_ROUTES = [
    "/customer/dashboard",
    "/customer/forex",
    "/customer/crypto",
    "/customer/forex/leverage",
    "/customer/forex/exchange",
    "/customer/crypto/leverage",
    "/customer/crypto/exchange",
    "/customer/chat",
    "/customer/profile",
    "/customer/educators",
    "/customer/educators/alex-morgan",
    "/customer/journal",
    "/customer/ideas/1",
]
EDUCATOR_ROUTES = [
    "/educator/dashboard",
    "/educator/ideas",
    "/educator/ideas/new",
    "/educator/chat",
    "/educator/profile",
    "/educator/alex-morgan",
    "/test-notifications",
]
ADMIN_ROUTES = ["/admin", "/admin/plans"]


def _axe_context(browser: Browser, base_url: str, viewport: dict[str, int], theme: str) -> BrowserContext:
    # axe is injected as an inline script, which the app's CSP (rightly) forbids.
    ctx = browser.new_context(base_url=base_url, viewport=viewport, bypass_csp=True)  # type: ignore[arg-type]
    ctx.add_init_script(f"localStorage.setItem('theme', '{theme}')")
    return ctx


def _routes_as(page: Page, who: str) -> list[str]:
    """Signs `page` in as `who` (anon, customer, educator or admin) and returns the routes that person can open."""
    if who == "customer":
        login(page, CUSTOMER)
        return CUSTOMER_ROUTES
    if who == "educator":
        login(page, EDUCATOR_A, educator=True)
        return EDUCATOR_ROUTES
    if who == "admin":
        admin_login(page)
        return ADMIN_ROUTES
    return PUBLIC


# True once every image in the viewport has loaded (or failed): until then an image's button is its border only.
IMAGES_IN_VIEW_LOADED = """() => [...document.images].every((img) => {
  const box = img.getBoundingClientRect();
  const inView = box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
  return !inView || img.complete;
})"""


def _settled(page: Page) -> None:
    """Wait until the page shows its content (no loading spinners, the lazily loaded screen is in, the images in
    view have arrived)."""
    expect(page.locator("h1").first).to_be_visible()
    expect(page.get_by_role("status").filter(has_text=re.compile("Loading"))).to_have_count(0)
    page.wait_for_function(IMAGES_IN_VIEW_LOADED)


def _problems_on_each_route(page: Page, who: str, check: Callable[[Page], list[str]]) -> dict[str, list[str]]:
    """Opens every route `who` can open and returns what `check` found on each (routes with none left out)."""
    found: dict[str, list[str]] = {}
    for route in _routes_as(page, who):
        page.goto(route)
        _settled(page)
        problems = check(page)
        if problems:
            found[route] = problems
    return found


@pytest.fixture(params=["dark", "light"])
def theme(request: pytest.FixtureRequest) -> str:
    param: str = request.param
    return param


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("who", ["anon", "customer", "educator", "admin"])
def test_no_accessibility_violations(
    browser: Browser, base_url: str, viewport: dict[str, int], theme: str, who: str
) -> None:
    ctx = _axe_context(browser, base_url, viewport, theme)
    page = ctx.new_page()
    try:
        found = _problems_on_each_route(page, who, axe_findings)
        if who == "admin":  # the audit log is a tab of /admin, not a route of its own
            page.goto("/admin")
            page.get_by_role("tab", name="Audit log").click()
            expect(page.get_by_role("tabpanel", name="Audit log")).to_be_visible()
            _settled(page)
            if audit := axe_findings(page):
                found["/admin (Audit log tab)"] = audit
        assert found == {}
    finally:
        ctx.close()


# Every visible control smaller than a finger (44 x 44 CSS px): buttons, links, fields, tabs, switches, menu items.
# Links that are part of a sentence (display: inline) are excepted, as WCAG does, and so are visually hidden inputs
# (a file input behind its styled label).
SMALL_TARGETS = """() => [...document.querySelectorAll(
  'a[href], button, input, select, textarea, summary, [role=button], [role=tab], [role=switch], [role=menuitem]')]
  .filter((el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const shown = box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && !el.closest('[aria-hidden=true]');
    return shown && style.display !== 'inline' && (box.width < 44 || box.height < 44);
  })
  .map((el) => {
    const box = el.getBoundingClientRect();
    const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('name') || '').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`;
  })"""


@pytest.fixture
def edited_idea(browser: Browser, base_url: str) -> Iterator[dict[str, Any]]:
    """An idea edited after publishing (it shows the "edited" marker), removed afterwards so that the other
    tests see the lists as they were."""
    idea = publish_idea(
        browser,
        base_url,
        pair="EUR/USD",
        timeFrame="TAP-1",
        entry1="1.1000",
        invalidationLevel="1.0950",
        exit1="1.1100",
        edit={"notes": "Moved the stop"},
    )
    yield idea
    with educator_api(browser, base_url) as api:
        assert api.delete(f"/api/trade-ideas/{idea['id']}").ok


@pytest.mark.parametrize("who", ["anon", "customer", "educator"])
@pytest.mark.usefixtures("edited_idea")
def test_every_control_on_a_phone_is_a_finger_wide(browser: Browser, base_url: str, who: str) -> None:
    ctx = browser.new_context(base_url=base_url, viewport=PHONE, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        assert _problems_on_each_route(page, who, lambda shown: list(shown.evaluate(SMALL_TARGETS))) == {}
    finally:
        ctx.close()


def _wider_than_the_screen(page: Page) -> list[str]:
    width = int(page.evaluate("document.documentElement.scrollWidth"))
    return [f"{width} px wide"] if width > PHONE["width"] else []


@pytest.mark.parametrize("who", ["anon", "customer", "educator"])
def test_no_page_scrolls_sideways_on_a_phone(browser: Browser, base_url: str, who: str) -> None:
    ctx = browser.new_context(base_url=base_url, viewport=PHONE, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        assert _problems_on_each_route(page, who, _wider_than_the_screen) == {}
    finally:
        ctx.close()


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[Page]:
    ctx = browser.new_context(base_url=base_url, viewport=PHONE, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    yield ctx.new_page()
    ctx.close()


def _position(page: Page) -> tuple[int, int]:
    text = page.get_by_text(re.compile(r"^Slide \d+ / \d+$")).inner_text()
    current, total = re.findall(r"\d+", text)
    return int(current), int(total)


def test_carousel_swipes_with_real_touch_events(phone: Page) -> None:
    login(phone, CUSTOMER)
    phone.goto("/customer/forex")
    carousel = phone.get_by_role("region", name="Forex trade ideas")
    expect(carousel.get_by_text(re.compile(r"^Slide 1 / \d+$"))).to_be_visible()
    _, total = _position(phone)
    assert total > 1
    box = carousel.get_by_role("article").first.bounding_box()
    assert box is not None
    y = box["y"] + 120
    cdp = phone.context.new_cdp_session(phone)

    def touch(kind: str, x: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 320)
    for x in range(300, 40, -20):
        touch("touchMove", x)
    touch("touchEnd", 40)
    expect(carousel.get_by_text(re.compile(r"^Slide 2 / \d+$"))).to_be_visible()


def test_carousel_moves_with_arrow_keys(page: Page) -> None:
    login(page, CUSTOMER)
    page.goto("/customer/crypto")
    carousel = page.get_by_role("region", name="Crypto trade ideas")
    expect(carousel.get_by_text(re.compile(r"^Slide 1 / \d+$"))).to_be_visible()
    carousel.focus()
    page.keyboard.press("ArrowRight")
    expect(carousel.get_by_text(re.compile(r"^Slide 2 / \d+$"))).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(carousel.get_by_text(re.compile(r"^Slide 1 / \d+$"))).to_be_visible()


def test_carousel_dots_are_buttons_that_go_to_their_slide(phone: Page) -> None:
    login(phone, CUSTOMER)
    phone.goto("/customer/forex")
    carousel = phone.get_by_role("region", name="Forex trade ideas")
    expect(carousel.get_by_text(re.compile(r"^Slide 1 / \d+$"))).to_be_visible()
    _, total = _position(phone)
    assert total >= 3
    if total > 12:
        # Past 12 slides the position reads "Slide N / M" with Previous and Next, and no dots (Carousel.tsx):
        # earlier journeys may have published more forex ideas than the demo has.
        expect(carousel.get_by_role("button", name=re.compile(r"^Go to slide \d+$"))).to_have_count(0)
        carousel.get_by_role("button", name="Next slide").click()
        expect(carousel.get_by_text(re.compile(r"^Slide 2 / \d+$"))).to_be_visible()
        return
    first = carousel.get_by_role("button", name="Go to slide 1", exact=True)
    expect(first).to_have_attribute("aria-current", "true")
    expect(carousel.get_by_role("button", name=re.compile(r"^Go to slide \d+$"))).to_have_count(total)
    for dot in carousel.get_by_role("button", name=re.compile(r"^Go to slide \d+$")).all():
        box = dot.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44  # a finger's target on phones
    carousel.get_by_role("button", name="Go to slide 3", exact=True).click()
    expect(carousel.get_by_text(re.compile(r"^Slide 3 / \d+$"))).to_be_visible()
    expect(carousel.get_by_role("button", name="Go to slide 3", exact=True)).to_have_attribute("aria-current", "true")
    expect(first).not_to_have_attribute("aria-current", "true")
    # The slide it went to is rendered (slides far from view are rendered only when they come near).
    expect(carousel.get_by_role("group", name=f"3 of {total}").get_by_role("article")).to_be_visible()


@pytest.mark.parametrize("width", [1280, 1366, 1920])
def test_the_market_pages_header_fits_on_desktop(browser: Browser, base_url: str, width: int) -> None:
    ctx = browser.new_context(base_url=base_url, viewport={"width": width, "height": 800})
    page = ctx.new_page()
    try:
        login(page, CUSTOMER)
        page.goto("/customer/forex")
        banner = page.get_by_role("banner")
        logo = banner.get_by_role("link", name="Trade Ideas - Markets")
        nav = banner.get_by_role("navigation", name="Main")
        sign_out = banner.get_by_role("button", name="Logout")
        expect(nav.get_by_role("link", name="Exchange history")).to_be_visible()
        name = logo.get_by_text("Trade Ideas", exact=True)  # the visible name, which may spill out of a squeezed link
        name_box, nav_box, sign_out_box = name.bounding_box(), nav.bounding_box(), sign_out.bounding_box()
        assert name_box and nav_box and sign_out_box
        # Side by side, none drawn over another (the logo's name once ran under the first link).
        assert name_box["x"] + name_box["width"] <= nav_box["x"]
        assert nav_box["x"] + nav_box["width"] <= sign_out_box["x"]
        assert sign_out_box["x"] + sign_out_box["width"] <= width
    finally:
        ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_market_choosers_logo_is_a_named_link_home(
    browser: Browser, base_url: str, viewport: dict[str, int]
) -> None:
    ctx = browser.new_context(base_url=base_url, viewport=viewport)  # type: ignore[arg-type]
    page = ctx.new_page()
    try:
        login(page, CUSTOMER)  # lands on the market chooser
        home = page.get_by_role("banner").get_by_role("link", name="Trade Ideas - Markets")
        expect(home).to_be_visible()
        home.click()
        expect(page).to_have_url(re.compile(r"/customer/dashboard$"))
    finally:
        ctx.close()


def test_page_titles_name_the_page_and_the_product(page: Page) -> None:
    page.goto("/login")
    expect(page).to_have_title("Login - Trade Ideas")
    login(page, CUSTOMER)
    expect(page).to_have_title("Choose Your Market - Trade Ideas")
    page.goto("/customer/forex/leverage")
    expect(page).to_have_title("Forex Leverage Ideas History - Trade Ideas")
    page.goto("/customer/chat")
    expect(page).to_have_title("Messages - Trade Ideas")


def test_signed_in_users_skip_the_login_pages(page: Page) -> None:
    login(page, CUSTOMER)
    for path in ("/", "/login", "/zinrai-educators-1"):
        page.goto(path)
        expect(page).to_have_url(re.compile(r"/customer/dashboard$"))


def test_another_educators_address_leads_to_your_own(page: Page) -> None:
    login(page, EDUCATOR_A, educator=True)
    page.goto("/educator/sofia-reyes")
    expect(page).to_have_url(re.compile(r"/educator/alex-morgan$"))
    expect(page.get_by_role("heading", name="Your Trade Ideas")).to_be_visible()


def test_static_files_are_compressed_and_cached(page: Page, base_url: str) -> None:
    page.goto("/login")
    script = page.locator("script[src^='/assets/']").first.get_attribute("src")
    assert script is not None
    answer = page.request.get(script, headers={"Accept-Encoding": "br"})
    assert answer.headers["content-encoding"] == "br"
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"


def test_customers_never_download_the_educator_screens(page: Page) -> None:
    scripts: list[str] = []
    page.on("request", lambda request: scripts.append(request.url) if request.url.endswith(".js") else None)
    login(page, CUSTOMER)
    for route in ("/customer/forex", "/customer/forex/leverage", "/customer/chat", "/customer/profile"):
        page.goto(route)
        _settled(page)
    assert any("MarketDashboardPage" in url for url in scripts)  # the names below would show up like this
    educator_code = ("EducatorDashboardPage", "MyTradeIdeasPage", "IdeaForm", "EducatorChatPage", "EducatorLoginPage")
    assert [url for url in scripts if any(name in url for name in educator_code)] == []
