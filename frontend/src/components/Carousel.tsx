import useEmblaCarousel from "embla-carousel-react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Children, isValidElement, startTransition, useCallback, useEffect, useMemo, useRef, useState, type Key, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "./cn";

/**
 * Slides rendered before the carousel has measured itself: what the layout shows first (3 per view from `lg`;
 * below, 2 per view or one with the next peeking in). On a phone the third card was drawn out of view in the
 * page's first, unsliceable commit: about a third of that commit's main-thread time (decision 0059).
 */
const firstSlides = () => (typeof window.matchMedia === "function" && !window.matchMedia("(min-width: 1024px)").matches ? 2 : 3);

/** `previous` with `added` in it: the same set when nothing is new, so React keeps the render it has. */
function including(previous: ReadonlySet<string>, added: ReadonlySet<string>): ReadonlySet<string> {
  const fresh = [...added].filter((key) => !previous.has(key));
  return fresh.length === 0 ? previous : new Set([...previous, ...fresh]);
}

const navButton =
  "inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-full border border-line bg-card text-fg shadow transition-colors hover:bg-card-hover disabled:cursor-not-allowed disabled:opacity-40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

/**
 * A horizontal carousel (embla): one slide per view on phones (the next one peeks in, a hint to swipe), 2 from `md`, 3 from `lg`,
 * with previous / next buttons, a position indicator ("2 / 7") and a dot button per position, arrow keys and touch swipes.
 * `onSlidesInView` gets the indexes of slides currently visible.
 *
 * Only the slides in view and their neighbours are rendered (then kept): a list of many ideas costs the
 * first paint three cards, not all of them. The others are empty frames of the same width.
 */
export function Carousel({
  label,
  loop = false,
  children,
  onSlidesInView,
  className,
}: {
  label: string;
  loop?: boolean;
  children: ReactNode;
  onSlidesInView?: (indexes: number[]) => void;
  className?: string;
}) {
  const slides = Children.toArray(children);
  const keys: Key[] = slides.map((slide, index) => (isValidElement(slide) && slide.key !== null ? slide.key : index));
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set());
  // Slides that have been in view. A neighbour drawn before the reader has seen it does not count towards the
  // row's height: drawn taller than the cards in view, it would push the controls and the page below down with
  // nobody touching anything (a layout shift).
  const [seen, setSeen] = useState<ReadonlySet<string>>(() => new Set());
  const [first] = useState(firstSlides);
  // The same options object from render to render: embla's hook compares (and re-applies) them whenever it changes.
  const options = useMemo(() => ({ loop, align: "start", containScroll: loop ? false : "trimSnaps" }) as const, [loop]);
  const [attachViewport, embla] = useEmblaCarousel(options);
  // Embla's hook is a ref callback that sets state. Called by React while it commits, that would be a
  // synchronous update: React would re-render at once and, first, run every pending effect of the page
  // (embla's measuring, the page's data requests), all before the browser could paint the cards. Handed
  // over from an effect, the viewport is measured after the first paint; nothing moves, as the slides
  // are laid out by CSS alone.
  const viewportRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    attachViewport(viewportRef.current);
  }, [attachViewport]);
  const [canPrev, setCanPrev] = useState(false);
  const [canNext, setCanNext] = useState(false);
  const [selected, setSelected] = useState(0);
  const [snapCount, setSnapCount] = useState(0);

  const update = useCallback(() => {
    if (!embla) return;
    setCanPrev(embla.canScrollPrev());
    setCanNext(embla.canScrollNext());
    setSelected(embla.selectedScrollSnap());
    setSnapCount(embla.scrollSnapList().length);
  }, [embla]);

  /** Renders the slides in view and one on each side (wrapping round when the carousel loops). */
  const reveal = useCallback(() => {
    if (!embla) return;
    const count = embla.slideNodes().length;
    const inView = embla.slidesInView();
    const nodes = embla.slideNodes();
    const keyAt = (index: number) => nodes[loop ? (index + count) % count : index]?.dataset.slide;
    const wanted = new Set<string>();
    const visible = new Set<string>();
    for (const index of inView.length > 0 ? inView : [embla.selectedScrollSnap()]) {
      const key = keyAt(index);
      if (key !== undefined) visible.add(key);
      for (const near of [index - 1, index, index + 1]) {
        const nearKey = keyAt(near);
        if (nearKey !== undefined) wanted.add(nearKey);
      }
    }
    // In a transition: the slides drawn here are next to the view, not in it, so React may draw them in
    // slices that let the browser handle input meanwhile.
    startTransition(() => {
      setShown((previous) => including(previous, wanted));
      setSeen((previous) => including(previous, visible));
    });
  }, [embla, loop]);

  useEffect(() => {
    if (!embla) return;
    const frame = window.requestAnimationFrame(reveal);
    embla.on("slidesInView", reveal).on("reInit", reveal);
    return () => {
      window.cancelAnimationFrame(frame);
      embla.off("slidesInView", reveal).off("reInit", reveal);
    };
  }, [embla, reveal]);

  /** Left / right arrows move the carousel, except while typing in one of its fields. */
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!embla || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    const target = event.target as HTMLElement;
    if (target.closest("input, textarea, select, [contenteditable='true']")) return;
    event.preventDefault();
    if (event.key === "ArrowLeft") embla.scrollPrev();
    else embla.scrollNext();
  };

  useEffect(() => {
    if (!embla) return;
    const frame = window.requestAnimationFrame(update);
    embla.on("select", update).on("reInit", update);
    return () => {
      window.cancelAnimationFrame(frame);
      embla.off("select", update).off("reInit", update);
    };
  }, [embla, update]);

  useEffect(() => {
    if (!embla || !onSlidesInView) return;
    const report = () => onSlidesInView(embla.slidesInView());
    report();
    embla.on("slidesInView", report);
    return () => {
      embla.off("slidesInView", report);
    };
  }, [embla, onSlidesInView]);

  return (
    // The region takes focus so the arrow keys work without first tabbing to a button inside.
    <section aria-roledescription="carousel" aria-label={label} tabIndex={0} onKeyDown={onKeyDown} className={cn("relative rounded-2xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400", className)}>
      <div ref={viewportRef} className="overflow-hidden">
        <div className="-ml-4 flex touch-pan-y">
          {slides.map((slide, index) => {
            const key = keys[index] ?? index;
            return (
              <div
                key={key}
                data-slide={key}
                role="group"
                aria-roledescription="slide"
                aria-label={`${index + 1} of ${slides.length}`}
                className={cn(
                  "min-w-0 shrink-0 grow-0 basis-[88%] pl-4 md:basis-1/2 lg:basis-1/3",
                  // Drawn but not yet seen: laid out at no height (its card overflows, out of view), so the
                  // row is as tall as what the reader has seen.
                  index >= first && !seen.has(String(key)) && "max-h-0 self-start",
                )}
              >
                {index < first || shown.has(String(key)) ? slide : null}
              </div>
            );
          })}
        </div>
      </div>
      {snapCount > 1 ? (
        <div className="mt-4 flex flex-col items-center gap-1">
          <div className="flex items-center justify-center gap-3">
            <button type="button" aria-label="Previous slide" className={navButton} disabled={!canPrev} onClick={() => embla?.scrollPrev()}>
              <ChevronLeft className="h-5 w-5" aria-hidden="true" />
            </button>
            <p aria-live="polite" className="min-w-20 text-center text-sm font-medium tabular-nums text-muted">
              <span className="sr-only">Slide </span>
              {selected + 1} / {snapCount}
            </p>
            <button type="button" aria-label="Next slide" className={navButton} disabled={!canNext} onClick={() => embla?.scrollNext()}>
              <ChevronRight className="h-5 w-5" aria-hidden="true" />
            </button>
          </div>
          {snapCount <= 12 ? (
            // One button per position: 44px touch targets on phones (wrapping onto a second row when
            // there are many), compact from `sm` where a pointer is precise.
            <div role="group" aria-label="Slides" className="flex max-w-full flex-wrap justify-center">
              {Array.from({ length: snapCount }, (_, i) => (
                <button
                  key={i}
                  type="button"
                  aria-label={`Go to slide ${i + 1}`}
                  aria-current={i === selected ? "true" : undefined}
                  onClick={() => embla?.scrollTo(i)}
                  className="group inline-flex h-11 w-11 items-center justify-center rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:h-6 sm:w-6"
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      "h-2 rounded-full transition-all",
                      i === selected ? "w-5 bg-emerald-500" : "w-2 bg-muted group-hover:bg-fg",
                    )}
                  />
                </button>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
