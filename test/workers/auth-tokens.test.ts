import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashToken, keyPrefixOf } from "../../src/auth/token";
import { RecentlyUnknownTokens } from "../../src/auth/unknown-tokens";
import { registerKeyHash } from "../../src/db/directory/key-hashes";
import { insertKey } from "../../src/features/keys/keys.repo";
import { revokeKey } from "../../src/features/keys/keys.service";
import { crc32, randomBase62, sha256Hex, toHex } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { addKey, call, callJson, db, directory, errorBody, seedWorkspace } from "./helpers";

/** The 401 an unknown key gets, word for word as before checksums. */
const unknownKey = {
  ...errorBody("Invalid API key", "invalid_api_key"),
  message: "The API key is unknown or has been revoked.",
};

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The format written out again: base62 of the CRC-32 of the rest, 6 digits. */
function expectedChecksum(rest: string): string {
  let value = crc32(rest);
  let digits = "";
  for (let i = 0; i < 6; i++) {
    digits = BASE62[value % 62] + digits;
    value = Math.floor(value / 62);
  }
  return digits;
}

/**
 * A key as created before checksums: `sk_` and 43 random base62 characters, named in the
 * directory as `npm run directory:backfill` names the keys made before it.
 */
async function oldFormatKey(accountId: string): Promise<string> {
  const token = `sk_${randomBase62(43)}`;
  await registerKeyHash(directory(), await hashToken(token), accountId);
  await insertKey(db(), {
    id: newId("key"),
    accountId,
    name: "made before checksums",
    keyPrefix: keyPrefixOf(token),
    tokenHash: await hashToken(token),
    permission: "admin",
    createdAt: Date.now(),
  });
  return token;
}

/** One character replaced by another base62 character. */
function withCharChanged(token: string, index: number): string {
  const current = token[index] ?? "";
  const replacement = current === "x" ? "y" : "x";
  return `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`;
}

const guardCount = async () => (await listDurableObjectIds(env.KEY_GUARD)).length;

describe("API key checksums", () => {
  it("computes the standard CRC-32", () => {
    // The check value of CRC-32/ISO-HDLC (zlib's), and one more from zlib.crc32.
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("The quick brown fox jumps over the lazy dog")).toBe(0x414fa339);
    expect(crc32("")).toBe(0);
    // Non-ASCII text is the CRC of its UTF-8 bytes (zlib.crc32 of Buffer.from(text)), also when
    // the first non-ASCII character comes after ASCII ones.
    expect(crc32("é")).toBe(0x0e048d3e);
    expect(crc32("abc→def😀")).toBe(0x8f084e58);
  });

  it("hashes keys to lowercase hex SHA-256", async () => {
    expect(toHex(new Uint8Array([0, 15, 16, 255]))).toBe("000f10ff");
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("gives a new token 43 random characters and a CRC-32 checksum", async () => {
    const ws = await seedWorkspace();
    const key = await addKey(ws.accountId, "read");
    expect(key.token).toMatch(/^sk_[0-9A-Za-z]{49}$/);
    expect(key.token.slice(-6)).toBe(expectedChecksum(key.token.slice(0, -6)));
    expect((await call("GET", "/v1/accounts", { token: key.token })).status).toBe(200);
  });

  it("refuses a new token with one character changed before any Durable Object is reached", async () => {
    const ws = await seedWorkspace();
    const key = await addKey(ws.accountId, "read");
    // A change in the random part, and one in the checksum itself.
    for (const index of [10, key.token.length - 1]) {
      const before = await guardCount();
      const res = await callJson("GET", "/v1/accounts", { token: withCharChanged(key.token, index) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unknownKey);
      expect(await guardCount()).toBe(before);
    }
  });

  it("still accepts a token made before checksums", async () => {
    const ws = await seedWorkspace();
    const token = await oldFormatKey(ws.accountId);
    for (let i = 0; i < 2; i++) {
      expect((await call("GET", "/v1/accounts", { token })).status).toBe(200);
    }
  });

  it("asks a Durable Object about an unknown old-format token once, then answers from memory", async () => {
    const ws = await seedWorkspace();
    const token = `sk_${randomBase62(43)}`;
    const before = await guardCount();
    expect((await callJson("GET", "/v1/accounts", { token })).body).toEqual(unknownKey);
    expect(await guardCount()).toBe(before + 1);

    // Were the guard asked again it would now admit the token: the refusal proves it was not asked.
    // (No real token can turn known like this: keys made since checksums never use the old form.)
    await registerKeyHash(directory(), await hashToken(token), ws.accountId);
    await insertKey(db(), {
      id: newId("key"),
      accountId: ws.accountId,
      name: "planted",
      keyPrefix: keyPrefixOf(token),
      tokenHash: await hashToken(token),
      permission: "admin",
      createdAt: Date.now(),
    });
    await env.KEY_GUARD.get(env.KEY_GUARD.idFromName(await hashToken(token))).forget();
    const again = await callJson("GET", "/v1/accounts", { token });
    expect(again.status).toBe(401);
    expect(again.body).toEqual(unknownKey);
  });

  it("refuses a revoked old-format key from the very next request", async () => {
    const ws = await seedWorkspace();
    const token = await oldFormatKey(ws.accountId);
    expect((await call("GET", "/v1/accounts", { token })).status).toBe(200);
    const row = await env.DB_2.prepare("SELECT id FROM api_keys WHERE token_hash = ?")
      .bind(await hashToken(token))
      .first<{ id: string }>();
    await revokeKey(db(), env.KEY_GUARD, row?.id ?? "");
    for (let i = 0; i < 2; i++) {
      expect((await callJson("GET", "/v1/accounts", { token })).body).toEqual(unknownKey);
    }
  });
});

describe("the memory of unknown old-format tokens", () => {
  it("forgets a hash a minute after it was found unknown", () => {
    const memory = new RecentlyUnknownTokens(60_000, 10);
    memory.add("a", 1_000);
    expect(memory.has("a", 60_999)).toBe(true);
    expect(memory.has("a", 61_000)).toBe(false);
    expect(memory.size).toBe(0);
  });

  it("holds at most its bound, dropping the least recently used hash", () => {
    const memory = new RecentlyUnknownTokens(60_000, 3);
    for (const hash of ["a", "b", "c"]) memory.add(hash, 0);
    expect(memory.has("a", 1)).toBe(true);
    for (let i = 0; i < 1_000; i++) memory.add(`garbage${i}`, 2);
    expect(memory.size).toBe(3);
    expect(memory.has("a", 3)).toBe(false);
    expect(memory.has("garbage999", 3)).toBe(true);
  });
});
