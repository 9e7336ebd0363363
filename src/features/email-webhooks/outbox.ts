import { type SQL, sql } from "drizzle-orm";
import type { Statement } from "../../db/client";
import { newId } from "../../lib/ids";
import { iso } from "../../lib/time";
import { type EmailEventName, TEST_EVENT } from "../../webhooks/email-events";

/** One fact to tell the account's endpoints about. `at` is when it happened (ms). */
export interface EmailEvent {
  name: EmailEventName;
  data: Record<string, unknown>;
  at: number;
}

/** The envelope's exact bytes, `{ id, event, timestamp, data }`, as they will be signed and sent. */
function envelope(id: string, name: string, data: Record<string, unknown>, at: number) {
  return JSON.stringify({ id, event: name, timestamp: iso(at), data });
}

/**
 * One INSERT ... SELECT for all `events`: the endpoints are chosen in SQL, inside the batch, so the
 * rows are written exactly when the fact is (no read before, no round trip, nothing lost on a
 * crash). `targets` narrows `webhook_endpoints e` beyond the account. The events travel as one JSON
 * parameter; for an account without endpoints the statement is one index probe that finds nothing.
 */
function outboxInsert(
  accountId: string,
  rows: Array<{ id: string; name: string; body: string }>,
  now: number,
  targets: SQL,
) {
  return sql`INSERT INTO email_webhook_outbox
      (account_id, endpoint_id, event_id, event, body, state, attempts, next_attempt_at, created_at)
    SELECT e.account_id, e.id, json_extract(ev.value, '$.id'), json_extract(ev.value, '$.name'),
           json_extract(ev.value, '$.body'), 'pending', 0, ${now}, ${now}
    FROM webhook_endpoints e, json_each(${JSON.stringify(rows)}) ev
    WHERE e.account_id = ${accountId} AND ${targets}`;
}

/** What a change adds to its batch, and the event ids to announce once the batch has committed. */
export interface RecordedEmailEvents {
  statements: Statement[];
  eventIds: string[];
}

/**
 * The statements that queue `events` for every enabled endpoint of the account subscribed to them:
 * put them in the same D1 batch as the facts, then announce `eventIds` (announce.ts).
 */
export function emailWebhookEventStatements(
  accountId: string,
  events: EmailEvent[],
  now: number,
): RecordedEmailEvents {
  if (events.length === 0) return { statements: [], eventIds: [] };
  const rows = events.map((event) => {
    const id = newId("evt");
    return { id, name: event.name, body: envelope(id, event.name, event.data, event.at) };
  });
  const subscribed = sql`e.enabled = 1
    AND EXISTS (SELECT 1 FROM json_each(e.events) s WHERE s.value = json_extract(ev.value, '$.name'))`;
  return {
    statements: [outboxInsert(accountId, rows, now, subscribed)],
    eventIds: rows.map((row) => row.id),
  };
}

/** The statement that queues a `webhook.test` event for one endpoint, enabled or not. */
export function testEventStatements(accountId: string, endpointId: string, now: number): RecordedEmailEvents {
  const id = newId("evt");
  const data = { endpoint_id: endpointId, message: "A test event sent from the API or the dashboard." };
  const rows = [{ id, name: TEST_EVENT, body: envelope(id, TEST_EVENT, data, now) }];
  return { statements: [outboxInsert(accountId, rows, now, sql`e.id = ${endpointId}`)], eventIds: [id] };
}
