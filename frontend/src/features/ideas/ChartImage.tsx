import { Maximize2 } from "lucide-react";
import { Suspense, lazy, useState } from "react";

/** The viewer and its styles load when a chart is first opened, never with the card. */
const ChartLightbox = lazy(async () => ({ default: (await import("./ChartLightbox")).ChartLightbox }));

/**
 * The idea's chart: the first photo as a thumbnail with a "1 / 3" count when there are more; tapping
 * opens the full-screen viewer with every photo at its large size. When an image fails to load the next
 * URL is tried; when none loads, the chart is hidden.
 */
export function ChartImage({
  urls,
  fullUrls,
  alt,
  priority = false,
}: {
  urls: string[];
  fullUrls?: string[];
  alt: string;
  /** The chart is likely the page's largest content (first card on screen): load it at once and first. */
  priority?: boolean;
}) {
  const [index, setIndex] = useState(0);
  const [open, setOpen] = useState(false);
  const url = urls[index];
  if (!url) return null;
  const next = () => setIndex((i) => i + 1);
  const large = urls.map((u, i) => fullUrls?.[i] || u);

  return (
    <>
      <button
        type="button"
        aria-label={urls.length > 1 ? `Open ${alt}, photo ${index + 1} / ${urls.length}` : `Open ${alt}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className="group relative block w-full overflow-hidden rounded-xl border border-line bg-field focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
      >
        <img
          src={url}
          alt={alt}
          loading={priority ? "eager" : "lazy"}
          // A chart on a list is secondary to the cards' text and the page's data and code: even in view,
          // it waits its turn behind them on a slow network.
          fetchPriority={priority ? "high" : "low"}
          decoding="async"
          onError={next}
          className="h-40 w-full object-cover transition-transform group-hover:scale-[1.02]"
        />
        {urls.length > 1 ? (
          <span className="absolute bottom-2 left-2 rounded-lg bg-black/60 px-2 py-1 font-mono text-xs font-semibold text-white">
            {index + 1} / {urls.length}
          </span>
        ) : null}
        <span className="absolute bottom-2 right-2 inline-flex h-8 w-8 items-center justify-center rounded-lg bg-black/60 text-white">
          <Maximize2 className="h-4 w-4" aria-hidden="true" />
        </span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <ChartLightbox urls={large.slice(index)} alt={alt} index={0} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
