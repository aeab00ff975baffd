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

/** One side of a setup's figures on a phone: decided, win rate and expectancy as a definition list. */
function FiguresList({ title, figures }: { title: string; figures: SetupFigures }) {
  const dt = "text-muted";
  const dd = "text-right font-mono text-fg";
  return (
    <div>
      <p className="text-[11px] font-medium uppercase tracking-wide text-muted">{title}</p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
        <dt className={dt}>Decided</dt>
        <dd className={dd}>{figures.decided}</dd>
        <dt className={dt}>Win rate</dt>
        <dd className={dd}>{formatWinRate(figures.winRate)}</dd>
        <dt className={dt}>Expectancy</dt>
        <dd className={cn(dd, rTone(figures.expectancyR))}>{formatR(figures.expectancyR)}</dd>
      </dl>
      {figures.expectancyInterval95 ? <p className="mt-1 text-[11px] text-muted">{interval(figures)}</p> : null}
      {figures.sampleSizeNote ? <p className="text-[11px] text-muted">{figures.sampleSizeNote}</p> : null}
    </div>
  );
}

/** On a phone the seven columns would scroll sideways: each setup is a card of its own, the calls beside the
 * price checks. */
function SetupCards({ setups }: { setups: SetupRecord[] }) {
  return (
    <ul aria-labelledby="by-setup-heading" className="space-y-2 md:hidden">
      {setups.map((setup) => (
        <li key={setup.setupId} className="rounded-md border border-line p-3">
          <SetupDescription setup={setup} />
          <div className="mt-1 grid grid-cols-2 gap-3">
            <FiguresList title="Educator's calls" figures={setup} />
            <FiguresList title="Price-checked" figures={setup.priceChecked} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The record per setup: decided ideas, win rate and expectancy (with its interval) as called and as price-checked.
 * A table from tablet widths up, a card per setup on phones (only one of them is displayed, and so read). */
export function BySetup({ setups }: { setups: SetupRecord[] }) {
  if (setups.length === 0) return null;
  const th = "py-2 pr-2 text-right align-bottom font-medium sm:pr-3";
  return (
    <section aria-labelledby="by-setup-heading" className="space-y-2">
      <h3 id="by-setup-heading" className="text-sm font-semibold text-fg">
        By setup
      </h3>
      <SetupCards setups={setups} />
      <div className="hidden overflow-x-auto md:block">
        <table aria-labelledby="by-setup-heading" className="w-full text-left text-xs sm:text-sm">
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
