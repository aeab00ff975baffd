import type { Grant } from "./types";

/** "12 Dec": the day a date falls on, as the past_due banner names it (in the member's own time zone). */
export function shortDay(value: string): string {
  return new Date(value).toLocaleDateString("en-GB", { day: "numeric", month: "short" });
}

/** What a grant's dates mean for the member: the trial's end, the renewal, or the end of access. */
export function grantWhen(grant: Grant): string | null {
  if (grant.kind === "complimentary") return grant.endsAt ? `Until ${shortDay(grant.endsAt)}` : "No end date";
  if (grant.status === "trialing" && grant.trialEnd) return `Trial ends ${shortDay(grant.trialEnd)}`;
  if (!grant.currentPeriodEnd) return null;
  if (grant.cancelAtPeriodEnd) return `Ends ${shortDay(grant.currentPeriodEnd)}`;
  if (grant.status === "active") return `Renews ${shortDay(grant.currentPeriodEnd)}`;
  return null;
}

/** The banner of a failed payment, with the last day access holds: the spec's words. */
export function paymentFailedText(grant: Grant): string | null {
  if (grant.status !== "past_due" || !grant.graceEndsAt || !grant.isOpen) return null;
  return `Your payment failed. Update your card by ${shortDay(grant.graceEndsAt)} to keep access`;
}
