import { afterEach, describe, expect, it, vi } from "vitest";
import {
  NOT_AN_IMAGE,
  PHOTO_PROCESSING_FAILED,
  PHOTO_TOO_LARGE,
  TOO_MANY_PHOTOS,
  photoProblem,
  resizeImage,
  scaledSize,
} from "./photos";

const png = (size = 1000) => ({ type: "image/png", size });

describe("photoProblem", () => {
  it("accepts up to three images under 10 MB", () => {
    expect(photoProblem(0, [png(), png(), png()])).toBeNull();
    expect(photoProblem(2, [png()])).toBeNull();
  });

  it("refuses a fourth photo", () => {
    expect(photoProblem(3, [png()])).toBe(TOO_MANY_PHOTOS);
    expect(photoProblem(0, [png(), png(), png(), png()])).toBe(TOO_MANY_PHOTOS);
  });

  it("refuses other files and large images", () => {
    expect(photoProblem(0, [{ type: "application/pdf", size: 10 }])).toBe(NOT_AN_IMAGE);
    expect(photoProblem(0, [png(10 * 1024 * 1024)])).toBe(PHOTO_TOO_LARGE);
  });
});

describe("scaledSize", () => {
  it("keeps small images and scales wide ones to 800 px", () => {
    expect(scaledSize(640, 480)).toEqual({ width: 640, height: 480 });
    expect(scaledSize(1600, 900)).toEqual({ width: 800, height: 450 });
    expect(scaledSize(4000, 1)).toEqual({ width: 800, height: 1 });
  });
});

describe("resizeImage", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  function mockCanvas(blob: Blob | null) {
    const drawImage = vi.fn();
    const toBlob = vi.fn((cb: BlobCallback, _type?: string, _q?: number) => cb(blob));
    const canvas = { width: 0, height: 0, getContext: () => ({ drawImage, fillRect: vi.fn(), fillStyle: "" }), toBlob };
    const realCreate = document.createElement.bind(document);
    vi.spyOn(document, "createElement").mockImplementation(((tag: string) =>
      tag === "canvas" ? canvas : realCreate(tag)) as typeof document.createElement);
    return { canvas, drawImage, toBlob };
  }

  it("draws at most 800 px wide and encodes JPEG 0.8", async () => {
    const close = vi.fn();
    vi.stubGlobal("createImageBitmap", vi.fn(async () => ({ width: 1600, height: 1200, close })));
    const out = new Blob(["jpeg"], { type: "image/jpeg" });
    const { canvas, drawImage, toBlob } = mockCanvas(out);

    await expect(resizeImage(new Blob(["png"], { type: "image/png" }))).resolves.toBe(out);
    expect(canvas.width).toBe(800);
    expect(canvas.height).toBe(600);
    expect(drawImage).toHaveBeenCalledWith(expect.anything(), 0, 0, 800, 600);
    expect(toBlob).toHaveBeenCalledWith(expect.any(Function), "image/jpeg", 0.8);
    expect(close).toHaveBeenCalled();
  });

  it("fails with the spec's message when decoding or encoding fails", async () => {
    vi.stubGlobal("createImageBitmap", vi.fn(async () => Promise.reject(new Error("bad"))));
    await expect(resizeImage(new Blob(["x"]))).rejects.toThrow(PHOTO_PROCESSING_FAILED);

    vi.stubGlobal("createImageBitmap", vi.fn(async () => ({ width: 10, height: 10, close: vi.fn() })));
    mockCanvas(null);
    await expect(resizeImage(new Blob(["x"]))).rejects.toThrow(PHOTO_PROCESSING_FAILED);
  });
});
