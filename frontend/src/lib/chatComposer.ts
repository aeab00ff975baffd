/** Spec §Chat: the text sent with an image and no words. */
export const IMAGE_ONLY_TEXT = "Shared an image";

/**
 * The body to send for a composed message, or null when there is nothing to send:
 * a message needs non-empty trimmed text or an image; an image alone gets 'Shared an image'.
 */
export function composeMessage(text: string, imageId: number | null | undefined): { message: string; imageId?: number } | null {
  const trimmed = text.trim();
  const hasImage = typeof imageId === "number";
  if (!trimmed && !hasImage) return null;
  return hasImage ? { message: trimmed || IMAGE_ONLY_TEXT, imageId } : { message: trimmed };
}

/** True when the composer can send: trimmed text or an attached image. */
export function canSend(text: string, hasImage: boolean): boolean {
  return hasImage || text.trim().length > 0;
}

/** Enter sends; Shift+Enter (and Enter while an IME is composing) adds a line. */
export function isSendKey(event: { key: string; shiftKey: boolean; isComposing?: boolean; nativeEvent?: { isComposing?: boolean } }): boolean {
  if (event.key !== "Enter" || event.shiftKey) return false;
  return !(event.isComposing || event.nativeEvent?.isComposing);
}
