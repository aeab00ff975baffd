/** Query keys of the chat feature (everything under ["chat"]). */
export const chatKeys = {
  all: ["chat"] as const,
  rooms: ["chat", "rooms"] as const,
  /** Every message query: data is InfiniteData<MessagePage> (newest page first, items oldest first). */
  messagesAll: ["chat", "messages"] as const,
  room: (roomId: number) => ["chat", "messages", roomId] as const,
  messages: (roomId: number, mine: boolean) => ["chat", "messages", roomId, { mine }] as const,
};
