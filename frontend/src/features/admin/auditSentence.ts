import type { AuditPage } from "./types";

type Entry = Pick<AuditPage["items"][number], "action" | "actorEmail" | "targetEmail" | "detail">;

/** What an audit entry says: one sentence ("Admin disabled follower5@example.com") and, if any, a note below it. */
export type AuditSentence = { sentence: string; note: string };

/** Actions only an admin can take: the sentence names the role, the note the admin's e-mail. */
const BY_ADMIN: Record<string, (target: string) => string> = {
  "member.disabled": (t) => `disabled ${t}`,
  "member.enabled": (t) => `enabled ${t}`,
  "member.signed_out": (t) => `signed ${t} out everywhere`,
  "member.password_reset": (t) => `issued a password reset link for ${t}`,
  "invite.created": (t) => `invited ${t}`,
};
/** Details that only repeat the sentence. */
const REPEATS = new Set(["Signed out everywhere", "Issued a password reset link"]);

export function auditSentence(entry: Entry): AuditSentence {
  const target = entry.targetEmail || "a member";
  const actor = entry.actorEmail || "The system";
  const detail = entry.detail && !REPEATS.has(entry.detail) && !entry.detail.startsWith("Invited ") ? entry.detail : "";
  const admin = BY_ADMIN[entry.action];
  if (admin) {
    const note = [entry.actorEmail, detail].filter(Boolean).join(" · ");
    return { sentence: `Admin ${admin(target)}`, note };
  }
  switch (entry.action) {
    case "invite.accepted":
      return { sentence: `${target} accepted the invitation`, note: detail };
    case "password_reset.used":
      return { sentence: `${target} set a new password with a reset link`, note: detail };
    case "login.lockout":
      return { sentence: entry.targetEmail ? `Sign-in was locked for ${entry.targetEmail} after repeated failures` : "Sign-in was locked for a client after repeated failures", note: detail };
    case "idea.deleted":
      return { sentence: `${actor} deleted a trade idea`, note: detail };
    default:
      return { sentence: [actor, entry.action.replace(/[._]/g, " "), entry.targetEmail].filter(Boolean).join(" "), note: detail };
  }
}
