import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  base64Decode,
  base64Encode,
  decryptSecret,
  encryptSecret,
  hmacSha256Hex,
} from "../../src/lib/crypto";
import { trackingSignature } from "../../src/mail/tracking/signature";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What encryptSecret wrote before keys were derived: AES-256-GCM under the raw key, no prefix. */
async function legacyEncrypt(base64Key: string, plaintext: string) {
  const key = await crypto.subtle.importKey("raw", base64Decode(base64Key), "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode(plaintext)),
  );
  return base64Encode(new Uint8Array([...iv, ...sealed]));
}

/** HKDF-SHA-256 of ENCRYPTION_KEY with an empty salt and `info`, computed here independently. */
async function hkdf(info: string) {
  const base = await crypto.subtle.importKey("raw", base64Decode(env.ENCRYPTION_KEY), "HKDF", false, [
    "deriveBits",
  ]);
  return crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: encoder.encode(info) },
    base,
    256,
  );
}

async function aesOpen(rawKey: ArrayBuffer | Uint8Array, sealed: Uint8Array) {
  const key = await crypto.subtle.importKey("raw", rawKey, "AES-GCM", false, ["decrypt"]);
  return decoder.decode(
    await crypto.subtle.decrypt({ name: "AES-GCM", iv: sealed.slice(0, 12) }, key, sealed.slice(12)),
  );
}

describe("keys derived from ENCRYPTION_KEY", () => {
  it("encrypts with the HKDF key for 'encryption', marked v2:", async () => {
    const stored = await encryptSecret(env.ENCRYPTION_KEY, "whsec_hello");
    expect(stored).toMatch(/^v2:[A-Za-z0-9+/]+=*$/);
    const sealed = base64Decode(stored.slice(3));
    expect(await aesOpen(await hkdf("encryption"), sealed)).toBe("whsec_hello");
    await expect(aesOpen(base64Decode(env.ENCRYPTION_KEY), sealed)).rejects.toThrow();
    expect(await decryptSecret(env.ENCRYPTION_KEY, stored)).toBe("whsec_hello");
  });

  it("still decrypts a secret stored before, under the raw key without a prefix", async () => {
    const legacy = await legacyEncrypt(env.ENCRYPTION_KEY, "-----BEGIN PRIVATE KEY-----");
    expect(legacy).not.toMatch(/^v2:/);
    expect(await decryptSecret(env.ENCRYPTION_KEY, legacy)).toBe("-----BEGIN PRIVATE KEY-----");
  });

  it("refuses a v2 secret made under another ENCRYPTION_KEY", async () => {
    const other = base64Encode(crypto.getRandomValues(new Uint8Array(32)));
    const stored = await encryptSecret(other, "secret");
    await expect(decryptSecret(env.ENCRYPTION_KEY, stored)).rejects.toThrow();
  });

  it("signs tracking links with the key for 'tracking', not the old context string or another purpose's key", async () => {
    const message = "click\neml_1\nhttps://shop.example/";
    const signature = await trackingSignature(env.ENCRYPTION_KEY, "click", "eml_1", "https://shop.example/");
    expect(signature).not.toBe((await hmacSha256Hex(`tracking:${env.ENCRYPTION_KEY}`, message)).slice(0, 32));
    const hmacUnder = async (info: string) => {
      const key = await crypto.subtle.importKey(
        "raw",
        await hkdf(info),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
      return [...mac]
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("")
        .slice(0, 32);
    };
    expect(signature).toBe(await hmacUnder("tracking"));
    for (const other of ["encryption", "reply-token", "unsubscribe-token"]) {
      expect(await hmacUnder(other)).not.toBe(signature);
    }
  });
});
