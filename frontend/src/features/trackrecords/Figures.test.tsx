import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FollowersLine, PriceCheckedSummary } from "./Figures";

describe("FollowersLine", () => {
  it("counts the members who followed and gives their own median R once there are five", () => {
    const { unmount } = render(<FollowersLine record={{ followersCount: 7, followersAverageR: -0.42 }} />);
    expect(screen.getByText(/Followed by 7 members/)).toHaveTextContent("Followed by 7 members · their own median −0.42 R");
    unmount();
    render(<FollowersLine record={{ followersCount: 3, followersAverageR: null }} />);
    expect(screen.getByText(/Followed by 3 members/)).not.toHaveTextContent("median");
  });

  it("says nothing without followers", () => {
    const { container } = render(<FollowersLine record={{ followersCount: 0, followersAverageR: null }} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe("PriceCheckedSummary", () => {
  it("shows the price-checked total R and win rate beside the educator's own, and the agreement rate", () => {
    render(
      <PriceCheckedSummary
        record={{
          totalR: 35.21,
          winRate: 0.6,
          agreementRate: 0.985,
          verified: { settled: 9, wins: 4, losses: 5, winRate: 0.4444, totalR: 2.5, averageR: 0.28, unverifiable: 13 },
        }}
      />,
    );
    const summary = screen.getByLabelText("Educator's calls and price-checked");
    expect(summary).toHaveTextContent("Total R, price-checked+2.50 Reducator's +35.21 R");
    expect(summary).toHaveTextContent("Agreement98.5 %9 settled");
  });
});
