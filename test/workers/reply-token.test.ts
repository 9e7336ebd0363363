import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { base64Encode } from "../../src/lib/crypto";
import { newId } from "../../src/lib/ids";
import { replyToken, verifyReplyToken } from "../../src/mail/reply-token";

const KEY = env.ENCRYPTION_KEY;
/** Another character of the token's alphabet in place of `c`. */
const other = (c: string) => (c === "0" ? "1" : "0");

describe("reply tokens", () => {
  it("name the ticket, verify back to it, and fit a lowercase email local part", async () => {
    const ticketId = newId("tkv");
    const token = await replyToken(KEY, ticketId);
    expect(token).toMatch(/^[0-9a-z]+$/);
    expect(token.length).toBeLessThanOrEqual(48);
    expect(token).not.toContain(ticketId);
    expect(await verifyReplyToken(KEY, token)).toBe(ticketId);
    // Mail systems may change the case of a local part.
    expect(await verifyReplyToken(KEY, token.toUpperCase())).toBe(ticketId);
  });

  it("refuses a token altered in any one character", async () => {
    const token = await replyToken(KEY, newId("tkv"));
    for (let i = 0; i < token.length; i++) {
      const altered = `${token.slice(0, i)}${other(token[i] as string)}${token.slice(i + 1)}`;
      expect(await verifyReplyToken(KEY, altered), `position ${i}`).toBeNull();
    }
  });

  it("cannot be turned from one ticket into another", async () => {
    const [a, b] = [newId("tkv"), newId("tkv")];
    const [tokenA, tokenB] = [await replyToken(KEY, a), await replyToken(KEY, b)];
    const named = tokenB.slice(0, 26);
    const signature = tokenA.slice(26);
    expect(await verifyReplyToken(KEY, `${named}${signature}`)).toBeNull();
    expect(await verifyReplyToken(KEY, tokenB)).toBe(b);
  });

  it("refuses tokens of another deployment, of the wrong shape, or of the old raw form", async () => {
    const ticketId = newId("tkv");
    const elsewhere = await replyToken(base64Encode(crypto.getRandomValues(new Uint8Array(32))), ticketId);
    const token = await replyToken(KEY, ticketId);
    for (const bad of [elsewhere, "", token.slice(0, -1), `${token}0`, ticketId, token.replace(/.$/, "-")]) {
      expect(await verifyReplyToken(KEY, bad), bad).toBeNull();
    }
  });
});
