"""Admin journeys: invite a customer who accepts and lands on the market chooser; disabling them sends their
open tab to /login; the admin portal refuses customers."""

import re
import uuid

from playwright.sync_api import Browser, Page, expect

from e2e.conftest import CUSTOMER, DEMO_PASSWORD, new_context

ADMIN = "admin@example.com"


def admin_login(page: Page) -> None:
    page.goto("/admin/login")
    expect(page.get_by_role("heading", name="Admin Login")).to_be_visible()
    page.get_by_label("Email").fill(ADMIN)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign In to Admin").click()
    expect(page).to_have_url(re.compile(r"/admin$"))
    expect(page.get_by_role("heading", name="Admin", exact=True)).to_be_visible()


def test_customers_cannot_use_the_admin_portal(page: Page) -> None:
    page.goto("/admin/login")
    page.get_by_label("Email").fill(CUSTOMER)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign In to Admin").click()
    expect(page.get_by_role("alert")).to_have_text("Access denied: Only administrators can sign in here.")
    expect(page).to_have_url(re.compile(r"/admin/login$"))


def test_invited_customer_accepts_and_is_sent_to_login_when_disabled(browser: Browser, base_url: str) -> None:
    email = f"ann-{uuid.uuid4().hex[:8]}@example.com"
    admin_ctx = new_context(browser, base_url)
    customer_ctx = new_context(browser, base_url, {"width": 390, "height": 844})
    try:
        admin = admin_ctx.new_page()
        admin_login(admin)
        admin.get_by_label("E-mail", exact=True).fill(email)
        admin.get_by_label("First name").fill("Ann")
        admin.get_by_label("Last name").fill("Lee")
        admin.get_by_role("button", name="Create invite link").click()
        link = admin.get_by_role("textbox", name="Invitation link")
        expect(link).to_have_value(re.compile(r"/invite/[\w-]+$"))
        invite_url = link.input_value()

        members = admin.get_by_role("table", name="Members")
        row = members.get_by_role("row").filter(has_text=email)
        expect(row).to_contain_text("invited")

        customer = customer_ctx.new_page()
        customer.goto(invite_url)
        expect(customer.get_by_text(email)).to_be_visible()
        customer.get_by_label("New password").fill("ann-chosen-pass-1")
        customer.get_by_label("Repeat password").fill("ann-chosen-pass-2")
        customer.get_by_role("button", name="Create My Account").click()
        expect(customer.get_by_role("alert")).to_have_text("The passwords do not match")
        customer.get_by_label("Repeat password").fill("ann-chosen-pass-1")
        customer.get_by_role("button", name="Create My Account").click()
        expect(customer).to_have_url(re.compile(r"/customer/dashboard$"))
        expect(customer.get_by_role("heading", name="Choose Your Market")).to_be_visible()

        # The link works once.
        other = customer_ctx.new_page()
        other.goto(invite_url)
        expect(other.get_by_role("alert")).to_contain_text("has expired or was already used")
        other.close()

        admin.get_by_label("Search by e-mail or name").fill(email)
        expect(row).to_contain_text("active")
        row.get_by_role("button", name=f"Disable {email}").click()
        confirm = admin.get_by_role("alertdialog", name=f"Disable {email}?")
        expect(confirm).to_contain_text("Their sessions end now")
        confirm.get_by_role("button", name="Disable").click()
        expect(row).to_contain_text("disabled")
        # Their open tab learns at once (the server ends the event stream) and goes to /login.
        expect(customer).to_have_url(re.compile(r"/login$"), timeout=15_000)
        # With the right password they learn why; a wrong one reads as usual.
        customer.get_by_label("Email").fill(email)
        customer.get_by_label("Password").fill("ann-chosen-pass-1")
        customer.get_by_role("button", name="Sign In").click()
        expect(customer.get_by_role("alert")).to_contain_text(
            "This account is disabled. Contact support at support@example.com."
        )
        expect(customer.get_by_role("link", name="support@example.com")).to_have_attribute(
            "href", "mailto:support@example.com"
        )
        customer.get_by_label("Password").fill("a-wrong-guess-1")
        customer.get_by_role("button", name="Sign In").click()
        expect(customer.get_by_role("alert")).to_contain_text("Invalid email or password")

        admin.get_by_role("button", name=f"Enable {email}").click()
        expect(row).to_contain_text("active")
        # The audit log has its own tab and reads as sentences.
        admin.get_by_role("tab", name="Audit log").click()
        audit = admin.get_by_role("list", name="Audit entries")
        expect(audit).to_contain_text(f"Admin disabled {email}")
        expect(audit).to_contain_text(f"Admin invited {email}")
        expect(audit).not_to_contain_text("member.disabled")
    finally:
        admin_ctx.close()
        customer_ctx.close()


def test_password_reset_link_lets_the_member_choose_a_new_password(browser: Browser, base_url: str) -> None:
    admin_ctx = new_context(browser, base_url)
    member_ctx = new_context(browser, base_url)
    try:
        admin = admin_ctx.new_page()
        admin_login(admin)
        admin.get_by_label("Search by e-mail or name").fill("educator7@")
        admin.get_by_role("button", name="Reset password of educator7@example.com").click()
        dialog = admin.get_by_role("dialog", name="Password reset link")
        link = dialog.get_by_role("textbox", name="Reset link")
        expect(link).to_have_value(re.compile(r"/reset/[\w-]+$"))
        member = member_ctx.new_page()
        member.goto(link.input_value())
        member.get_by_label("New password").fill(DEMO_PASSWORD)  # keep the demo password for other journeys
        member.get_by_label("Repeat password").fill(DEMO_PASSWORD)
        member.get_by_role("button", name="Set New Password").click()
        expect(member).to_have_url(re.compile(r"/educator/dashboard$"))
    finally:
        admin_ctx.close()
        member_ctx.close()
