import { createContext, useContext, type ReactNode } from "react";
import type { Schemas } from "../api/client";

type Idea = Schemas["IdeaOut"];

/**
 * What other features add to an idea card, composed by the app (features never import each other):
 * `desk` renders below the levels (the customer's position size, copy-all and journal controls),
 * `educator` renders an educator's name on cards and chat messages (e.g. with a popover of their bio).
 */
export type IdeaExtras = {
  desk?: (idea: Idea) => ReactNode;
  educator?: (educatorId: number, name: string) => ReactNode;
};

const IdeaExtrasContext = createContext<IdeaExtras>({});

export const IdeaExtrasProvider = IdeaExtrasContext.Provider;

export function useIdeaExtras(): IdeaExtras {
  return useContext(IdeaExtrasContext);
}
