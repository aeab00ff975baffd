import { Maximize2 } from "lucide-react";
import { useState } from "react";
import { Dialog } from "../../components/Dialog";

/**
 * The idea's chart: a thumbnail that opens a modal with the image large. When an image fails to
 * load the next URL is tried; when none loads, the chart is hidden.
 */
export function ChartImage({ urls, alt }: { urls: string[]; alt: string }) {
  const [index, setIndex] = useState(0);
  const [open, setOpen] = useState(false);
  const url = urls[index];
  if (!url) return null;
  const next = () => setIndex((i) => i + 1);

  return (
    <Dialog
      title={alt}
      open={open}
      onOpenChange={setOpen}
      className="max-w-4xl"
      trigger={
        <button
          type="button"
          aria-label={`Open ${alt}`}
          className="group relative block w-full overflow-hidden rounded-xl border border-line bg-field focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
        >
          <img src={url} alt={alt} loading="lazy" onError={next} className="h-40 w-full object-cover transition-transform group-hover:scale-[1.02]" />
          <span className="absolute bottom-2 right-2 inline-flex h-8 w-8 items-center justify-center rounded-lg bg-black/60 text-white">
            <Maximize2 className="h-4 w-4" aria-hidden="true" />
          </span>
        </button>
      }
    >
      <img src={url} alt={alt} onError={next} className="mx-auto max-h-[70dvh] w-auto max-w-full rounded-lg object-contain" />
    </Dialog>
  );
}
