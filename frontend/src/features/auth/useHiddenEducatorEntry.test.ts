import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useHiddenEducatorEntry } from "./useHiddenEducatorEntry";

describe("useHiddenEducatorEntry", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = () => {
    const onUnlock = vi.fn();
    const { result } = renderHook(() => useHiddenEducatorEntry(onUnlock));
    const click = (times = 1) => {
      for (let i = 0; i < times; i += 1) act(() => result.current());
    };
    return { onUnlock, click };
  };

  it("unlocks on the fifth click within 3 seconds", () => {
    const { onUnlock, click } = setup();
    click(4);
    expect(onUnlock).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(2900));
    click(1);
    expect(onUnlock).toHaveBeenCalledTimes(1);
  });

  it("resets 3 seconds after the first click", () => {
    const { onUnlock, click } = setup();
    click(4);
    act(() => vi.advanceTimersByTime(3000));
    click(1);
    expect(onUnlock).not.toHaveBeenCalled();
    click(3);
    expect(onUnlock).not.toHaveBeenCalled();
    click(1);
    expect(onUnlock).toHaveBeenCalledTimes(1);
  });

  it("resets after reaching five clicks", () => {
    const { onUnlock, click } = setup();
    click(5);
    expect(onUnlock).toHaveBeenCalledTimes(1);
    click(4);
    expect(onUnlock).toHaveBeenCalledTimes(1);
    click(1);
    expect(onUnlock).toHaveBeenCalledTimes(2);
  });

  it("does not unlock on slow clicks", () => {
    const { onUnlock, click } = setup();
    for (let i = 0; i < 10; i += 1) {
      click(1);
      act(() => vi.advanceTimersByTime(1000));
    }
    expect(onUnlock).not.toHaveBeenCalled();
  });
});
