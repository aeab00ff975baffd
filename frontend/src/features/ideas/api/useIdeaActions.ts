import { toast } from "../../../lib/notify";
import { errorMessage } from "../../../api/errors";
import { statusToast, type IdeaStatus } from "../../../lib/ideaStatus";
import type { Idea } from "./types";
import { useDeleteIdea } from "./useDeleteIdea";
import { useSetIdeaStatus, type Completion } from "./useSetIdeaStatus";

/** Status changes and deletion of an educator's own idea, with the spec's toasts. */
export function useIdeaActions(idea: Idea) {
  const setStatus = useSetIdeaStatus();
  const remove = useDeleteIdea();

  // Promises (not mutate callbacks): the live stream may update or remove the card before the answer
  // arrives, and callbacks of an unmounted component would never run.
  const changeStatus = (status: IdeaStatus, completion: Completion = {}) => {
    setStatus.mutateAsync({ id: idea.id, status, ...completion }).then(
      (saved) => {
        // A manual close is a win or a loss by its price: the toast says what the server recorded.
        const recorded = saved.status;
        const description =
          recorded === "successful" || recorded === "unsuccessful"
            ? statusToast(recorded, saved.ideaType, saved.marketType)
            : status === "invalidated"
              ? "Trade idea marked invalid"
              : "Trade idea status reset to pending";
        toast.success("Trade Updated", { description });
      },
      (error: unknown) => toast.error("Failed to update trade status", { description: errorMessage(error, "Failed to update status.") }),
    );
  };

  const deleteIdea = () => {
    remove.mutateAsync(idea.id).then(
      () => toast.success("Trade idea deleted", { description: "The trade idea has been successfully deleted" }),
      (error: unknown) => toast.error("Failed to delete trade idea", { description: errorMessage(error, "Failed to delete trade idea") }),
    );
  };

  return { changeStatus, deleteIdea, statusBusy: setStatus.isPending, deleting: remove.isPending };
}
