import { useState } from "react";
import { positionSize, rateNeeded, type Sizing, type SizingProblem } from "../../lib/positionSize";
import { rememberRate, savedRate } from "./deviceMemory";
import type { Idea, RiskSettings } from "./types";
import { useConversionRate } from "./useConversionRate";
import { useRiskSettings } from "./useRiskSettings";

export type SizingState = {
  settings: RiskSettings | undefined;
  result: Sizing | SizingProblem | null;
  /** The quote currency whose rate to the account currency is needed, or null. */
  rateCurrency: string | null;
  rate: string;
  /** When the rate shown is the price feed's (ISO time of its price), or null when typed or remembered. */
  rateFromFeedAt: string | null;
  setRate: (value: string) => void;
};

/**
 * The idea sized with the customer's saved settings. Crosses, metals and indices need a quote -> account rate: what
 * the customer typed here, else the price feed's latest (when a feed is configured and has one), else the rate this
 * device remembers for that currency pair; with none of them the panel asks for it.
 */
export function useSizing(idea: Idea, enabled = true): SizingState {
  const { data: settings } = useRiskSettings(enabled);
  const rateCurrency = settings ? rateNeeded(idea.pair, settings.accountCurrency) : null;
  const [typed, setTyped] = useState<Record<string, string>>({});
  const { data: feed } = useConversionRate(rateCurrency, settings?.accountCurrency);
  const feedRate = feed?.rate ?? null;
  const own = rateCurrency ? typed[rateCurrency] : undefined;
  const useFeed = rateCurrency !== null && own === undefined && feedRate !== null;
  const rate = !rateCurrency ? "" : useFeed && feedRate ? feedRate : (own ?? savedRate(`${rateCurrency}${settings?.accountCurrency}`));
  const setRate = (value: string) => {
    if (!rateCurrency || !settings) return;
    setTyped((t) => ({ ...t, [rateCurrency]: value }));
    rememberRate(`${rateCurrency}${settings.accountCurrency}`, value);
  };
  const result = settings ? positionSize(idea, settings, rate ? Number(rate.replace(/,/g, "")) : null) : null;
  return { settings, result, rateCurrency, rate, rateFromFeedAt: useFeed ? (feed?.asOf ?? null) : null, setRate };
}
