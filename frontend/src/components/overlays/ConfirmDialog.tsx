import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { ReactNode } from "react";
import { buttonClasses } from "../Button";

/**
 * A confirmation (Radix AlertDialog): Cancel, or the confirm action. Its portal is rendered only while open: a
 * closed one still mounts presence trackers, which set state while React commits the page (see Dialog).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  danger = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  danger?: boolean;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {open ? (
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="animate-overlay-in fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
          <AlertDialog.Content className="animate-content-in fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-card p-5 text-fg shadow-2xl focus:outline-none">
            <AlertDialog.Title className="text-lg font-bold">{title}</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-muted">{description}</AlertDialog.Description>
            <div className="mt-6 flex justify-end gap-3">
              <AlertDialog.Cancel className={buttonClasses("outline", "md")}>Cancel</AlertDialog.Cancel>
              <AlertDialog.Action className={buttonClasses(danger ? "danger" : "primary", "md")} onClick={onConfirm}>
                {confirmLabel}
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      ) : null}
    </AlertDialog.Root>
  );
}
