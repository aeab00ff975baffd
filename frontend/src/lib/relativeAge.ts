/**
 * Short relative age of a date (spec §9): under 60 s "Ns ago", under an hour
 * "Nm ago", under a day "Nh ago", otherwise "Nd ago". Missing, invalid or
 * future dates read "Just now".
 */
export function relativeAge(value: string | number | Date | null | undefined, now: Date = new Date()): string {
  if (value === null || value === undefined || value === "") return "Just now";
  const date = value instanceof Date ? value : new Date(value);
  const time = date.getTime();
  if (Number.isNaN(time)) return "Just now";
  const seconds = Math.floor((now.getTime() - time) / 1000);
  if (seconds < 0) return "Just now";
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86400)}d ago`;
}
