import type { AppConfig, CurrentUser, Schemas } from "../api/client";
import type { paths } from "../api/schema";

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

export type Market = Schemas["IdeaOut"]["market"];
/** The list filter's spelling of an idea type (`?ideaType=`). */
export type IdeaType = NonNullable<NonNullable<paths["/api/trade-ideas"]["get"]["parameters"]["query"]>["ideaType"]>;

export const MARKET_LABEL: Record<Market, string> = { forex: "Forex", crypto: "Crypto" };
export const IDEA_TYPE_LABEL: Record<IdeaType, string> = { leverage: "Leverage", exchange: "Exchange" };
