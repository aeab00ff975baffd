/** Up to two upper-case initials from a display name ("Ada Lovelace" -> "AL"). */
export function initials(...parts: Array<string | null | undefined>): string {
  const words = parts
    .filter((p): p is string => typeof p === "string")
    .flatMap((p) => p.trim().split(/\s+/))
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join("");
}
