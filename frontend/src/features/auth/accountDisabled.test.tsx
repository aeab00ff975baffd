import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { forgetAccountDisabled, rememberAccountDisabled } from "./accountDisabled";
import { LoginForm } from "./LoginForm";
import { appConfigQueryKey } from "./useAppConfig";

function renderForm(contact: string) {
  const client = new QueryClient();
  client.setQueryData(appConfigQueryKey, { appName: "Trade Ideas", channelUrl: "", supportContact: contact, educatorSlugs: [] });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <LoginForm role="customer" submitLabel="Sign In" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => forgetAccountDisabled());

describe("a disabled member's session", () => {
  it("is told on the login page, with the contact", () => {
    rememberAccountDisabled();
    renderForm("support@example.com");
    const notice = screen.getByRole("alert");
    expect(notice).toHaveTextContent("This account was disabled. Contact support at support@example.com.");
    expect(screen.getByRole("link", { name: "support@example.com" })).toHaveAttribute("href", "mailto:support@example.com");
  });

  it("names a web address as a link too, and says nothing to a member who was not disabled", () => {
    renderForm("https://help.example.com");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    forgetAccountDisabled();
    sessionStorage.setItem("auth.accountDisabled", "1");
    renderForm("https://help.example.com");
    expect(screen.getByRole("link", { name: "https://help.example.com" })).toHaveAttribute("href", "https://help.example.com");
  });
});
