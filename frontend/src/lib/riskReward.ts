/** Parses a price level written as free text ("1.0850", "42,000", " 7 ") into a number, or null. */
export function parseLevel(value: string | null | undefined): number | null {
  if (typeof value !== "string") return null;
  const text = value.trim().replace(/,/g, "");
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * The one R rule for an idea with several entries (decision 0121), the server's too (`planned_entry` in
 * `ideas/outcomes.py`): R is measured from the planned entry — entry 1, or the average of entry 1 and entry 2 when
 * both are given — to the invalidation level. The R:R badge, the position-size table, the recorded result and the
 * price check all use it.
 */
export const R_RULE_SEVERAL_ENTRIES = "R is measured from the average of Entry 1 and Entry 2";

export type EntryLevels = { entry1: string | null | undefined; entry2?: string | null | undefined };

/** Entry 1, or the average of entry 1 and entry 2 when both are given; null when one of them is not a number. */
export function plannedEntry({ entry1, entry2 }: EntryLevels): number | null {
  const first = parseLevel(entry1);
  if (first === null) return null;
  if (entry2 === null || entry2 === undefined || entry2.trim() === "") return first;
  const second = parseLevel(entry2);
  return second === null ? null : (first + second) / 2;
}

export type RiskRewardLevels = EntryLevels & { invalidationLevel: string | null | undefined; exit1: string | null | undefined };

/**
 * Reward-to-risk of an idea at exit 1: the distance from the planned entry to exit 1 over the distance from the
 * planned entry to the invalidation level. Null when a level is not a number or the risk is zero.
 */
export function rewardToRisk(levels: RiskRewardLevels): number | null {
  const entry = plannedEntry(levels);
  const stop = parseLevel(levels.invalidationLevel);
  const target = parseLevel(levels.exit1);
  if (entry === null || stop === null || target === null) return null;
  const risk = Math.abs(entry - stop);
  if (risk === 0) return null;
  return Math.abs(target - entry) / risk;
}

/** "R:R 1:2.5" (at most two decimals, as the R figures round), or null when the ratio cannot be computed. */
export function formatRewardToRisk(levels: RiskRewardLevels): string | null {
  const ratio = rewardToRisk(levels);
  if (ratio === null) return null;
  const rounded = Math.round(ratio * 100) / 100;
  return `R:R 1:${rounded}`;
}
