import { Card } from "../../components/Card";
import { formatR } from "../../lib/format";
import type { ManagementCost } from "./types";

/** What managing cost the customer over their closed trades of price-checked ideas: the average per trade, its
 * 95 % interval, how many trades, and the setups it comes from. */
export function ManagementCostCard({ cost }: { cost: ManagementCost }) {
  if (cost.count === 0) {
    return <p className="text-sm text-muted">What managing cost you shows once a trade you closed has a price-checked result.</p>;
  }
  return (
    <Card className="p-3">
      <h3 id="management-cost" className="text-sm font-semibold text-fg">
        What managing cost you
      </h3>
      <dl className="mt-2 grid grid-cols-2 gap-2">
        <div>
          <dt className="text-xs uppercase tracking-wide text-muted">Average cost per trade</dt>
          <dd className="mt-1 font-mono text-lg font-bold text-fg">{formatR(cost.averageCostR)}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-muted">95 % interval</dt>
          <dd className="mt-1 font-mono text-sm text-fg">
            {cost.interval95 ? `${formatR(cost.interval95[0])} to ${formatR(cost.interval95[1])}` : "Needs 2 trades"}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-muted">
        Over {cost.count} {cost.count === 1 ? "trade" : "trades"}: the idea&apos;s price-checked R minus yours.
      </p>
      {cost.bySetup.length > 0 ? (
        <table className="mt-3 w-full text-sm" aria-labelledby="management-cost">
          <caption className="text-left text-xs uppercase tracking-wide text-muted">By setup</caption>
          <thead>
            <tr className="text-left text-xs text-muted">
              <th scope="col">Setup</th>
              <th scope="col">Trades</th>
              <th scope="col">Average cost</th>
            </tr>
          </thead>
          <tbody>
            {cost.bySetup.map((s) => (
              <tr key={s.setupId ?? "none"}>
                <th scope="row" className="py-0.5 pr-2 text-left font-normal text-fg">
                  {s.setupName ?? "No setup"}{" "}
                  {/* Setups of different educators may share a name: whose it is, under it. */}
                  {s.educatorName ? <span className="block text-xs text-muted">{s.educatorName}</span> : null}
                </th>
                <td className="align-top font-mono">{s.count}</td>
                <td className="align-top font-mono">{formatR(s.averageCostR)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Card>
  );
}
