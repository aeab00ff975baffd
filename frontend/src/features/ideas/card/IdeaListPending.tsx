import { RefreshCw } from "lucide-react";
import { Button } from "../../../components/Button";
import { Spinner } from "../../../components/Spinner";

interface ListQuery {
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/** Whether an idea list's query has no data to show yet (still loading, or failed); narrows it like the two checks do. */
export function isListPending<Q extends Omit<ListQuery, "refetch">>(query: Q): query is Extract<Q, { isPending: true } | { isError: true }> {
  return query.isPending || query.isError;
}

export function ListLoading({ text = "Loading trade ideas..." }: { text?: string }) {
  return (
    <p role="status" className="mt-6 flex items-center gap-2 text-muted">
      <Spinner className="h-5 w-5 text-emerald-500" /> {text}
    </p>
  );
}

/** A list that failed to load: the spec's message (never the server's text) and a way to ask again. */
export function ListFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="mt-6 flex flex-col items-start gap-3 rounded-2xl border border-rose-500/30 bg-rose-500/10 p-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm font-medium text-rose-700 dark:text-rose-300">{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <RefreshCw className="h-4 w-4" aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}

/** What an idea page shows before its list: "Loading trade ideas..." (a status), or `failure` with "Try again" (an alert). */
export function IdeaListPending({ query, failure }: { query: ListQuery; failure: string }) {
  if (query.isError) return <ListFailure message={failure} onRetry={() => void query.refetch()} />;
  return <ListLoading />;
}
