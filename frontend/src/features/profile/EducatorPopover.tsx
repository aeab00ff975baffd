import * as Popover from "@radix-ui/react-popover";
import { useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Badge } from "../../components/Badge";
import { useEducators } from "./useEducators";

/** An educator's name that opens their bio and specialty (loaded on first open). */
export function EducatorPopover({ educatorId, name }: { educatorId: number; name: string }) {
  const [open, setOpen] = useState(false);
  const educators = useEducators(open);
  const educator = educators.data?.find((e) => e.id === educatorId);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        aria-label={`About ${name}`}
        className="-my-2.5 max-w-full truncate rounded py-2.5 text-left font-semibold sm:my-0 sm:py-0 text-fg underline decoration-dotted underline-offset-4 hover:text-emerald-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 dark:hover:text-emerald-400"
      >
        {name}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side="bottom"
          align="start"
          sideOffset={6}
          collisionPadding={12}
          className="z-50 w-72 max-w-[calc(100vw-1.5rem)] rounded-2xl border border-line bg-card p-4 text-fg shadow-2xl focus:outline-none"
        >
          <div className="flex items-center gap-3">
            <Avatar name={name} src={educator?.avatarUrl} size="sm" />
            <div className="min-w-0">
              <p className="truncate font-semibold">{name}</p>
              {educator?.specialty ? <Badge tone="violet">{educator.specialty}</Badge> : null}
            </div>
          </div>
          <p className="mt-3 whitespace-pre-line break-words text-sm text-muted">
            {educators.isPending ? "Loading..." : educator?.bio || "This educator has not written a bio yet."}
          </p>
          <Popover.Arrow className="fill-[var(--color-line,#334155)]" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
