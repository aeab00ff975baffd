import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { BySetup } from "./BySetup";
import type { SetupRecord } from "./types";

const BREAKOUT: SetupRecord = {
  setupId: 4,
  name: "Breakout retest",
  description: "Old ceiling, new floor.",
  decided: 3,
  winRate: 0.6667,
  expectancyR: 1.33,
  expectancyInterval95: [-3.84, 6.5],
  sampleSizeNote: "3 decided ideas: too few to judge",
  priceChecked: { decided: 2, winRate: 0.5, expectancyR: 0.5, expectancyInterval95: [-18.56, 19.56], sampleSizeNote: "2 decided ideas: too few to judge" },
};

describe("BySetup", () => {
  it("shows each setup's figures as called and as price-checked, and its description one tap away", async () => {
    render(<BySetup setups={[BREAKOUT]} />);
    const table = screen.getByRole("table");
    const row = within(table).getAllByRole("row")[2]!;
    expect(row).toHaveTextContent("Breakout retest");
    expect(row).toHaveTextContent("66.7");
    expect(row).toHaveTextContent("+1.33");
    expect(row).toHaveTextContent("3 decided ideas: too few to judge");
    expect(row).toHaveTextContent("+0.50");
    expect(row).toHaveTextContent("2 decided ideas: too few to judge");
    await userEvent.setup().click(within(row).getByRole("button", { name: "About Breakout retest" }));
    const dialog = await screen.findByRole("dialog", { name: "Breakout retest" });
    expect(dialog).toHaveTextContent("Old ceiling, new floor.");
  });

  it("on phones, gives each setup a card with the called and price-checked figures as definition lists", async () => {
    render(<BySetup setups={[BREAKOUT]} />);
    const card = within(screen.getByRole("list", { name: "By setup" })).getByRole("listitem");
    // Non-breaking spaces between figure and unit read as spaces here.
    const figures = within(card).getAllByRole("definition").map((dd) => (dd.textContent ?? "").replace(/\s/g, " "));
    expect(figures).toEqual(["3", "66.7 %", "+1.33 R", "2", "50 %", "+0.50 R"]);
    expect(within(card).getAllByRole("term").map((dt) => dt.textContent)).toEqual(["Decided", "Win rate", "Expectancy", "Decided", "Win rate", "Expectancy"]);
    expect(card).toHaveTextContent("95 % interval");
    expect(card).toHaveTextContent("2 decided ideas: too few to judge");
    await userEvent.setup().click(within(card).getByRole("button", { name: "About Breakout retest" }));
    expect(await screen.findByRole("dialog", { name: "Breakout retest" })).toHaveTextContent("Old ceiling, new floor.");
  });

  it("shows nothing for an educator without setups", () => {
    const { container } = render(<BySetup setups={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
