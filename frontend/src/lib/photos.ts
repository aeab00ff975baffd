export const MAX_PHOTOS = 3;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_PHOTO_WIDTH = 800;
/** Chart photos go up larger: the server keeps the spec's 800 px image for cards and up to 2048 px for the
 * full-screen viewer (`fullUrl`), so resizing them to 800 px here would leave the viewer nothing larger. */
export const CHART_UPLOAD_WIDTH = 2048;
export const PHOTO_JPEG_QUALITY = 0.8;

export const TOO_MANY_PHOTOS = "You can upload maximum 3 photos per trade idea.";
export const NOT_AN_IMAGE = "Please upload only image files.";
export const PHOTO_TOO_LARGE = "Please upload images smaller than 10MB.";
export const PHOTO_PROCESSING_FAILED = "Image processing failed, Please try a different image.";

/** The first reason (spec §5 texts) why these files cannot join `existing` photos, or null when they can. */
export function photoProblem(existing: number, files: ReadonlyArray<{ type: string; size: number }>): string | null {
  if (existing + files.length > MAX_PHOTOS) return TOO_MANY_PHOTOS;
  if (files.some((f) => !f.type.startsWith("image/"))) return NOT_AN_IMAGE;
  if (files.some((f) => f.size >= MAX_PHOTO_BYTES)) return PHOTO_TOO_LARGE;
  return null;
}

/** Size after scaling down to at most `maxWidth` wide, keeping the aspect ratio (never scales up). */
export function scaledSize(width: number, height: number, maxWidth = MAX_PHOTO_WIDTH): { width: number; height: number } {
  if (width <= maxWidth) return { width, height };
  return { width: maxWidth, height: Math.max(1, Math.round((height * maxWidth) / width)) };
}

interface Drawable {
  width: number;
  height: number;
  close?: () => void;
}

async function decode(file: Blob): Promise<{ source: CanvasImageSource & Drawable; release: () => void }> {
  if (typeof createImageBitmap === "function") {
    const bitmap = await createImageBitmap(file);
    return { source: bitmap, release: () => bitmap.close() };
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return {
      source: Object.assign(img, { width: img.naturalWidth, height: img.naturalHeight }),
      release: () => URL.revokeObjectURL(url),
    };
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
}

/**
 * Resizes an image in the browser to at most 800 px wide and re-encodes it as JPEG 0.8 (spec §5).
 * Throws an Error with 'Image processing failed, Please try a different image.' on any failure.
 */
export async function resizeImage(
  file: Blob,
  { maxWidth = MAX_PHOTO_WIDTH, quality = PHOTO_JPEG_QUALITY }: { maxWidth?: number; quality?: number } = {},
): Promise<Blob> {
  try {
    const { source, release } = await decode(file);
    try {
      const size = scaledSize(source.width, source.height, maxWidth);
      const canvas = document.createElement("canvas");
      canvas.width = size.width;
      canvas.height = size.height;
      const ctx = canvas.getContext("2d");
      if (!ctx) throw new Error("no 2d context");
      ctx.fillStyle = "#ffffff"; // JPEG has no alpha: transparent pixels become white, not black
      ctx.fillRect(0, 0, size.width, size.height);
      ctx.drawImage(source, 0, 0, size.width, size.height);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
      if (!blob) throw new Error("encoding failed");
      return blob;
    } finally {
      release();
    }
  } catch {
    throw new Error(PHOTO_PROCESSING_FAILED);
  }
}
