import type { JournalEntry } from "./types";

const COLUMNS: Array<[string, (e: JournalEntry) => string | number | null]> = [
  ["Taken at", (e) => e.createdAt],
  ["Pair", (e) => e.pair],
  ["Direction", (e) => e.orderType],
  ["Educator", (e) => e.educatorName],
  ["Entry 1", (e) => e.entry1],
  ["Entry 2", (e) => e.entry2],
  ["Invalidation", (e) => e.invalidationLevel],
  ["Exit 1", (e) => e.exit1],
  ["Exit 2", (e) => e.exit2],
  ["Exit 3", (e) => e.exit3],
  ["Fill price", (e) => e.fillPrice],
  ["Size", (e) => e.size],
  ["Exit price", (e) => e.exitPrice],
  ["Closed at", (e) => e.closedAt],
  ["Result (R)", (e) => e.rMultiple],
  ["P/L", (e) => e.pnl],
  ["Currency", (e) => e.accountCurrency],
  ["Educator status", (e) => e.ideaStatus],
  ["Note", (e) => e.note],
];

/** A cell as CSV: quoted when needed; a leading =, +, - or @ is defused so spreadsheets do not run it. */
function cell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function journalCsv(entries: readonly JournalEntry[]): string {
  const rows = [COLUMNS.map(([name]) => name), ...entries.map((e) => COLUMNS.map(([, get]) => cell(get(e))))];
  return rows.map((r) => r.join(",")).join("\r\n") + "\r\n";
}
