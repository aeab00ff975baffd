import { describe, expect, it } from "vitest";
import { relativeAge } from "./relativeAge";

const now = new Date("2026-11-22T12:00:00Z");
const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString();

describe("relativeAge", () => {
  it.each([
    [ago(0), "0s ago"],
    [ago(1), "1s ago"],
    [ago(59), "59s ago"],
    [ago(60), "1m ago"],
    [ago(119), "1m ago"],
    [ago(3599), "59m ago"],
    [ago(3600), "1h ago"],
    [ago(86399), "23h ago"],
    [ago(86400), "1d ago"],
    [ago(86400 * 45), "45d ago"],
  ])("%s -> %s", (input, expected) => {
    expect(relativeAge(input, now)).toBe(expected);
  });

  it.each([
    [null],
    [undefined],
    [""],
    ["not a date"],
    [ago(-30)],
  ])("returns Just now for %s", (input) => {
    expect(relativeAge(input, now)).toBe("Just now");
  });

  it("accepts Date objects and epoch milliseconds", () => {
    expect(relativeAge(new Date(now.getTime() - 120_000), now)).toBe("2m ago");
    expect(relativeAge(now.getTime() - 7_200_000, now)).toBe("2h ago");
  });
});
