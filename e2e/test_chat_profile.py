"""Journeys of chat rooms with reactions, and profiles: an educator posts, edits, deletes and attaches an
image; a customer sees each change and reacts; educators and customers edit their profiles."""

import re
import uuid
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect

from e2e.conftest import CUSTOMER, DEMO_PASSWORD, EDUCATOR_A, EDUCATOR_B, PHONE, login, new_context

EDUCATOR_RENAMED = "educator7@example.com"  # Ryan Costa; renamed and restored here only
EDUCATOR_PASSWORD = "educator6@example.com"  # changes their password and changes it back


def _tag() -> str:
    return uuid.uuid4().hex[:8]


def _png(tmp_path: Path) -> Path:
    path = tmp_path / "chart.png"
    Image.new("RGB", (1200, 600), (16, 185, 129)).save(path)
    return path


def _card(page: Page, text: str) -> Locator:
    """The message card (list item) that shows `text`."""
    return page.get_by_role("listitem").filter(has_text=text)


def _open_customer_chat(page: Page) -> None:
    page.goto("/customer/chat")
    expect(page.get_by_role("heading", name="Messages")).to_be_visible()
    expect(page.get_by_role("tab", name="Leverage Ideas")).to_have_attribute("aria-selected", "true")


def test_educator_posts_edits_attaches_and_deletes_while_a_customer_follows_and_reacts(
    browser: Browser, base_url: str, tmp_path: Path
) -> None:
    tag = _tag()
    first, edited = f"EUR/USD breakout {tag}", f"EUR/USD breakout confirmed {tag}"

    edu_ctx = new_context(browser, base_url)
    cust_ctx = new_context(browser, base_url)
    other_ctx = new_context(browser, base_url)
    try:
        edu = edu_ctx.new_page()
        login(edu, EDUCATOR_A, educator=True)
        edu.get_by_role("button", name="Menu").click()
        edu.get_by_role("menuitem", name="Chat").click()
        expect(edu).to_have_url(re.compile(r"/educator/chat$"))
        expect(edu.get_by_role("tab", name="Leverage Ideas")).to_have_attribute("aria-selected", "true")
        expect(edu.get_by_role("tab", name="Exchange Ideas")).to_be_visible()

        # Shift+Enter adds a line; Enter sends.
        box = edu.get_by_role("textbox", name="Message", exact=True)
        box.fill("line one")
        box.press("Shift+Enter")
        box.press_sequentially("line two")
        expect(box).to_have_value("line one\nline two")
        box.fill(first)
        box.press("Enter")
        expect(_card(edu, first)).to_be_visible()
        expect(box).to_have_value("")
        expect(_card(edu, first).get_by_text("Alex Morgan")).to_be_visible()

        # The customer reads it (no input of any kind) and reacts.
        cust = cust_ctx.new_page()
        login(cust, CUSTOMER)
        _open_customer_chat(cust)
        card = _card(cust, first)
        expect(card).to_be_visible()
        expect(card.get_by_text("Alex Morgan")).to_be_visible()
        expect(card.get_by_text("Forex Trading")).to_be_visible()
        expect(card.get_by_text("Now")).to_be_visible()
        expect(cust.get_by_role("textbox")).to_have_count(0)
        expect(cust.get_by_role("button", name="Send message")).to_have_count(0)
        expect(
            cust.get_by_text("Read-only channel - Educators share trading insights and analysis here.")
        ).to_be_visible()

        heart, like = card.get_by_role("button", name="Heart"), card.get_by_role("button", name="Like")
        expect(heart).to_have_attribute("aria-pressed", "false")
        heart.click()
        expect(heart).to_have_attribute("aria-pressed", "true")
        expect(heart).to_have_text("1")
        like.click()
        expect(like).to_have_attribute("aria-pressed", "true")
        expect(like).to_have_text("1")
        cust.reload()
        card = _card(cust, first)
        expect(card.get_by_role("button", name="Heart")).to_have_text("1")
        expect(card.get_by_role("button", name="Heart")).to_have_attribute("aria-pressed", "true")
        expect(card.get_by_role("button", name="Like")).to_have_text("1")
        # Taking the like back.
        card.get_by_role("button", name="Like").click()
        expect(card.get_by_role("button", name="Like")).to_have_attribute("aria-pressed", "false")
        expect(card.get_by_role("button", name="Like")).to_have_text("0")

        # The educator sees the counts on their own message, then edits it.
        edu.reload()
        mine = _card(edu, first)
        expect(mine.get_by_title("Hearts")).to_contain_text("1")
        mine.get_by_role("button", name="Edit").click()
        edu.get_by_label("Edit message").fill(edited)
        edu.get_by_role("button", name="Save").click()
        mine = _card(edu, edited)
        expect(mine.get_by_text("(edited)")).to_be_visible()

        cust.reload()
        expect(_card(cust, edited).get_by_text("(edited)")).to_be_visible()

        # An image alone is sent as 'Shared an image'.
        with edu.expect_file_chooser() as chooser:
            edu.get_by_role("button", name="Attach image").click()
        chooser.value.set_files(str(_png(tmp_path)))
        expect(edu.get_by_alt_text("Attached image preview")).to_be_visible()
        edu.get_by_role("button", name="Send message").click()
        expect(edu.get_by_alt_text("Attached image preview")).to_have_count(0)
        image_card = edu.get_by_role("listitem").filter(has=edu.get_by_alt_text("Image shared by Alex Morgan")).last
        expect(image_card.get_by_text("Shared an image")).to_be_visible()

        cust.reload()
        cust_image = cust.get_by_role("listitem").filter(has=cust.get_by_alt_text("Image shared by Alex Morgan")).last
        expect(cust_image.get_by_text("Shared an image")).to_be_visible()
        cust_image.get_by_role("button", name="Open image").click()
        dialog = cust.get_by_role("dialog", name="Image")
        expect(dialog.get_by_role("img")).to_be_visible()
        width = dialog.get_by_role("img").evaluate("img => img.naturalWidth")
        assert width == 800  # resized in the browser (and by the server) to 800 px wide
        dialog.get_by_role("button", name="Close").click()

        # Another educator's chat shows only their own messages.
        other = other_ctx.new_page()
        login(other, EDUCATOR_B, educator=True)
        other.goto("/educator/chat")
        expect(other.get_by_role("tab", name="Leverage Ideas")).to_be_visible()
        expect(other.get_by_text(edited)).to_have_count(0)

        # Delete asks first.
        _card(edu, edited).get_by_role("button", name="Delete").click()
        confirm = edu.get_by_role("alertdialog")
        expect(confirm).to_contain_text("Are you sure you want to delete this message?")
        confirm.get_by_role("button", name="Delete").click()
        expect(edu.get_by_text("Message deleted successfully!")).to_be_visible()
        expect(edu.get_by_text(edited)).to_have_count(0)

        cust.reload()
        expect(_card(cust, "Shared an image").first).to_be_visible()
        expect(cust.get_by_text(edited)).to_have_count(0)

        # The second room is separate.
        cust.get_by_role("tab", name="Exchange Ideas").click()
        expect(cust.get_by_role("tab", name="Exchange Ideas")).to_have_attribute("aria-selected", "true")
        expect(cust.get_by_text("Shared an image")).to_have_count(0)
    finally:
        edu_ctx.close()
        cust_ctx.close()
        other_ctx.close()


def test_an_educator_renames_themself_and_customers_see_the_new_name(browser: Browser, base_url: str) -> None:
    tag = _tag()
    new_first, new_last = "Rowan", f"Renamed{tag}"
    text = f"Gold looks heavy {tag}"
    edu_ctx = new_context(browser, base_url)
    cust_ctx = new_context(browser, base_url, viewport=PHONE)
    try:
        edu = edu_ctx.new_page()
        login(edu, EDUCATOR_RENAMED, educator=True)

        # The dashboard's profile dialog.
        edu.get_by_role("button", name="Profile").click()
        dialog = edu.get_by_role("dialog", name="Profile")
        expect(dialog.get_by_label("Title")).to_have_value("Educator")
        expect(dialog.get_by_label("Title")).to_have_attribute("readonly", "")
        expect(dialog.get_by_role("button", name="Logout")).to_be_visible()
        dialog.get_by_label("Name").fill(f"{new_first} {new_last}")
        dialog.get_by_label("Bio").fill("Macro and metals.")
        expect(dialog.get_by_text("17/1000")).to_be_visible()
        dialog.get_by_role("button", name="Save Profile").click()
        expect(edu.get_by_text("Profile updated")).to_be_visible()
        expect(edu.get_by_text("Your profile and all associated content have been updated")).to_be_visible()
        expect(dialog).to_be_hidden()
        expect(edu.get_by_text(f"Welcome back, {new_first} {new_last}")).to_be_visible()

        edu.goto("/educator/chat")
        edu.get_by_role("textbox", name="Message", exact=True).fill(text)
        edu.get_by_role("button", name="Send message").click()
        expect(_card(edu, text).get_by_text(f"{new_first} {new_last}")).to_be_visible()

        cust = cust_ctx.new_page()
        login(cust, CUSTOMER)
        # Their ideas carry the new name too (the seeded ADA/USDT idea is theirs).
        cust.goto("/customer/crypto")
        idea = cust.get_by_role("article").filter(has_text="ADA/USDT").first
        expect(idea).to_contain_text(f"{new_first} {new_last}")
        _open_customer_chat(cust)
        expect(_card(cust, text).get_by_text(f"{new_first} {new_last}")).to_be_visible()

        # The profile screen: edit, a server validation error, save, and the Trading Profile card.
        edu.goto("/educator/profile")
        expect(edu.get_by_role("button", name="Back to Dashboard")).to_have_count(0)
        expect(edu.get_by_role("link", name="Back to Dashboard")).to_be_visible()
        expect(edu.get_by_role("button", name="Logout")).to_be_visible()
        expect(edu.get_by_text("Macro and metals.")).to_be_visible()
        edu.get_by_role("button", name="Edit Profile").click()
        edu.get_by_label("First name").fill("Ryan")
        edu.get_by_label("Last name").fill("Costa")
        edu.get_by_label("Specialty").select_option("Swing Trading")
        edu.get_by_label("Trading Style").select_option("Position Trading")
        edu.get_by_label("Timezone").select_option("UTC+1")
        edu.get_by_label("Years of Experience").fill("60")
        edu.get_by_role("button", name="Save").click()
        expect(edu.get_by_role("alert")).to_contain_text("Years of experience must be between 0 and 50")
        edu.get_by_label("Years of Experience").fill("12")
        edu.get_by_role("button", name="Save").click()
        expect(edu.get_by_text("Profile saved")).to_be_visible()
        expect(edu.get_by_text("Your profile has been saved successfully.")).to_be_visible()
        expect(edu.get_by_role("button", name="Edit Profile")).to_be_visible()
        trading = edu.locator("section, div").filter(has=edu.get_by_role("heading", name="Trading Profile")).last
        expect(trading).to_contain_text("12")
        expect(trading).to_contain_text("Position Trading")
        expect(trading).to_contain_text("Active")

        # Cancel leaves everything as it was.
        edu.get_by_role("button", name="Edit Profile").click()
        edu.get_by_label("First name").fill("Nobody")
        edu.get_by_role("button", name="Cancel").click()
        expect(edu.get_by_text("Ryan Costa").first).to_be_visible()

        cust.reload()
        card = _card(cust, text)
        expect(card.get_by_text("Ryan Costa")).to_be_visible()
        expect(card.get_by_text("Swing Trading")).to_be_visible()
    finally:
        edu_ctx.close()
        cust_ctx.close()


def test_avatar_upload_shows_on_chat_messages(browser: Browser, base_url: str, tmp_path: Path) -> None:
    tag = _tag()
    text = f"Avatar check {tag}"
    edu_ctx = new_context(browser, base_url)
    try:
        edu = edu_ctx.new_page()
        login(edu, EDUCATOR_RENAMED, educator=True)
        edu.goto("/educator/profile")
        edu.get_by_role("button", name="Edit Profile").click()
        with edu.expect_file_chooser() as chooser:
            edu.get_by_role("button", name="Upload photo").click()
        chooser.value.set_files(str(_png(tmp_path)))
        expect(edu.get_by_role("button", name="Remove photo")).to_be_visible()
        edu.get_by_role("button", name="Save").click()
        expect(edu.get_by_text("Profile saved")).to_be_visible()
        edu.goto("/educator/chat")
        edu.get_by_role("textbox", name="Message", exact=True).fill(text)
        edu.get_by_role("textbox", name="Message", exact=True).press("Enter")
        avatar = _card(edu, text).locator("img").first
        expect(avatar).to_have_attribute("src", re.compile(r"^/media/"))

        # Remove it again: initials come back.
        edu.goto("/educator/profile")
        edu.get_by_role("button", name="Edit Profile").click()
        edu.get_by_role("button", name="Remove photo").click()
        edu.get_by_role("button", name="Save").click()
        expect(edu.get_by_text("Profile saved")).to_be_visible()
        edu.goto("/educator/chat")
        expect(_card(edu, text).locator("img")).to_have_count(0)
    finally:
        edu_ctx.close()


def test_customer_profile_and_password_change(browser: Browser, base_url: str) -> None:
    ctx = new_context(browser, base_url, viewport=PHONE)
    try:
        page = ctx.new_page()
        login(page, CUSTOMER)
        page.goto("/customer/profile")
        expect(page.get_by_role("heading", name="Trading Profile")).to_have_count(0)
        page.get_by_role("button", name="Edit Profile").click()
        expect(page.get_by_label("Specialty")).to_have_count(0)
        page.get_by_label("Trading Interests").fill("Bitcoin and majors")
        page.get_by_label("Bio").fill("Learning every day.")
        page.get_by_role("button", name="Save", exact=True).click()
        expect(page.get_by_text("Profile saved")).to_be_visible()
        expect(page.get_by_role("definition").filter(has_text="Bitcoin and majors")).to_be_visible()

        page.get_by_label("Current password").fill("wrong-password")
        page.get_by_label("New password").fill("another-password-1")
        page.get_by_role("button", name="Change Password").click()
        expect(page.get_by_role("alert")).to_contain_text("Current password is incorrect")
    finally:
        ctx.close()

    ctx = new_context(browser, base_url)
    try:
        page = ctx.new_page()
        login(page, EDUCATOR_PASSWORD, educator=True)
        page.goto("/educator/profile")
        new_password = f"changed-{_tag()}"
        page.get_by_label("Current password").fill(DEMO_PASSWORD)
        page.get_by_label("New password").fill(new_password)
        page.get_by_role("button", name="Change Password").click()
        expect(page.get_by_text("Password changed").first).to_be_visible()
        expect(page.get_by_label("Current password")).to_have_value("")
        # Change it back so other journeys can log in with the demo password.
        page.get_by_label("Current password").fill(new_password)
        page.get_by_label("New password").fill(DEMO_PASSWORD)
        page.get_by_role("button", name="Change Password").click()
        expect(page.get_by_text("Password changed").first).to_be_visible()
        expect(page.get_by_label("Current password")).to_have_value("")
    finally:
        ctx.close()
