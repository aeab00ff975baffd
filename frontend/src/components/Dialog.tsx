import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useState, type ReactNode } from "react";
import { cn } from "./cn";

export interface DialogProps {
  title: string;
  description?: ReactNode;
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
}

/**
 * Modal dialog (Radix) with a title, a close button and a scrollable body.
 *
 * Its portal is rendered only while open (there is no closing animation to wait for). A closed Radix portal
 * still mounts a presence tracker per part, and each one updates its state as the page first commits: React
 * treats such updates as synchronous, so it re-renders and runs every pending effect of the page (the
 * carousel's measuring, the data requests) before the browser may paint. A market page has a dialog per card.
 */
export function Dialog({ title, description, trigger, open, onOpenChange, children, footer, className }: DialogProps) {
  const [openHere, setOpenHere] = useState(false); // when the caller does not control `open`
  const isOpen = open ?? openHere;
  const changeOpen = (next: boolean) => {
    setOpenHere(next);
    onOpenChange?.(next);
  };
  return (
    <DialogPrimitive.Root open={isOpen} onOpenChange={changeOpen}>
      {trigger ? <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger> : null}
      {isOpen ? (
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="animate-overlay-in fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
          <DialogPrimitive.Content
            className={cn(
              "animate-content-in fixed left-1/2 top-1/2 z-50 flex max-h-[85dvh] w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col",
              "rounded-2xl border border-line bg-card text-fg shadow-2xl focus:outline-none",
              className,
            )}
            {...(description ? {} : { "aria-describedby": undefined })}
          >
            <div className="flex items-start justify-between gap-4 border-b border-line px-5 py-4">
              <div>
                <DialogPrimitive.Title className="text-lg font-bold">{title}</DialogPrimitive.Title>
                {description ? (
                  <DialogPrimitive.Description className="mt-1 text-sm text-muted">{description}</DialogPrimitive.Description>
              ) : null}
            </div>
            <DialogPrimitive.Close
              aria-label="Close"
              className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-muted sm:h-9 sm:w-9 hover:bg-card-hover hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </DialogPrimitive.Close>
          </div>
          <div className="overflow-y-auto px-5 py-4">{children}</div>
          {footer ? <div className="border-t border-line px-5 py-3">{footer}</div> : null}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
      ) : null}
    </DialogPrimitive.Root>
  );
}

export const DialogClose = DialogPrimitive.Close;
