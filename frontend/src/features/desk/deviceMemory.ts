/** What this device remembers for the desk (localStorage; failures are ignored, e.g. private mode). */

const PANEL_KEY = "desk.positionSizeOpen";
const RATE_KEY = (currency: string) => `desk.rate.${currency.toUpperCase()}`;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* not remembered */
  }
}

export const panelOpen = () => read(PANEL_KEY) === "1";
export const rememberPanelOpen = (open: boolean) => write(PANEL_KEY, open ? "1" : "0");

/** The quote→account rate last entered for `currency` ("" when none). */
export const savedRate = (currency: string) => read(RATE_KEY(currency)) ?? "";
export const rememberRate = (currency: string, rate: string) => write(RATE_KEY(currency), rate);
