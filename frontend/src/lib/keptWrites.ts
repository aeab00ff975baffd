import { useMutationState, type Mutation, type MutationKey } from "@tanstack/react-query";

/** What a screen shows of one write: waiting for the connection, on its way, saved, or the server's refusal. */
export interface KeptWrite<TVariables> {
  id: number;
  state: "waiting" | "sending" | "saved" | "refused";
  variables: TVariables;
  /** The server's message (or the network's) when refused. */
  message: string | null;
  submittedAt: number;
}

/**
 * Writes this tab has seen wait for the connection. Only those are followed to the end here ("Saved" or the refusal):
 * a write sent at once already shows its outcome where it was made.
 */
const waited = new Set<number>();

function stateOf(mutation: Mutation<unknown, Error, unknown>): KeptWrite<unknown>["state"] | null {
  const { status, isPaused } = mutation.state;
  if (status === "pending") return isPaused ? "waiting" : "sending";
  if (status === "success") return "saved";
  if (status === "error") return "refused";
  return null;
}

/**
 * The writes with `mutationKey` whose variables `match`, as the screen should show them. Read from the mutation
 * cache, not from a component's hook, so writes restored after a reload show too.
 */
export function useKeptWrites<TVariables>(mutationKey: MutationKey, match: (variables: TVariables) => boolean): KeptWrite<TVariables>[] {
  const writes = useMutationState({
    filters: { mutationKey, predicate: (mutation) => mutation.state.variables !== undefined && match(mutation.state.variables as TVariables) },
    select: (mutation): KeptWrite<TVariables> | null => {
      const state = stateOf(mutation);
      if (state === "waiting") waited.add(mutation.mutationId);
      if (state === null || (state !== "waiting" && !waited.has(mutation.mutationId))) return null;
      const error = mutation.state.error;
      return {
        id: mutation.mutationId,
        state,
        variables: mutation.state.variables as TVariables,
        message: error instanceof Error ? error.message : error ? String(error) : null,
        submittedAt: mutation.state.submittedAt,
      };
    },
  });
  return writes.filter((write): write is KeptWrite<TVariables> => write !== null);
}

/** The latest of `writes` (the one the screen describes), or null. */
export function latestWrite<T>(writes: readonly KeptWrite<T>[]): KeptWrite<T> | null {
  return writes.reduce<KeptWrite<T> | null>((latest, write) => (!latest || write.submittedAt >= latest.submittedAt ? write : latest), null);
}
