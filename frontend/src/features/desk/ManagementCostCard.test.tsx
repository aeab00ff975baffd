import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ManagementCostCard } from "./ManagementCostCard";
import { managementSentence } from "./managementCost";

// Shown figures use a non-breaking space before "R" and a true minus sign (lib/format.ts).
const plain = (text: string) => text.replace(/\u00a0/g, " ").replace(/\u2212/g, "-");

describe("what managing cost you", () => {
  it("says what the member took, what the idea made and the difference", () => {
    expect(plain(managementSentence(0.8, 2, 1.2))).toBe("You took +0.80 R; the idea made +2.00 R: managing cost you 1.20 R");
    expect(plain(managementSentence(1.5, 1, -0.5))).toBe("You took +1.50 R; the idea made +1.00 R: managing gained you 0.50 R");
    expect(plain(managementSentence(-1, -1, 0))).toBe("You took -1.00 R; the idea made -1.00 R: managing cost you 0.00 R");
  });

  it("shows the average per trade, its 95 % interval, the count and the setups", () => {
    render(
      <ManagementCostCard
        cost={{
          count: 3,
          averageCostR: 0.23,
          interval95: [-1.94, 2.4],
          bySetup: [
            { setupId: 4, setupName: "Breakout retest", educatorName: "Alex Morgan", count: 2, averageCostR: 0.6 },
            { setupId: 9, setupName: "Breakout retest", educatorName: "Sofia Reyes", count: 1, averageCostR: 0.1 },
            { setupId: null, setupName: null, educatorName: null, count: 1, averageCostR: -0.5 },
          ],
        }}
      />,
    );
    expect(screen.getByRole("heading", { name: "What managing cost you" })).toBeInTheDocument();
    expect(screen.getByText("Average cost per trade").nextSibling).toHaveTextContent("+0.23 R");
    expect(plain(screen.getByText("95 % interval").nextSibling?.textContent ?? "")).toBe("-1.94 R to +2.40 R");
    expect(screen.getByText(/Over 3 trades/)).toBeInTheDocument();
    const table = screen.getByRole("table", { name: "What managing cost you" });
    // Two educators' setups of the same name: each row says whose it is.
    const breakout = within(table).getByRole("row", { name: /Breakout retest Alex Morgan/ });
    expect(within(table).getByRole("row", { name: /Breakout retest Sofia Reyes/ })).toHaveTextContent("+0.10");
    expect(within(breakout).getByRole("cell", { name: "2" })).toBeInTheDocument();
    expect(within(breakout).getByRole("cell", { name: "+0.60 R" })).toBeInTheDocument();
    const none = within(table).getByRole("row", { name: /No setup/ });
    expect(plain(within(none).getAllByRole("cell").at(1)?.textContent ?? "")).toBe("-0.50 R");
  });

  it("waits for a price-checked trade before showing a cost", () => {
    render(<ManagementCostCard cost={{ count: 0, averageCostR: null, interval95: null, bySetup: [] }} />);
    expect(screen.getByText(/once a trade you closed has a price-checked result/)).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });
});
