import { ClipboardCopy } from "lucide-react";
import { toast } from "../../lib/notify";
import { Button } from "../../components/Button";
import { levelsBlock } from "../../lib/positionSize";
import type { Idea } from "./types";

/** Copies every level as one block for a broker ticket or notes, with the usual "Copied!" toast. */
export function CopyAllLevels({ idea }: { idea: Idea }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(levelsBlock(idea));
    } catch {
      toast.error("Copy failed", { description: "Could not copy the levels." });
      return;
    }
    toast.success("Copied!", { description: "All levels copied to clipboard." });
  };
  return (
    <Button variant="outline" size="sm" onClick={() => void copy()}>
      <ClipboardCopy className="h-4 w-4" aria-hidden="true" />
      Copy all levels
    </Button>
  );
}
