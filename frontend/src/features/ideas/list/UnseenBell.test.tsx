import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { UnseenBell } from "./UnseenBell";

describe("UnseenBell", () => {
  it("says the count in its name and on the badge", () => {
    render(<UnseenBell count={1} />);
    expect(screen.getByRole("img", { name: "1 new idea in all markets" })).toHaveTextContent("1");
  });

  it("stops at 99+ where the server stops counting", () => {
    render(<UnseenBell count={201} />);
    expect(screen.getByRole("img", { name: "99+ new ideas in all markets" })).toHaveTextContent("99+");
  });

  it("does not claim nothing is new while the counts load", () => {
    render(<UnseenBell count={undefined} />);
    expect(screen.getByRole("img", { name: "Counting new ideas in all markets" })).toHaveTextContent("");
  });

  it("says when the counts could not be loaded instead of counting forever", () => {
    render(<UnseenBell count={undefined} failed />);
    expect(screen.getByRole("img", { name: "New ideas could not be counted" })).toHaveTextContent("");
  });
});
