import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api } from "./client";
import { earliestPosition, forgetPositions, STREAM_POSITION_HEADER } from "./streamPosition";

function answer(position: string | null, status = 200): Response {
  const headers = new Headers({ "content-type": "application/json" });
  if (position !== null) headers.set(STREAM_POSITION_HEADER, position);
  return new Response(JSON.stringify(status === 200 ? {} : { message: "Not found", code: "not_found" }), { status, headers });
}

describe("the API client's stream positions", () => {
  beforeEach(() => forgetPositions());
  afterEach(() => vi.unstubAllGlobals());

  it("keeps the earliest X-Stream-Position of its answers, errors included, until they are forgotten", async () => {
    const answers = [answer("9007199254740993"), answer("120"), answer(null), answer("95", 404)];
    vi.stubGlobal("fetch", vi.fn(async () => answers.shift()!));
    for (let i = 0; i < 4; i++) await api.GET("/api/config");
    expect(earliestPosition()).toBe("95");
    forgetPositions();
    expect(earliestPosition()).toBeNull();
  });

  it("compares positions beyond JavaScript's exact integers as the server wrote them", async () => {
    const answers = [answer("9007199254740995"), answer("9007199254740993")];
    vi.stubGlobal("fetch", vi.fn(async () => answers.shift()!));
    await api.GET("/api/config");
    await api.GET("/api/config");
    expect(earliestPosition()).toBe("9007199254740993");
  });
});
