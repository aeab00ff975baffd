import { Suspense, lazy, use, type ReactNode } from "react";
import { IdeaExtrasProvider, type IdeaExtras } from "../components/IdeaExtras";
import { useCurrentUser } from "../features/auth/useCurrentUser";

const EducatorName = lazy(async () => ({ default: (await import("../features/profile/EducatorPopover")).EducatorPopover }));

const NO_EXTRAS: IdeaExtras = {};

let customerExtras: Promise<IdeaExtras> | undefined;
let customerExtrasFailed = false;

/**
 * The customer's card extras (the desk). Their code is not part of any first screen's download, but a
 * customer's page waits for it: fetched beside the page's own chunk, so a card is drawn whole once, instead
 * of growing by the desk's height a moment later and pushing the chart down under the reader's eyes.
 */
export function loadCustomerExtras(): Promise<IdeaExtras> {
  if (customerExtras !== undefined) return customerExtras;
  customerExtras = import("../features/desk/DeskExtras").then(({ DeskExtras }) => ({
    desk: (idea) => <DeskExtras idea={idea} />,
    // The plain name fills exactly the popover trigger's place until its code arrives.
    educator: (educatorId, name) => (
      <Suspense fallback={<span className="truncate font-semibold text-fg">{name}</span>}>
        <EducatorName educatorId={educatorId} name={name} />
      </Suspense>
    ),
  }));
  // A failed download stays failed, so that the page shows its error (with a reload button) instead of
  // asking again on every render; leaving the failed screen tries again (forgetFailedCustomerExtras).
  customerExtras.catch(() => {
    customerExtrasFailed = true;
  });
  return customerExtras;
}

/** Lets the next render fetch the desk again if its last download failed (the app calls it when a failed screen is left). */
export function forgetFailedCustomerExtras() {
  if (!customerExtrasFailed) return;
  customerExtras = undefined;
  customerExtrasFailed = false;
}

function CustomerExtras({ children }: { children: ReactNode }) {
  return <IdeaExtrasProvider value={use(loadCustomerExtras())}>{children}</IdeaExtrasProvider>;
}

/** Customers' idea cards get the desk, and educators' names on cards and in chat open their bios; educators' screens stay as they are. */
export function WithIdeaExtras({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  return user?.role === "customer" ? (
    <CustomerExtras>{children}</CustomerExtras>
  ) : (
    <IdeaExtrasProvider value={NO_EXTRAS}>{children}</IdeaExtrasProvider>
  );
}
