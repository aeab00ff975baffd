import type { LucideIcon } from "lucide-react";
import { Suspense, lazy, startTransition, useCallback, useRef, useState, type ReactNode } from "react";

const triggerClass =
  "inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-xl border border-line bg-card text-muted transition-colors hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

export type MenuEntry =
  | { kind: "link"; label: string; to: string; icon: LucideIcon }
  | { kind: "action"; label: string; onSelect: () => void; icon: LucideIcon; danger?: boolean; disabled?: boolean };

const MenuPanel = lazy(async () => ({ default: (await import("./overlays/MenuPanel")).MenuPanel }));

/**
 * An icon-button dropdown menu (Radix). `label` is the trigger's accessible name.
 *
 * Until a pointer or the keyboard reaches it, the trigger is a plain button that looks and reads the same, and
 * Radix is not loaded: the header's menu is on every signed-in page, and Radix's trigger registers itself as the
 * menu's anchor by setting state while React commits the page, a synchronous update that made React run every
 * pending effect of the page (the carousel's measuring, the data requests) before the browser could paint.
 * A tap opens the menu as soon as Radix is there, and keyboard focus moves over to Radix's trigger.
 */
export function Menu({ label, icon, entries, header }: { label: string; icon: ReactNode; entries: MenuEntry[]; header?: ReactNode }) {
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const standInHadFocus = useRef(false);
  // Notes, as the stand-in leaves the page, whether it had keyboard focus (Radix's trigger then takes it).
  const trackStandIn = useCallback(
    (node: HTMLButtonElement | null) => () => {
      standInHadFocus.current = document.activeElement === node;
    },
    [],
  );
  // In a transition, React keeps the stand-in on screen (and focused) until Radix's code has arrived.
  const reach = () => {
    if (!wanted) startTransition(() => setWanted(true));
  };
  const openMenu = () => {
    reach();
    setOpen(true);
  };

  const standIn = (
    <button
      ref={trackStandIn}
      type="button"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={reach}
      onFocus={reach}
      // Opens on press, as Radix's trigger does: Radix may replace this button between the press and the release,
      // and the click then lands on neither button, so waiting for it lost the tap.
      onPointerDown={(event) => {
        if (event.button === 0 && !event.ctrlKey) openMenu();
      }}
      onClick={openMenu}
      className={triggerClass}
    >
      {icon}
    </button>
  );
  return (
    <Suspense fallback={standIn}>
      {wanted ? (
        <MenuPanel label={label} icon={icon} entries={entries} header={header} triggerClass={triggerClass} open={open} onOpenChange={setOpen} focusTrigger={standInHadFocus} />
      ) : (
        standIn
      )}
    </Suspense>
  );
}
