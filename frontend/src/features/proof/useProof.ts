import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type Schemas } from "../../api/client";
import { unwrap } from "../../api/errors";

export type Proof = Schemas["Proof"];
export type DayFingerprint = Schemas["DayFingerprint"];
export type Timestamp = Schemas["TimestampOut"];

/** GET /api/proof: the ledger's head and one fingerprint per UTC day, newest first (public). */
export const proofQueryOptions = queryOptions({
  queryKey: ["proof"] as const,
  queryFn: ({ signal }) => unwrap(api.GET("/api/proof", { signal }), "Failed to load the record's fingerprints"),
  staleTime: 60_000,
});

export function useProof() {
  return useQuery(proofQueryOptions);
}
