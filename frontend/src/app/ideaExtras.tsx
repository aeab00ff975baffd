import { Suspense, lazy, type ReactNode } from "react";
import { IdeaExtrasProvider, type IdeaExtras } from "../components/IdeaExtras";
import { useCurrentUser } from "../features/auth/useCurrentUser";

/** The desk loads after the cards themselves: it is not part of any first screen's JavaScript. */
const DeskExtras = lazy(async () => ({ default: (await import("../features/desk/DeskExtras")).DeskExtras }));
const EducatorName = lazy(async () => ({ default: (await import("../features/profile/EducatorPopover")).EducatorPopover }));

const customerExtras: IdeaExtras = {
  desk: (idea) => (
    <Suspense fallback={null}>
      <DeskExtras idea={idea} />
    </Suspense>
  ),
  educator: (educatorId, name) => (
    <Suspense fallback={<span className="truncate font-semibold text-fg">{name}</span>}>
      <EducatorName educatorId={educatorId} name={name} />
    </Suspense>
  ),
};

/** Customers' idea cards get the desk, and educators' names on cards and in chat open their bios; educators' screens stay as they are. */
export function WithIdeaExtras({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  return <IdeaExtrasProvider value={user?.role === "customer" ? customerExtras : {}}>{children}</IdeaExtrasProvider>;
}
