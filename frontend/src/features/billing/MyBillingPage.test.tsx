import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../../test/render";
import { grantWhen, paymentFailedText } from "./billingText";
import type { Grant } from "./types";

const config = { appName: "Trade Ideas", channelUrl: "https://t.example/channel", educatorSlugs: [] };
const user = { id: 8, role: "customer", firstName: "Casey", lastName: "C", email: "c@example.com", specialty: null, slug: null, displayName: "Casey C" };

function grant(over: Partial<Grant>): Grant {
  return {
    id: 1, userId: 8, email: "c@example.com", kind: "subscription", status: "active", educatorId: 1, planId: 3,
    planName: "Alex Morgan monthly", endsAt: null, trialEnd: null, currentPeriodEnd: "2026-12-20T12:00:00Z",
    cancelAtPeriodEnd: false, graceEndsAt: null, isOpen: true, revokedAt: null, createdAt: "2026-11-01T00:00:00Z",
    ...over,
  };
}

describe("billing texts", () => {
  it("name the trial's end, the renewal, the end and the day a failed payment must be fixed by", () => {
    expect(grantWhen(grant({ status: "trialing", trialEnd: "2026-12-05T12:00:00Z" }))).toBe("Trial ends 5 Dec");
    expect(grantWhen(grant({}))).toBe("Renews 20 Dec");
    expect(grantWhen(grant({ cancelAtPeriodEnd: true }))).toBe("Ends 20 Dec");
    expect(paymentFailedText(grant({ status: "past_due", graceEndsAt: "2026-12-12T12:00:00Z" }))).toBe(
      "Your payment failed. Update your card by 12 Dec to keep access",
    );
    expect(paymentFailedText(grant({ status: "past_due", graceEndsAt: "2026-12-12T12:00:00Z", isOpen: false }))).toBeNull();
  });
});

describe("MyBillingPage", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the banner of a failed payment and opens Stripe's portal from Manage billing", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    const past = grant({ status: "past_due", graceEndsAt: "2026-12-12T12:00:00Z" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) => {
        const req = input instanceof Request ? input : new Request(String(input));
        const key = `${req.method} ${new URL(req.url, "http://localhost").pathname}`;
        if (key === "GET /api/config") return jsonResponse(config);
        if (key === "GET /api/auth/user") return jsonResponse(user);
        if (key === "GET /api/me/billing") return jsonResponse({ paymentsEnabled: true, grants: [past] });
        if (key === "POST /api/billing/portal") return jsonResponse({ url: "https://billing.stripe.com/p/session/x" });
        return jsonResponse({ message: "Not Found", code: "not_found" }, 404);
      }),
    );
    localStorage.setItem("signedIn", "1");
    renderApp("/customer/billing");
    expect(await screen.findByRole("alert")).toHaveTextContent("Your payment failed. Update your card by 12 Dec to keep access");
    expect(screen.getByText("Payment failed")).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Manage billing" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://billing.stripe.com/p/session/x"));
  });
});
