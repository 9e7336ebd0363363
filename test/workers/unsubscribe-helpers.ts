import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { newId } from "../../src/lib/ids";
import { unsubscribeToken } from "../../src/mail/unsubscribe-token";
import { call, callJson, shardD1Of } from "./helpers";

/** A campaign row written directly: the campaigns API is not what these tests are about. */
export async function seedCampaign(accountId: string) {
  const id = newId("cmp");
  const now = Date.now();
  await shardD1Of()
    .prepare(
      `INSERT INTO campaigns (id, account_id, name, "from", subject, created_at, updated_at)
     VALUES (?1, ?2, 'News', 'news@example.com', 'Hello', ?3, ?3)`,
    )
    .bind(id, accountId, now)
    .run();
  return id;
}

export async function seedCustomer(token: string, email: string) {
  const { status, body } = await callJson<{ id: string }>("POST", "/v1/customers", {
    token,
    body: { email },
  });
  expect(status).toBe(201);
  return body.id;
}

export const tokenFor = (customerId: string, campaignId: string) =>
  unsubscribeToken(env.ENCRYPTION_KEY, { customerId, campaignId });

/** A mail provider's RFC 8058 post: from its server, so no Origin, Referer or cookie. */
export const oneClick = (token: string) =>
  call("POST", `/u/${token}`, {
    rawBody: "List-Unsubscribe=One-Click",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });

/** The confirmation page's button (any origin: the route makes no origin check). */
export const pageButton = (token: string, headers: Record<string, string> = {}) =>
  call("POST", `/u/${token}`, {
    rawBody: "source=page",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });

export async function unsubscribedCount(campaignId: string) {
  const row = await shardD1Of()
    .prepare("SELECT unsubscribed_count AS n FROM campaigns WHERE id = ?")
    .bind(campaignId)
    .first<{ n: number }>();
  return row?.n;
}

export async function subscriptionOf(customerId: string) {
  const customer = await shardD1Of()
    .prepare("SELECT unsubscribed, unsubscribed_at FROM customers WHERE id = ?")
    .bind(customerId)
    .first<{ unsubscribed: number; unsubscribed_at: number | null }>();
  const records = await shardD1Of()
    .prepare("SELECT campaign_id, method, created_at FROM unsubscribes WHERE customer_id = ?")
    .bind(customerId)
    .all<{ campaign_id: string | null; method: string; created_at: number }>();
  return { customer, records: records.results };
}
