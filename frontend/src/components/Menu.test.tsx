import { fireEvent, render, screen } from "@testing-library/react";
import { MessageSquare } from "lucide-react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Menu } from "./Menu";

function renderMenu() {
  render(
    <MemoryRouter>
      <Menu label="Menu" icon={<span />} entries={[{ kind: "link", label: "Chat", to: "/educator/chat", icon: MessageSquare }]} />
    </MemoryRouter>,
  );
  return screen.getByRole("button", { name: "Menu" });
}

describe("Menu", () => {
  it("opens on the press, even when the click never reaches the stand-in (Radix replaced it in between)", async () => {
    const standIn = renderMenu();
    fireEvent.pointerEnter(standIn);
    fireEvent.pointerDown(standIn, { button: 0 });
    expect(await screen.findByRole("menuitem", { name: "Chat" })).toBeInTheDocument();
  });

  it("does not open on a secondary button's press", async () => {
    const standIn = renderMenu();
    fireEvent.pointerDown(standIn, { button: 2 });
    await screen.findByRole("button", { name: "Menu" });
    expect(screen.queryByRole("menuitem")).toBeNull();
  });

  it("opens from the keyboard", async () => {
    const standIn = renderMenu();
    standIn.focus();
    fireEvent.click(standIn);
    expect(await screen.findByRole("menuitem", { name: "Chat" })).toBeInTheDocument();
  });
});
