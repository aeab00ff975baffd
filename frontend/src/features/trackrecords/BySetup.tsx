import { Info } from "lucide-react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { cn } from "../../components/cn";
import { formatR } from "../../lib/format";
import { rTone } from "../../lib/outcome";
import { formatWinRate } from "./Figures";
import type { SetupFigures, SetupRecord } from "./types";

/** A setup's name that opens its description: one tap from the record to what the setup is. */
export function SetupDescription({ setup, label }: { setup: Pick<SetupRecord, "name" | "description">; label?: string }) {
  return (
    <Dialog
      title={setup.name}
      trigger={
        <Button variant="ghost" size="sm" className="-mx-2 font-medium text-fg underline decoration-dotted underline-offset-4" aria-label={label ?? `About ${setup.name}`}>
          {label ? <Info className="h-4 w-4" aria-hidden="true" /> : null}
          {label ?? setup.name}
        </Button>
      }
    >
      <p className="whitespace-pre-line text-sm text-fg">{setup.description ?? "The educator has not described this setup yet."}</p>
    </Dialog>
  );
}

function interval(figures: SetupFigures): string {
  const range = figures.expectancyInterval95;
  return range ? `95 % interval ${formatR(range[0])} to ${formatR(range[1])}` : "";
}

function FiguresCells({ figures, last = false }: { figures: SetupFigures; last?: boolean }) {
  const td = "whitespace-nowrap py-2 pr-2 text-right font-mono align-top sm:pr-3";
  return (
    <>
      <td className={td}>{figures.decided}</td>
      <td className={td}>{formatWinRate(figures.winRate)}</td>
      <td className={cn(td, last && "pr-0 sm:pr-0")}>
        <span className={rTone(figures.expectancyR)}>{formatR(figures.expectancyR)}</span>
        {figures.expectancyInterval95 ? <span className="block text-[11px] font-sans text-muted">{interval(figures)}</span> : null}
        {figures.sampleSizeNote ? <span className="block text-[11px] font-sans text-muted">{figures.sampleSizeNote}</span> : null}
      </td>
    </>
  );
}

/** The record per setup: decided ideas, win rate and expectancy (with its interval) as called and as price-checked. */
export function BySetup({ setups }: { setups: SetupRecord[] }) {
  if (setups.length === 0) return null;
  const th = "py-2 pr-2 text-right align-bottom font-medium sm:pr-3";
  return (
    <section aria-labelledby="by-setup-heading" className="space-y-2">
      <h3 id="by-setup-heading" className="text-sm font-semibold text-fg">
        By setup
      </h3>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-xs sm:text-sm">
          <thead className="text-[11px] uppercase tracking-wide text-muted sm:text-xs">
            <tr>
              <th scope="col" rowSpan={2} className="py-2 pr-2 align-bottom font-medium sm:pr-3">
                Setup
              </th>
              <th scope="colgroup" colSpan={3} className="pt-2 pr-2 text-center font-medium sm:pr-3">
                Educator's calls
              </th>
              <th scope="colgroup" colSpan={3} className="pt-2 text-center font-medium">
                Price-checked
              </th>
            </tr>
            <tr>
              {["Decided", "Win rate", "Expectancy"].map((name) => (
                <th key={`calls-${name}`} scope="col" className={th}>
                  {name}
                </th>
              ))}
              {["Decided", "Win rate", "Expectancy"].map((name, i) => (
                <th key={`checked-${name}`} scope="col" className={cn(th, i === 2 && "pr-0 sm:pr-0")}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {setups.map((setup) => (
              <tr key={setup.setupId} className="border-t border-line">
                <th scope="row" className="py-1 pr-2 align-top sm:pr-3">
                  <SetupDescription setup={setup} />
                </th>
                <FiguresCells figures={setup} />
                <FiguresCells figures={setup.priceChecked} last />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
