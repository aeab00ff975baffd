import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FollowersLine } from "./Figures";

describe("FollowersLine", () => {
  it("counts the members who followed and gives their own average R once there are five", () => {
    const { unmount } = render(<FollowersLine record={{ followersCount: 7, followersAverageR: -0.42 }} />);
    expect(screen.getByText(/Followed by 7 members/)).toHaveTextContent("Followed by 7 members · their own average -0.42 R");
    unmount();
    render(<FollowersLine record={{ followersCount: 3, followersAverageR: null }} />);
    expect(screen.getByText(/Followed by 3 members/)).not.toHaveTextContent("average");
  });

  it("says nothing without followers", () => {
    const { container } = render(<FollowersLine record={{ followersCount: 0, followersAverageR: null }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
