import type { Schemas } from "../api/client";

export type IdeaStatus = Schemas["IdeaOut"]["status"];

/** An idea's status in the spec's words ("mark ideas successful or unsuccessful"), on every screen. */
export const STATUS_LABEL: Record<IdeaStatus, string> = {
  active: "Active",
  pending: "Pending",
  successful: "Successful",
  unsuccessful: "Unsuccessful",
  invalidated: "INVALID",
};

/** Bullish for BUY, Bearish for SELL. */
export function directionLabel(orderType: string): "Bullish" | "Bearish" {
  return orderType.toUpperCase() === "SELL" ? "Bearish" : "Bullish";
}

/** The note on an invalidated idea: price broke below (buy) or above (sell) the invalidation level. */
export function invalidationNote(orderType: string, level: string): string {
  const side = orderType.toUpperCase() === "SELL" ? "above" : "below";
  return `Price broke ${side} the invalidation level (${level}).`;
}

/** 'Trade idea marked successful and moved to Leverage Ideas for Forex'. */
export function statusToast(status: "successful" | "unsuccessful", ideaType: string, marketType: string): string {
  return `Trade idea marked ${status} and moved to ${ideaType} Ideas for ${marketType}`;
}

export type StatusChange = "successful" | "unsuccessful" | "invalidated" | "pending";

/**
 * The status changes an educator can make from `status`, in the order the controls show them: never the status the
 * idea already has; Invalid only while the idea is open (a result is reset first); Reset only when there is a
 * result or an INVALID mark to take back.
 */
export function possibleChanges(status: IdeaStatus): StatusChange[] {
  const open = status === "active" || status === "pending";
  const changes: StatusChange[] = [];
  if (status !== "successful") changes.push("successful");
  if (status !== "unsuccessful") changes.push("unsuccessful");
  if (open) changes.push("invalidated");
  else changes.push("pending");
  return changes;
}
