import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { LucideIcon } from "lucide-react";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "./cn";
import { useAfterFirstPaint } from "./useAfterFirstPaint";

const triggerClass =
  "inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-xl border border-line bg-card text-muted transition-colors hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

const itemClass =
  "flex w-full cursor-pointer select-none items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-fg outline-none data-[highlighted]:bg-card-hover data-[disabled]:opacity-50";

export type MenuEntry =
  | { kind: "link"; label: string; to: string; icon: LucideIcon }
  | { kind: "action"; label: string; onSelect: () => void; icon: LucideIcon; danger?: boolean; disabled?: boolean };

/**
 * An icon-button dropdown menu (Radix). `label` is the trigger's accessible name.
 *
 * Until the page has painted, the trigger is a plain button that looks and reads the same: Radix's trigger
 * registers itself as the menu's anchor by setting state while React commits, and React runs such an update
 * synchronously, after running every pending effect of the page (the carousel's measuring, the data requests),
 * all before the browser may paint. A tap on the stand-in opens the menu as soon as Radix's trigger replaces it,
 * and keyboard focus moves over with it. The menu's portal is rendered only while open, for the same reason.
 */
export function Menu({ label, icon, entries, header }: { label: string; icon: ReactNode; entries: MenuEntry[]; header?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const radixReady = useAfterFirstPaint();
  const trigger = useRef<HTMLButtonElement>(null);
  const standInHadFocus = useRef(false);
  useLayoutEffect(() => {
    if (radixReady && standInHadFocus.current) trigger.current?.focus();
  }, [radixReady]);

  if (!radixReady) {
    return (
      <button
        ref={(node) => () => {
          standInHadFocus.current = document.activeElement === node;
        }}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={false}
        data-state="closed"
        onClick={() => setOpen(true)}
        className={triggerClass}
      >
        {icon}
      </button>
    );
  }
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger ref={trigger} aria-label={label} className={triggerClass}>
        {icon}
      </DropdownMenu.Trigger>
      {open ? (
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={8} className="z-50 min-w-52 rounded-2xl border border-line bg-card p-1.5 text-fg shadow-2xl">
            {header ? <div className="px-3 py-2 text-xs text-muted">{header}</div> : null}
            {entries.map((entry) => {
              const Icon = entry.icon;
              if (entry.kind === "link") {
                return (
                  <DropdownMenu.Item key={entry.label} asChild className={itemClass}>
                    <Link to={entry.to}>
                      <Icon className="h-4 w-4 text-muted" aria-hidden="true" />
                      {entry.label}
                    </Link>
                  </DropdownMenu.Item>
                );
              }
              return (
                <DropdownMenu.Item
                  key={entry.label}
                  disabled={entry.disabled}
                  onSelect={entry.onSelect}
                  className={cn(itemClass, entry.danger && "text-rose-600 dark:text-rose-400")}
                >
                  <Icon className="h-4 w-4" aria-hidden="true" />
                  {entry.label}
                </DropdownMenu.Item>
              );
            })}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      ) : null}
    </DropdownMenu.Root>
  );
}
