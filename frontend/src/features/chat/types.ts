import type { Schemas } from "../../api/client";

export type ChatRoom = Schemas["RoomOut"];
export type ChatMessage = Schemas["MessageOut"];
export type MessagePage = Schemas["MessagePage"];
export type ReactionKind = "heart" | "like";

/** Query keys of the chat feature. */
export { chatKeys } from "./queryKeys";
