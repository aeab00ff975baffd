import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { accountWasDisabled, forgetAccountDisabled } from "../features/auth/accountDisabled";
import { currentUserQueryKey } from "../features/auth/useCurrentUser";
import { createQueryClient } from "./queryClient";

afterEach(() => forgetAccountDisabled());

describe("a disabled member's open session", () => {
  it("ends on any 401 saying the account was disabled, and the tab remembers why", async () => {
    const client = createQueryClient();
    client.setQueryData(currentUserQueryKey, { id: 5, role: "customer" } as never);
    await client
      .fetchQuery({ queryKey: ["ideas"], queryFn: () => Promise.reject(new ApiError("This account was disabled.", 401, "account_disabled")), retry: false })
      .catch(() => undefined);
    expect(client.getQueryData(currentUserQueryKey)).toBeNull();
    expect(accountWasDisabled()).toBe(true);
  });

  it("keeps the session on other errors", async () => {
    const client = createQueryClient();
    client.setQueryData(currentUserQueryKey, { id: 5, role: "customer" } as never);
    await client.fetchQuery({ queryKey: ["x"], queryFn: () => Promise.reject(new ApiError("Nope", 403, "forbidden")), retry: false }).catch(() => undefined);
    expect(client.getQueryData(currentUserQueryKey)).not.toBeNull();
    expect(accountWasDisabled()).toBe(false);
  });
});
