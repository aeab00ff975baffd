import { describe, expect, it } from "vitest";
import { uint8ArrayToUrlBase64, urlBase64ToUint8Array } from "./base64url";

describe("urlBase64ToUint8Array", () => {
  it("decodes base64url without padding", () => {
    // "hello?>" in base64 is aGVsbG8/Pg== ; base64url drops padding and uses - and _
    expect(Array.from(urlBase64ToUint8Array("aGVsbG8_Pg"))).toEqual([...new TextEncoder().encode("hello?>")]);
  });

  it("accepts standard base64 with padding", () => {
    expect(Array.from(urlBase64ToUint8Array("aGVsbG8/Pg=="))).toEqual([...new TextEncoder().encode("hello?>")]);
  });

  it("maps - and _ to + and /", () => {
    expect(Array.from(urlBase64ToUint8Array("-_8"))).toEqual([0xfb, 0xff]);
  });

  it("round-trips a 65-byte VAPID-like key", () => {
    const key = new Uint8Array(65).map((_, i) => (i * 37 + 4) % 256);
    key[0] = 4;
    const encoded = uint8ArrayToUrlBase64(key);
    expect(encoded).not.toMatch(/[+/=]/);
    expect(encoded).toHaveLength(87);
    const decoded = urlBase64ToUint8Array(encoded);
    expect(decoded).toBeInstanceOf(Uint8Array);
    expect(Array.from(decoded)).toEqual(Array.from(key));
  });

  it("returns an empty array for an empty string", () => {
    expect(urlBase64ToUint8Array("")).toHaveLength(0);
  });
});
