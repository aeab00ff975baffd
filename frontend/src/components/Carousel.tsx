import useEmblaCarousel from "embla-carousel-react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Children, isValidElement, useCallback, useEffect, useState, type ReactNode } from "react";
import { cn } from "./cn";

const navButton =
  "inline-flex h-10 w-10 items-center justify-center rounded-full border border-line bg-card text-fg shadow transition-colors hover:bg-card-hover disabled:cursor-not-allowed disabled:opacity-40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

/**
 * A horizontal carousel (embla): 1 slide per view on phones, 2 from `md`, 3 from `lg`,
 * with previous / next buttons. `onSlidesInView` gets the indexes of slides currently visible.
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
  const [viewportRef, embla] = useEmblaCarousel({ loop, align: "start", containScroll: loop ? false : "trimSnaps" });
  const [canPrev, setCanPrev] = useState(false);
  const [canNext, setCanNext] = useState(false);

  const update = useCallback(() => {
    if (!embla) return;
    setCanPrev(embla.canScrollPrev());
    setCanNext(embla.canScrollNext());
  }, [embla]);

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
    <section aria-roledescription="carousel" aria-label={label} className={cn("relative", className)}>
      <div ref={viewportRef} className="overflow-hidden">
        <div className="-ml-4 flex touch-pan-y">
          {slides.map((slide, index) => (
            <div
              key={isValidElement(slide) && slide.key !== null ? slide.key : index}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${slides.length}`}
              className="min-w-0 shrink-0 grow-0 basis-full pl-4 md:basis-1/2 lg:basis-1/3"
            >
              {slide}
            </div>
          ))}
        </div>
      </div>
      {slides.length > 1 ? (
        <div className="mt-4 flex justify-center gap-3">
          <button type="button" aria-label="Previous slide" className={navButton} disabled={!canPrev} onClick={() => embla?.scrollPrev()}>
            <ChevronLeft className="h-5 w-5" aria-hidden="true" />
          </button>
          <button type="button" aria-label="Next slide" className={navButton} disabled={!canNext} onClick={() => embla?.scrollNext()}>
            <ChevronRight className="h-5 w-5" aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </section>
  );
}
