import { describe, expect, it } from "vitest";
import { auditSentence } from "./auditSentence";

const entry = (action: string, over: Partial<{ actorEmail: string; targetEmail: string; detail: string }> = {}) => ({
  action, actorEmail: "admin@example.com", targetEmail: "follower5@example.com", detail: "", ...over,
});

describe("auditSentence", () => {
  it("reads an admin's action as a sentence, the admin's e-mail below", () => {
    expect(auditSentence(entry("member.disabled"))).toEqual({ sentence: "Admin disabled follower5@example.com", note: "admin@example.com" });
    expect(auditSentence(entry("member.disabled", { detail: "Revoked 1 unused link(s)" })).note).toBe("admin@example.com · Revoked 1 unused link(s)");
    expect(auditSentence(entry("member.enabled")).sentence).toBe("Admin enabled follower5@example.com");
    expect(auditSentence(entry("member.signed_out", { detail: "Signed out everywhere" }))).toEqual({
      sentence: "Admin signed follower5@example.com out everywhere",
      note: "admin@example.com",
    });
    expect(auditSentence(entry("invite.created", { detail: "Invited follower5@example.com" })).sentence).toBe("Admin invited follower5@example.com");
  });

  it("names members and the system for what they did", () => {
    expect(auditSentence(entry("invite.accepted", { actorEmail: "follower5@example.com" })).sentence).toBe("follower5@example.com accepted the invitation");
    expect(auditSentence(entry("login.lockout", { actorEmail: "", detail: "5 failures" }))).toEqual({
      sentence: "Sign-in was locked for follower5@example.com after repeated failures",
      note: "5 failures",
    });
    expect(auditSentence(entry("idea.deleted", { actorEmail: "educator1@example.com", targetEmail: "", detail: "Deleted trade idea #4 EUR/USD" }))).toEqual({
      sentence: "educator1@example.com deleted a trade idea",
      note: "Deleted trade idea #4 EUR/USD",
    });
  });

  it("never shows a raw action name", () => {
    expect(auditSentence(entry("member.disabled")).sentence).not.toContain("member.");
  });
});
