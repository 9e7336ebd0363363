import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { unsubscribeToken, unsubscribeUrl, verifyUnsubscribeToken } from "../../src/mail/unsubscribe-token";

describe("unsubscribe tokens", () => {
  it("name the customer and campaign they were made for, in any case", async () => {
    const target = { customerId: newId("cus"), campaignId: newId("cmp") };
    const token = await unsubscribeToken(env.ENCRYPTION_KEY, target);
    expect(token).toMatch(/^[0-9a-z]{84}$/);
    expect(await verifyUnsubscribeToken(env.ENCRYPTION_KEY, token)).toEqual(target);
    expect(await verifyUnsubscribeToken(env.ENCRYPTION_KEY, token.toUpperCase())).toEqual(target);
    const accountId = newId("acc");
    expect(await unsubscribeUrl(env, target, accountId)).toBe(
      `${env.PUBLIC_BASE_URL.replace(/\/$/, "")}/u/${token}?w=${accountId}`,
    );
  });

  it("refuse a tampered token, another secret's, or another customer's ids with this MAC", async () => {
    const target = { customerId: newId("cus"), campaignId: newId("cmp") };
    const token = await unsubscribeToken(env.ENCRYPTION_KEY, target);
    const flipped = `${token.slice(0, -1)}${token.endsWith("0") ? "1" : "0"}`;
    expect(await verifyUnsubscribeToken(env.ENCRYPTION_KEY, flipped)).toBeNull();
    const otherSecret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    expect(await verifyUnsubscribeToken(otherSecret, token)).toBeNull();
    const other = await unsubscribeToken(env.ENCRYPTION_KEY, { ...target, customerId: newId("cus") });
    expect(
      await verifyUnsubscribeToken(env.ENCRYPTION_KEY, `${other.slice(0, 52)}${token.slice(52)}`),
    ).toBeNull();
    expect(await verifyUnsubscribeToken(env.ENCRYPTION_KEY, "short")).toBeNull();
  });
});
