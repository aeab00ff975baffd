/**
 * Where each level's tag goes on the price chart: at its line's height, moved apart just enough that no two tags
 * overlap and none leaves the pane. The tags sit inside the pane, so none can cover a label of the price scale.
 */
export function spreadTags(ys: readonly number[], tagHeight: number, paneHeight: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  const top = order.map(({ y }) => y - tagHeight / 2);
  // Downward pass: each tag starts at least one tag below the previous one.
  for (let k = 0; k < top.length; k++) {
    const floor = k === 0 ? 0 : top[k - 1]! + tagHeight;
    top[k] = Math.max(top[k]!, floor);
  }
  // Upward pass: nothing below the pane's bottom, pushing the ones above up as needed (and never above 0 while
  // there is room for all of them).
  for (let k = top.length - 1; k >= 0; k--) {
    const ceiling = k === top.length - 1 ? paneHeight - tagHeight : top[k + 1]! - tagHeight;
    top[k] = Math.max(0, Math.min(top[k]!, ceiling));
  }
  const out = new Array<number>(ys.length);
  order.forEach(({ i }, k) => (out[i] = top[k]!));
  return out;
}
