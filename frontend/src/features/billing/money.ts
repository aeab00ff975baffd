/** A price in a currency's smallest unit as people read it ("$29.00 / month"), in the browser's locale. */
export function formatPrice(unitAmount: number, currency: string, interval?: "month" | "year"): string {
  const code = currency.toUpperCase();
  let text: string;
  try {
    const format = new Intl.NumberFormat(undefined, { style: "currency", currency: code });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    text = format.format(unitAmount / 10 ** digits);
  } catch {
    text = `${(unitAmount / 100).toFixed(2)} ${code}`;
  }
  return interval ? `${text} / ${interval}` : text;
}

/** "49.00" typed by an admin as the smallest unit Stripe counts in (4900); null when it is not a price. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim().replace(",", ".");
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(trimmed)) return null;
  return Math.round(Number(trimmed) * 100);
}
