/** Parses a price level written as free text ("1.0850", "42,000", " 7 ") into a number, or null. */
export function parseLevel(value: string | null | undefined): number | null {
  if (typeof value !== "string") return null;
  const text = value.trim().replace(/,/g, "");
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * Reward-to-risk ratio of an idea: risk is the distance from entry 1 to the invalidation level,
 * reward the distance from entry 1 to exit 1. Null when a level is not a number or the risk is zero.
 */
export function rewardToRisk(
  entry1: string | null | undefined,
  invalidation: string | null | undefined,
  exit1: string | null | undefined,
): number | null {
  const entry = parseLevel(entry1);
  const stop = parseLevel(invalidation);
  const target = parseLevel(exit1);
  if (entry === null || stop === null || target === null) return null;
  const risk = Math.abs(entry - stop);
  if (risk === 0) return null;
  return Math.abs(target - entry) / risk;
}

/** "R:R 1:2.5" (at most two decimals), or null when the ratio cannot be computed. */
export function formatRewardToRisk(
  entry1: string | null | undefined,
  invalidation: string | null | undefined,
  exit1: string | null | undefined,
): string | null {
  const ratio = rewardToRisk(entry1, invalidation, exit1);
  if (ratio === null) return null;
  const rounded = Math.round(ratio * 100) / 100;
  return `R:R 1:${rounded}`;
}
