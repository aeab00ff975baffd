import { describe, expect, it } from "vitest";
import { initials } from "./initials";

describe("initials", () => {
  it.each([
    [["Ada Lovelace"], "AL"],
    [["ada"], "A"],
    [["Mary Jane Watson"], "MJ"],
    [["  grace   hopper  "], "GH"],
    [["Ada", "Lovelace"], "AL"],
    [["", "Lovelace"], "L"],
    [[null, undefined], ""],
    [[""], ""],
  ])("%j -> %j", (parts, expected) => {
    expect(initials(...parts)).toBe(expected);
  });

  it("never returns more than two letters", () => {
    expect(initials("a b c d e").length).toBe(2);
  });
});
