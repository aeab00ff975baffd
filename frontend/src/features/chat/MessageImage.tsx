import { useState } from "react";
import { Dialog } from "../../components/Dialog";

/** A chat image thumbnail that opens larger in a dialog. */
export function MessageImage({ src, author }: { src: string; author: string }) {
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <Dialog
      title="Image"
      description={`Shared by ${author}`}
      open={open}
      onOpenChange={setOpen}
      className="max-w-4xl"
      trigger={
        <button
          type="button"
          aria-label="Open image"
          className="mt-3 block overflow-hidden rounded-xl border border-line focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
        >
          <img
            src={src}
            alt={`Image shared by ${author}`}
            loading="lazy"
            onError={() => setFailed(true)}
            className="max-h-72 w-auto max-w-full object-contain"
          />
        </button>
      }
    >
      <img src={src} alt={`Image shared by ${author}`} className="mx-auto max-h-[70dvh] w-auto max-w-full rounded-xl object-contain" />
    </Dialog>
  );
}
