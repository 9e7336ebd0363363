import { sql } from "drizzle-orm";
import { runBatch } from "../../src/db/client";
import { insertFrom } from "../../src/features/email-webhooks/fact-events";
import { newId } from "../../src/lib/ids";
import { type EmailLaunch, sweepEmailWebhooks } from "../../src/webhooks/email-delivery";
import type { EmailEventName } from "../../src/webhooks/email-events";
import { attemptEmailDeliveries } from "../../src/webhooks/email-sender-run";
import { callJson, db, shardEnv } from "./helpers";

export interface EndpointBody {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret: string;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface AttemptBody {
  event_id: string;
  event: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  created_at: string;
  payload: { id: string; event: string; timestamp: string; data: Record<string, unknown> };
}

/** An endpoint made through the API, as a user would. */
export async function createEndpoint(
  token: string,
  body: { url: string; events: string[]; enabled?: boolean },
) {
  const { status, body: created } = await callJson<EndpointBody>("POST", "/v1/webhooks", { token, body });
  if (status !== 201) throw new Error(`POST /v1/webhooks answered ${status}: ${JSON.stringify(created)}`);
  return created;
}

/** An event to put in the outbox as a fact would, with the data given. */
export interface EmailEvent {
  name: EmailEventName;
  data: Record<string, unknown>;
}

/**
 * Events committed to the outbox of every subscribed endpoint, through the facts' own envelope
 * (fact-events.ts `insertFrom`) at `now`, and never announced: what a crash after the commit leaves.
 */
export async function commitEvents(accountId: string, events: EmailEvent[], now = Date.now()) {
  const ids = events.map(() => newId("evt"));
  await runBatch(
    db(),
    events.map((event, i) =>
      insertFrom(
        sql`SELECT ${accountId} AS account_id, ${ids[i]} AS id, ${JSON.stringify(event.data)} AS data`,
        event.name,
        now,
      ),
    ),
  );
  return ids;
}

/** Runs each chunk's attempts to their end inside the sweep, so the sweep's promise covers its deliveries. */
export const inline: EmailLaunch = (jobs) => attemptEmailDeliveries(db(), shardEnv(), jobs);

/** The minute cron's sweep of the test shard, as `everyShard` runs it there. */
export const sweepAt = (now: number) =>
  sweepEmailWebhooks(db(), shardEnv(), now, inline, () => {
    throw new Error("the inline launcher never fails");
  });

export async function deliveriesOf(token: string, id: string) {
  return callJson<{ data: AttemptBody[]; pagination: { limit: number; offset: number; total: number } }>(
    "GET",
    `/v1/webhooks/${id}/deliveries`,
    { token },
  );
}

/** HMAC-SHA256 hex, computed here with WebCrypto: not the service's signer. */
export async function hmacHex(secret: string, message: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(mac)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
