import type { AppConfig, CurrentUser } from "../api/client";

/**
 * What the app layer hands to feature screens that need the signed-in user:
 * features never import each other, so session data and logout arrive as props.
 */
export interface SessionProps {
  user: CurrentUser;
  config: AppConfig;
  onLogout: () => void;
  loggingOut: boolean;
}

export type Market = "forex" | "crypto";
export type IdeaType = "leverage" | "exchange";

export const MARKET_LABEL: Record<Market, string> = { forex: "Forex", crypto: "Crypto" };
export const IDEA_TYPE_LABEL: Record<IdeaType, string> = { leverage: "Leverage", exchange: "Exchange" };
