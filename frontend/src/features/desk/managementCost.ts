import { formatNumber, formatR } from "../../lib/format";

/** "You took +0.80 R; the idea made +2.00 R: managing cost you 1.20 R" (issue #42); a negative cost is a gain. */
export function managementSentence(ownR: number, checkedR: number, costR: number): string {
  const difference = formatNumber(Math.abs(costR));
  const what = costR < 0 && difference !== formatNumber(0) ? `managing gained you ${difference}\u00a0R` : `managing cost you ${difference}\u00a0R`;
  return `You took ${formatR(ownR)}; the idea made ${formatR(checkedR)}: ${what}`;
}
