import { Lightbulb } from "lucide-react";
import { Carousel } from "../../../components/Carousel";
import { EmptyState } from "../../../components/EmptyState";
import { Spinner } from "../../../components/Spinner";
import { EducatorIdeaCard } from "./EducatorIdeaCard";
import type { Idea } from "../api/types";
import { ListFailure } from "../card/IdeaListPending";
import { useTradeIdeas } from "../api/useTradeIdeas";

/** Your Trade Ideas: the educator's ideas, newest first, in a non-looping carousel. */
export function EducatorIdeasCarousel({ educatorId, onEdit }: { educatorId: number; onEdit: (idea: Idea) => void }) {
  const ideas = useTradeIdeas({ educatorId, limit: 100 });
  if (ideas.isPending) {
    return (
      <p role="status" className="mt-4 flex items-center gap-2 text-sm text-muted">
        <Spinner className="h-4 w-4" /> Loading trade ideas...
      </p>
    );
  }
  if (ideas.isError) return <ListFailure message="Failed to fetch trade ideas" onRetry={() => void ideas.refetch()} />;
  if (ideas.data.items.length === 0) {
    return <EmptyState className="mt-4" icon={Lightbulb} title="No trade ideas created yet" />;
  }
  return (
    <Carousel label="Your Trade Ideas" className="mt-4">
      {ideas.data.items.map((idea) => (
        <EducatorIdeaCard key={idea.id} idea={idea} onEdit={onEdit} />
      ))}
    </Carousel>
  );
}
