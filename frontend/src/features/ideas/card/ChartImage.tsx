import { Maximize2 } from "lucide-react";
import { Suspense, lazy, useState } from "react";
import { useWhenIdle } from "../../../lib/whenIdle";

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
  // On a list, the chart is asked for once the page has been painted and the browser is idle (lib/whenIdle; at
  // once on later screens), its place kept at its size until then: the page's first paint no longer shares the
  // network with the charts, which on a phone are below the fold (decision 0064).
  const idle = useWhenIdle();
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
        {priority || idle ? (
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
        ) : (
          <span className="block h-40 w-full" />
        )}
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
