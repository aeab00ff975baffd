import Lightbox from "yet-another-react-lightbox";
import Counter from "yet-another-react-lightbox/plugins/counter";
import "yet-another-react-lightbox/plugins/counter.css";
import Zoom from "yet-another-react-lightbox/plugins/zoom";
import "yet-another-react-lightbox/styles.css";

/**
 * The full-screen chart viewer (loaded on first open): every photo of the idea at its large size, swipe or
 * arrow keys between them, pinch, wheel or double-tap to zoom, Escape to close.
 */
export function ChartLightbox({
  urls,
  alt,
  index,
  onClose,
}: {
  urls: string[];
  alt: string;
  index: number;
  onClose: () => void;
}) {
  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      slides={urls.map((src, i) => ({ src, alt: urls.length > 1 ? `${alt} ${i + 1} of ${urls.length}` : alt }))}
      plugins={[Zoom, Counter]}
      zoom={{ maxZoomPixelRatio: 4, scrollToZoom: true }}
      carousel={{ finite: urls.length <= 1 }}
      controller={{ closeOnBackdropClick: true }}
      labels={{ Lightbox: alt, Close: "Close chart viewer", Previous: "Previous chart", Next: "Next chart" }}
      render={urls.length <= 1 ? { buttonPrev: () => null, buttonNext: () => null } : undefined}
    />
  );
}
