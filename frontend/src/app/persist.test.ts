import { beforeEach, describe, expect, it, vi } from "vitest";

const get = vi.fn();
vi.mock("idb-keyval", () => ({ get: (...args: unknown[]) => get(...args), set: vi.fn(), del: vi.fn() }));

const { createIdbPersister } = await import("./persist");

describe("createIdbPersister", () => {
  beforeEach(() => get.mockReset());

  it("restores from the read started at startup, and reads again afterwards", async () => {
    get.mockResolvedValueOnce("kept").mockResolvedValueOnce("later");
    const persister = createIdbPersister("key");
    persister.startRestore();
    expect(get).toHaveBeenCalledTimes(1);
    await expect(persister.restoreClient()).resolves.toBe("kept");
    await expect(persister.restoreClient()).resolves.toBe("later");
    expect(get).toHaveBeenCalledTimes(2);
  });

  it("hands a failed early read to the restore, which the provider answers by discarding the cache", async () => {
    get.mockRejectedValueOnce(new Error("blocked"));
    const persister = createIdbPersister("key");
    persister.startRestore();
    await expect(persister.restoreClient()).rejects.toThrow("blocked");
  });
});
