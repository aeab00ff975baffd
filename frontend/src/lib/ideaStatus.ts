import type { Schemas } from "../api/client";

export type IdeaStatus = Schemas["IdeaOut"]["status"];

/** Badge text of an idea's status. */
export const STATUS_LABEL: Record<IdeaStatus, string> = {
  active: "Active",
  pending: "Pending",
  successful: "Success",
  unsuccessful: "Failed",
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
