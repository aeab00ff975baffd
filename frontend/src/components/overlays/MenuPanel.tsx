import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useLayoutEffect, useRef, type ReactNode, type RefObject } from "react";
import { Link } from "react-router";
import { cn } from "../cn";
import type { MenuEntry } from "../Menu";

const itemClass =
  "flex w-full cursor-pointer select-none items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-fg outline-none data-[highlighted]:bg-card-hover data-[disabled]:opacity-50";

/** The dropdown menu itself (Radix), which `Menu` loads when someone reaches for its button. */
export function MenuPanel({
  label,
  icon,
  entries,
  header,
  triggerClass,
  open,
  onOpenChange,
  focusTrigger,
}: {
  label: string;
  icon: ReactNode;
  entries: MenuEntry[];
  header?: ReactNode;
  triggerClass: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Whether the stand-in button this one replaces had keyboard focus. */
  focusTrigger: RefObject<boolean>;
}) {
  const trigger = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (focusTrigger.current) trigger.current?.focus();
  }, [focusTrigger]);
  return (
    <DropdownMenu.Root open={open} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger ref={trigger} aria-label={label} className={triggerClass}>
        {icon}
      </DropdownMenu.Trigger>
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
    </DropdownMenu.Root>
  );
}
