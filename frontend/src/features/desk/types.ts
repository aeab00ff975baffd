import type { Schemas } from "../../api/client";

export type Idea = Schemas["IdeaOut"];
export type RiskSettings = Schemas["RiskSettingsBody"];
export type Journal = Schemas["JournalOut"];
export type JournalEntry = Schemas["JournalEntryOut"];
export type JournalCreate = Schemas["JournalCreate"];
export type JournalUpdate = Schemas["JournalUpdate"];
export type JournalSummary = Schemas["JournalSummaryOut"];
export type ManagementCost = Schemas["ManagementCost"];

/** Every query of this feature starts with one of these. */
export const deskKeys = {
  riskSettings: ["me", "risk-settings"] as const,
  journal: ["me", "journal"] as const,
  // Under the journal's key: whatever reloads the journal reloads its summary too.
  journalSummary: ["me", "journal", "summary"] as const,
};
