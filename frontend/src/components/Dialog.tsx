import {
  Suspense,
  cloneElement,
  createContext,
  lazy,
  useCallback,
  useContext,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type Ref,
} from "react";

type TriggerProps = ButtonHTMLAttributes<HTMLElement> & { ref?: Ref<HTMLElement> };

export interface DialogProps {
  title: string;
  description?: ReactNode;
  /** The button that opens the dialog (it gets the dialog's aria attributes and its click). */
  trigger?: ReactElement<TriggerProps>;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
}

let panel: Promise<typeof import("./overlays/DialogPanel")> | undefined;

/** Fetches the open dialog's code (Radix) once; called as soon as someone is about to open a dialog. */
function loadPanel() {
  if (panel === undefined) {
    panel = import("./overlays/DialogPanel");
    panel.catch(() => {
      panel = undefined; // a failed download is tried again next time
    });
  }
  return panel;
}

const DialogPanel = lazy(async () => ({ default: (await loadPanel()).DialogPanel }));

const CloseDialog = createContext<() => void>(() => undefined);

/**
 * Modal dialog with a title, a close button and a scrollable body.
 *
 * Only the trigger is drawn while closed; the dialog itself (Radix) is fetched when a pointer or the keyboard
 * reaches the trigger, and drawn while open. A market page has a dialog on every card and in its header: with
 * Radix mounted for each, the page's first download was ~25 KB larger, and the closed dialogs' presence
 * trackers each set state while React committed the page, synchronous updates that made React run every
 * pending effect before the browser could paint.
 */
export function Dialog({ title, description, trigger, open, onOpenChange, children, footer, className }: DialogProps) {
  const [openHere, setOpenHere] = useState(false); // when the caller does not control `open`
  const isOpen = open ?? openHere;
  const contentId = useId();
  const triggerNode = useRef<HTMLElement | null>(null);
  const trackTrigger = useCallback((node: HTMLElement | null) => {
    triggerNode.current = node;
  }, []);
  const changeOpen = (next: boolean) => {
    setOpenHere(next);
    onOpenChange?.(next);
  };
  const close = () => changeOpen(false);

  return (
    <>
      {trigger ? (
        <Slot
          ref={trackTrigger}
          aria-haspopup="dialog"
          aria-expanded={isOpen}
          aria-controls={isOpen ? contentId : undefined}
          data-state={isOpen ? "open" : "closed"}
          onPointerEnter={() => void loadPanel()}
          onFocus={() => void loadPanel()}
          onClick={() => changeOpen(true)}
        >
          {trigger}
        </Slot>
      ) : null}
      {isOpen ? (
        <CloseDialog.Provider value={close}>
          <Suspense fallback={null}>
            <DialogPanel id={contentId} title={title} description={description} onClose={close} returnFocus={() => triggerNode.current?.focus()} footer={footer} className={className}>
              {children}
            </DialogPanel>
          </Suspense>
        </CloseDialog.Provider>
      ) : null}
    </>
  );
}

/** Closes the dialog it is in when its child (a button) is clicked. */
export function DialogClose({ children }: { children: ReactElement<TriggerProps> }) {
  return <Slot onClick={useContext(CloseDialog)}>{children}</Slot>;
}

/**
 * Renders its child element with these props added; the child's own handlers run first, and one that calls
 * `preventDefault` stops ours (as Radix's `asChild` does).
 */
function Slot({ children, ...props }: TriggerProps & { children: ReactElement<TriggerProps> }) {
  const own = children.props;
  return cloneElement(children, {
    ...props,
    onClick: chain(own.onClick, props.onClick),
    onFocus: chain(own.onFocus, props.onFocus),
    onPointerEnter: chain(own.onPointerEnter, props.onPointerEnter),
  });
}

function chain<E extends { defaultPrevented: boolean }>(theirs?: (event: E) => void, ours?: (event: E) => void) {
  if (!theirs || !ours) return theirs ?? ours;
  return (event: E) => {
    theirs(event);
    if (!event.defaultPrevented) ours(event);
  };
}
