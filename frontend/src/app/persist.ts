import type { PersistQueryClientOptions, PersistedClient, Persister } from "@tanstack/react-query-persist-client";
import { defaultShouldDehydrateMutation, defaultShouldDehydrateQuery } from "@tanstack/react-query";
import { del, get, set } from "idb-keyval";

/** The IndexedDB key (idb-keyval's default store) that holds the persisted query cache and paused writes. */
export const PERSIST_KEY = "trade-ideas-query-cache";

/** How long what a member has seen stays readable without a connection (and the cache's gcTime, decision 0052). */
export const PERSIST_MAX_AGE = 24 * 60 * 60 * 1000;

/**
 * Changed when the shape of cached answers changes in a way old data would break: a persisted cache with a
 * different buster is thrown away on restore.
 */
const BUSTER = "2026-11-26";

/** After a write, further changes wait this long and are written together (a burst of cache events costs one). */
const WRITE_DELAY_MS = 200;

/** The persister, and a way to start reading the kept cache before anything asks for it. */
export type IdbPersister = Persister & {
  /**
   * Starts reading the kept cache now (when the first screen is a market page, before React renders); the next `restoreClient` returns that read.
   * PersistQueryClientProvider asks only in the effects of its first commit, and its answer (the end of restoring)
   * is an update that cannot be rendered in slices: arriving while the page is being rendered in a transition, it
   * threw that render away and rendered the whole page again in one long task (decision 0063).
   */
  startRestore: () => void;
};

/**
 * TanStack Query's persister over IndexedDB with idb-keyval, as TanStack's persistQueryClient documentation builds
 * it; writes are coalesced so a burst of cache events costs one structured clone, and the last one always lands.
 */
export function createIdbPersister(key: IDBValidKey = PERSIST_KEY): IdbPersister {
  let early: Promise<PersistedClient | undefined> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest: PersistedClient | undefined;
  let keptWrites = false;
  const flush = () => {
    timer = undefined;
    const client = latest;
    latest = undefined;
    if (client) void set(key, client).catch((error: unknown) => console.warn("Could not keep the cache on this device", error));
  };
  return {
    persistClient: (client) => {
      latest = client;
      // Paused writes (typed while the connection was down) are saved at once, and so is their leaving: a reload must
      // neither lose one nor send one again.
      const hasWrites = client.clientState.mutations.length > 0;
      const urgent = hasWrites || keptWrites;
      keptWrites = hasWrites;
      if (urgent || timer === undefined) {
        // The first change after a quiet spell is written at once (a reload a moment after an answer arrived still
        // finds it); changes right behind it are written together when the delay ends.
        clearTimeout(timer);
        flush();
        timer = urgent ? undefined : setTimeout(() => (latest ? flush() : (timer = undefined)), WRITE_DELAY_MS);
      }
    },
    startRestore: () => {
      early ??= get<PersistedClient>(key);
      // Read again by restoreClient if this read failed; the provider handles that one's failure.
      early.catch(() => undefined);
    },
    restoreClient: () => {
      const read = early ?? get<PersistedClient>(key);
      early = undefined;
      return read;
    },
    removeClient: () => {
      early = undefined;
      clearTimeout(timer);
      timer = undefined;
      latest = undefined;
      return del(key);
    },
  };
}

export const persister = createIdbPersister();

/** Options for PersistQueryClientProvider: successful answers and paused writes, for a day. */
export const persistOptions: Omit<PersistQueryClientOptions, "queryClient"> = {
  persister,
  maxAge: PERSIST_MAX_AGE,
  buster: BUSTER,
  dehydrateOptions: {
    // Operators' screens and account links (invitation and reset tokens) are not kept on the device.
    shouldDehydrateQuery: (query) =>
      defaultShouldDehydrateQuery(query) && query.queryKey[0] !== "admin" && !(query.queryKey[0] === "auth" && query.queryKey[1] === "link"),
    shouldDehydrateMutation: defaultShouldDehydrateMutation,
  },
};

/** On logout: forget what this device kept for the member who left. */
export async function clearPersistedCache(): Promise<void> {
  try {
    await persister.removeClient();
  } catch {
    // IndexedDB unavailable (private mode): nothing was kept
  }
}
