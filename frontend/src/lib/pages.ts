/** Inserts `item` at position `index` of page `pageIndex` (copying only what changes). */
export function insertAt<T, P extends { items: T[] }>(pages: readonly P[], pageIndex: number, index: number, item: T): P[] {
  return pages.map((page, p) => {
    if (p !== pageIndex) return page;
    const items = [...page.items];
    items.splice(index, 0, item);
    return { ...page, items };
  });
}
