import { PlayCircle } from "lucide-react";
import { useState } from "react";
import { Dialog } from "../../../components/Dialog";
import { ExternalLink } from "../../../components/ExternalLink";
import { videoTarget } from "../../../lib/videoEmbed";

const linkClass = "inline-flex min-h-11 items-center gap-2 text-sm font-medium text-emerald-600 hover:underline dark:text-emerald-400";

/** "Watch video": YouTube and Vimeo play in a dialog; other https links open in a new tab. */
export function VideoButton({ url, pair }: { url: string; pair: string }) {
  const [open, setOpen] = useState(false);
  const target = videoTarget(url);
  if (target === null) return null;
  if (target.kind === "link") {
    return (
      <ExternalLink href={target.href} className={linkClass}>
        <PlayCircle className="h-4 w-4" aria-hidden="true" />
        Watch video
      </ExternalLink>
    );
  }
  return (
    <Dialog
      title={`${pair} video`}
      open={open}
      onOpenChange={setOpen}
      className="max-w-3xl"
      trigger={
        <button type="button" className={linkClass}>
          <PlayCircle className="h-4 w-4" aria-hidden="true" />
          Watch video
        </button>
      }
    >
      {/* Mounted only while open, so nothing loads from the provider before the customer asks. */}
      <div className="aspect-video w-full overflow-hidden rounded-lg bg-black">
        <iframe
          src={target.src}
          title={`${pair} video on ${target.provider}`}
          className="h-full w-full"
          allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
      <ExternalLink href={url} className={`${linkClass} mt-2`}>
        Open on {target.provider}
      </ExternalLink>
    </Dialog>
  );
}
