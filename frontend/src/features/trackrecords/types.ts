import type { Schemas } from "../../api/client";

export type TrackRecord = Schemas["TrackRecord"];
export type TrackRecordSummary = Schemas["TrackRecordSummary"];
export type RecordFigures = Omit<Schemas["RecordGroup"], "key">;
export type RecordGroup = Schemas["RecordGroup"];
export type RecordStatistics = Schemas["RecordStatistics"];
export type CurvePoint = Schemas["CurvePoint"];
export type Coverage = Schemas["Coverage"];
export type SetupRecord = Schemas["SetupRecord"];
export type SetupFigures = Schemas["SetupFigures"];
/** Whose verdicts a record counts: the educator's calls, or the price checks' (decision 0102). */
export type RecordSource = "educator" | "verified";
export type Idea = Schemas["IdeaOut"];
export type IdeaPage = Schemas["IdeaPage"];

/** Query parameters of GET /api/educators/{id}/track-record. */
export interface RecordFilters {
  market?: "forex" | "crypto";
  ideaType?: "leverage" | "exchange";
  timeFrame?: string;
  since?: string;
  /** One of the educator's setups (`bySetup`). */
  setup?: number;
}

export type Challenge = Schemas["ChallengeOut"];
/** Query parameters of GET /api/educators/{id}/challenge (percentages of the starting balance). */
export interface ChallengeParams {
  riskPercent: number;
  profitTarget: number;
  dailyLoss: number;
  maxLoss: number;
  days: number;
  market?: "forex" | "crypto";
  setup?: number;
}
