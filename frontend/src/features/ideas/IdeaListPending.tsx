import { Spinner } from "../../components/Spinner";
import { errorMessage } from "../../api/errors";

interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/** Whether an idea list's query has no data to show yet (still loading, or failed); narrows it like the two checks do. */
export function isListPending<Q extends ListQuery>(query: Q): query is Extract<Q, { isPending: true } | { isError: true }> {
  return query.isPending || query.isError;
}

/** What an idea page shows before its list: "Loading trade ideas..." (a status), or why it failed (an alert). */
export function IdeaListPending({ query, failure }: { query: ListQuery; failure: string }) {
  if (query.isError) {
    return (
      <p role="alert" className="mt-6 text-rose-600 dark:text-rose-300">
        {errorMessage(query.error, failure)}
      </p>
    );
  }
  return (
    <p role="status" className="mt-6 flex items-center gap-2 text-muted">
      <Spinner className="h-5 w-5 text-emerald-500" /> Loading trade ideas...
    </p>
  );
}
