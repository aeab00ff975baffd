import { useState } from "react";
import { positionSize, rateNeeded, type Sizing, type SizingProblem } from "../../lib/positionSize";
import { rememberRate, savedRate } from "./deviceMemory";
import type { Idea, RiskSettings } from "./types";
import { useRiskSettings } from "./useRiskSettings";

export type SizingState = {
  settings: RiskSettings | undefined;
  result: Sizing | SizingProblem | null;
  /** The quote currency whose rate to the account currency is needed, or null. */
  rateCurrency: string | null;
  rate: string;
  setRate: (value: string) => void;
};

/** The idea sized with the customer's saved settings (and the rate this device remembers for its quote currency). */
export function useSizing(idea: Idea): SizingState {
  const { data: settings } = useRiskSettings();
  const rateCurrency = settings ? rateNeeded(idea.pair, settings.accountCurrency) : null;
  const [typed, setTyped] = useState<Record<string, string>>({});
  const rate = rateCurrency ? (typed[rateCurrency] ?? savedRate(`${rateCurrency}${settings?.accountCurrency}`)) : "";
  const setRate = (value: string) => {
    if (!rateCurrency || !settings) return;
    setTyped((t) => ({ ...t, [rateCurrency]: value }));
    rememberRate(`${rateCurrency}${settings.accountCurrency}`, value);
  };
  const result = settings ? positionSize(idea, settings, rate ? Number(rate.replace(/,/g, "")) : null) : null;
  return { settings, result, rateCurrency, rate, setRate };
}
