import { ImagePlus, X } from "lucide-react";
import { useId } from "react";
import { cn } from "../../../components/cn";
import { Spinner } from "../../../components/Spinner";
import { MAX_PHOTOS } from "../../../lib/photos";

export interface PhotoItem {
  key: string;
  /** Thumbnail source: an object URL for a new photo, the server URL for a kept one. */
  url: string;
  /** A resized photo not uploaded yet. */
  blob?: Blob;
  /** The media id of a photo already on the server. */
  mediaId?: number;
}

/** Up to 3 photos (the first is the chart) with thumbnails and remove buttons. */
export function PhotoPicker({
  photos,
  onAdd,
  onRemove,
  processing,
  disabled,
}: {
  photos: PhotoItem[];
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
  processing: boolean;
  disabled?: boolean;
}) {
  const id = useId();
  const full = photos.length >= MAX_PHOTOS;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-fg">
        Photos <span className="font-normal text-muted">(up to {MAX_PHOTOS}, the first is the chart)</span>
      </label>
      <div className="flex flex-wrap gap-3">
        {photos.map((photo, index) => (
          <div key={photo.key} className="relative h-24 w-24 overflow-hidden rounded-xl border border-line bg-field sm:h-28 sm:w-28">
            <img src={photo.url} alt={`Photo ${index + 1}`} className="h-full w-full object-cover" />
            {index === 0 ? (
              <span className="absolute bottom-1 left-1 rounded-md bg-black/60 px-1.5 py-0.5 text-[10px] font-semibold text-white">Chart</span>
            ) : null}
            <button
              type="button"
              aria-label={`Remove photo ${index + 1}`}
              onClick={() => onRemove(index)}
              disabled={disabled}
              className="absolute right-1 top-1 inline-flex h-7 w-7 items-center justify-center rounded-full bg-black/70 text-white hover:bg-rose-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
            >
              <X className="h-4 w-4" aria-hidden="true" />
            </button>
          </div>
        ))}
        <label
          htmlFor={id}
          className={cn(
            "flex h-24 w-24 cursor-pointer flex-col sm:h-28 sm:w-28 items-center justify-center gap-1 rounded-xl border border-dashed border-line bg-field text-xs text-muted transition-colors hover:border-emerald-500 hover:text-fg",
            "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-emerald-400",
            (full || disabled) && "pointer-events-none opacity-50",
          )}
        >
          {processing ? <Spinner className="h-6 w-6" /> : <ImagePlus className="h-6 w-6" aria-hidden="true" />}
          <span>{processing ? "Processing..." : "Add photo"}</span>
          <input
            id={id}
            type="file"
            accept="image/*"
            multiple
            className="sr-only"
            disabled={disabled || processing}
            onChange={(e) => {
              const files = Array.from(e.target.files ?? []);
              e.target.value = "";
              if (files.length > 0) onAdd(files);
            }}
          />
        </label>
      </div>
    </div>
  );
}
