/**
 * The time shown on a chat message: 'Now' within the last minute (or for a missing or future
 * date), the clock time today, otherwise the date and time.
 */
export function chatTime(value: string | Date | null | undefined, now: Date = new Date(), locale?: string): string {
  if (!value) return "Now";
  const date = value instanceof Date ? value : new Date(value);
  const ms = date.getTime();
  if (Number.isNaN(ms)) return "Now";
  const age = now.getTime() - ms;
  if (age < 60_000) return "Now";
  const time = date.toLocaleTimeString(locale, { hour: "numeric", minute: "2-digit" });
  const sameDay = date.toDateString() === now.toDateString();
  if (sameDay) return time;
  const sameYear = date.getFullYear() === now.getFullYear();
  const day = date.toLocaleDateString(locale, sameYear ? { month: "short", day: "numeric" } : { year: "numeric", month: "short", day: "numeric" });
  return `${day}, ${time}`;
}
