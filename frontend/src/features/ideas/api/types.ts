import type { Schemas } from "../../../api/client";

export type Idea = Schemas["IdeaOut"];
export type IdeaPage = Schemas["IdeaPage"];
export type IdeaCreate = Schemas["IdeaCreate"];
export type IdeaUpdate = Schemas["IdeaUpdate"];
export type Revision = Schemas["RevisionOut"];
export type UnseenCounts = Schemas["UnseenCounts"];
export type MediaOut = Schemas["MediaOut"];
export type Setup = Schemas["SetupOut"];
export type SetupCreate = Schemas["SetupCreate"];
export type SetupUpdate = Schemas["SetupUpdate"];
export type LessonIn = Schemas["LessonIn"];

/** Every query of this feature starts with one of these. */
export { ideaKeys, ideasKey, setupKeys, setupsKey, unseenCountsKey, type IdeaFilters } from "./queryKeys";
