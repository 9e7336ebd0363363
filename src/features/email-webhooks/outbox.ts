import { sql } from "drizzle-orm";
import type { Statement } from "../../db/client";
import { newId } from "../../lib/ids";
import { TEST_EVENT } from "../../webhooks/email-events";
import { insertFrom } from "./fact-events";

/** What a change adds to its batch, and the event ids to announce once the batch has committed. */
export interface RecordedEmailEvents {
  statements: Statement[];
  eventIds: string[];
}

/**
 * The statement that queues a `webhook.test` event for one endpoint of the account, enabled or
 * not: the envelope is the one every email event has (fact-events.ts `insertFrom`). The id is made
 * here, not in SQL, because the API answers it.
 */
export function testEventStatements(accountId: string, endpointId: string, now: number): RecordedEmailEvents {
  const id = newId("evt");
  const facts = sql`SELECT ${accountId} AS account_id, ${id} AS id,
    json_object('endpoint_id', ${endpointId}, 'message', 'A test event sent from the API or the dashboard.') AS data`;
  return { statements: [insertFrom(facts, TEST_EVENT, now, sql`w.id = ${endpointId}`)], eventIds: [id] };
}
