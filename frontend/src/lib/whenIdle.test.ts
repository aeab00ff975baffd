import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

describe("whenIdle", () => {
  let idle: Array<() => void>;

  beforeEach(() => {
    vi.resetModules(); // the queue is module state
    idle = [];
    vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
  });
  afterEach(() => vi.unstubAllGlobals());

  it("runs one waiting callback per idle task, in order", async () => {
    const { whenIdle } = await import("./whenIdle");
    const ran: string[] = [];
    whenIdle(() => ran.push("a"));
    whenIdle(() => ran.push("b"));
    expect(idle).toHaveLength(1);
    idle.shift()!();
    expect(ran).toEqual(["a"]);
    expect(idle).toHaveLength(1);
    idle.shift()!();
    expect(ran).toEqual(["a", "b"]);
    expect(idle).toHaveLength(0);
  });

  it("skips a cancelled callback", async () => {
    const { whenIdle } = await import("./whenIdle");
    const ran: string[] = [];
    const cancel = whenIdle(() => ran.push("a"));
    whenIdle(() => ran.push("b"));
    cancel();
    idle.shift()!();
    expect(ran).toEqual(["b"]);
  });
});
