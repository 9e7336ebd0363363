import { type SQL, sql } from "drizzle-orm";
import { newId } from "../../lib/ids";
import { iso } from "../../lib/time";
import type { SuppressedSend } from "../../mail/delivery-outcomes";
import type { EmailEventName } from "../../webhooks/email-events";
import { tagsJsonOf } from "../emails/email-tags";
import { SYSTEM_SOURCE } from "../emails/system-mail";

/**
 * The outbox rows of a fact about emails, built in SQL from the emails' own rows inside the fact's
 * batch: nothing is read before it, and the fact's guard (`which`) decides in the same
 * transaction, so a redelivered queue message, a retry or a racing sweep adds no event twice.
 *
 * The envelope, `{ id, event, timestamp, data }`, is written by json_object (which keeps key order). Each event's id is made in SQL (the ULID time of `now`, then 16 random hex
 * digits: still an `evt_` ULID in form, ordered by time) inside a MATERIALIZED CTE, so it is drawn
 * once and every endpoint receives the same id. For an account without endpoints the CTE stops at
 * one probe of `webhook_endpoints_account_created` per email.
 */

/** Per recipient: the recipients as one JSON parameter, `[{ address, response }]`. */
export interface PerRecipient {
  rows: Array<{ emailId?: string; address: string; response?: string | null }>;
}

export interface FactEvents {
  name: EmailEventName;
  /**
   * The fact's guard, a condition on `emails e` (per recipient also on `r.value ->> '$.address'`).
   * Unqualified columns resolve to `e` only in a per-email fact: qualify them per recipient.
   */
  which: SQL;
  recipients?: PerRecipient;
  /** More `data`: `'key', value` pairs for json_object. */
  extra?: SQL;
}

/** The one recipient of an email that has one; null for several (the pixel and links are per email). */
const onlyRecipient = sql`(SELECT CASE WHEN count(*) = 1 THEN min(x.address) END
  FROM email_recipients x WHERE x.email_seq = e.seq)`;

/** An automation's email names it in its `automation` tag (automations/engine/steps/send-email.ts). */
const automationOf = sql`CASE WHEN e.source = 'automation' THEN
  (SELECT t.value FROM email_tags t WHERE t.email_seq = e.seq AND t.name = 'automation') END`;

/** Every enabled endpoint of the fact's workspace that subscribes to `name`. */
const subscribedTo = (name: string) =>
  sql`w.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(w.events) s WHERE s.value = ${name})`;

/**
 * The envelope and the endpoints: what every outbox row shares once its facts `f` (account_id, id,
 * data) are chosen. The one place the envelope `{ id, event, timestamp, data }` is written, webhook.test's
 * included; `endpoints` narrows `webhook_endpoints w` within the fact's workspace.
 */
export function insertFrom(facts: SQL, name: string, now: number, endpoints: SQL = subscribedTo(name)): SQL {
  return sql`WITH f AS MATERIALIZED (${facts})
    INSERT INTO email_webhook_outbox
      (account_id, endpoint_id, event_id, event, body, state, attempts, next_attempt_at, created_at)
    SELECT f.account_id, w.id, f.id, ${name},
      json_object('id', f.id, 'event', ${name}, 'timestamp', ${iso(now)}, 'data', json(f.data)),
      'pending', 0, ${now}, ${now}
    FROM f JOIN webhook_endpoints w ON w.account_id = f.account_id
    WHERE ${endpoints}`;
}

/**
 * `evt_` and the 10 time characters of a ULID of now: every event id made from now on is at least
 * this, so the events of facts committed after it can be found and announced (announce.ts).
 */
export const eventIdMark = () => newId("evt").slice(0, 14);

/**
 * A read to end a fact's batch with: whether any event was written since `mark`. A hot path (an
 * open, a click) announces only then, so a fact that told no endpoint (no webhooks, or not the
 * first open) costs no round trip after its batch.
 */
export const eventsWrittenSince = (mark: string) =>
  sql`SELECT EXISTS (SELECT 1 FROM email_webhook_outbox WHERE event_id >= ${mark} AND event_id < 'evt~') AS written`;

/** The answer of `eventsWrittenSince`, the last statement of a batch's results. */
export const wroteEvents = (results: D1Result[]) =>
  Boolean((results.at(-1)?.results[0] as { written?: number } | undefined)?.written);

/** A fresh event id per row, in SQL: the mark of now, then 16 random hex digits. */
const eventId = () => sql`${eventIdMark()} || hex(randomblob(8))`;

const hasEndpoints = sql`EXISTS (SELECT 1 FROM webhook_endpoints w0 WHERE w0.account_id = e.account_id)`;

/** The statement that writes `fact`'s events for every subscribed endpoint, at `now`. */
export function factEventStatement(fact: FactEvents, now: number): SQL {
  const extra = fact.extra ? sql`, ${fact.extra}` : sql``;
  const common = (recipient: SQL) => sql`e.account_id AS account_id, ${eventId()} AS id,
    json_object('email_id', e.id, 'recipient', ${recipient}, 'from', e.from_header, 'subject', e.subject,
      'tags', json(${tagsJsonOf(sql`e.seq`)}), 'campaign_id', e.campaign_id, 'automation_id', ${automationOf}${extra}) AS data`;
  const facts = fact.recipients
    ? sql`SELECT ${common(sql`r.value ->> '$.address'`)}
        FROM emails e, json_each(${JSON.stringify(fact.recipients.rows)}) r
        WHERE ${fact.which} AND e.source != ${SYSTEM_SOURCE} AND ${hasEndpoints}`
    : sql`SELECT ${common(onlyRecipient)}
        FROM emails e WHERE ${fact.which} AND e.source != ${SYSTEM_SOURCE} AND ${hasEndpoints}`;
  return insertFrom(facts, fact.name, now);
}

/** The response a per-recipient fact carries in its `data`, from the recipients' JSON. */
export const recipientResponse = sql`'response', r.value ->> '$.response'`;

/**
 * A send refused for suppressed recipients: no email row exists, so `data` comes from the send
 * (`email_id` null), one event per suppressed recipient, when `when` (given the send's JSON) holds.
 */
export function suppressedEventStatement(
  accountId: string,
  sends: SuppressedSend[],
  when: (send: SQL) => SQL,
  now: number,
): SQL {
  const facts = sql`SELECT ${accountId} AS account_id, ${eventId()} AS id,
      json_object('email_id', NULL, 'recipient', a.value, 'from', s.value ->> '$.from',
        'subject', s.value ->> '$.subject', 'tags', json(s.value -> '$.tags'),
        'campaign_id', s.value ->> '$.campaignId', 'automation_id', s.value ->> '$.automationId') AS data
    FROM json_each(${JSON.stringify(sends)}) s, json_each(s.value, '$.recipients') a
    WHERE EXISTS (SELECT 1 FROM webhook_endpoints w0 WHERE w0.account_id = ${accountId})
      AND ${when(sql`s.value`)}
      AND EXISTS (SELECT 1 FROM suppressions p WHERE p.account_id = ${accountId} AND p.email = lower(a.value))`;
  return insertFrom(facts, "email.suppressed", now);
}

/** A customer who unsubscribed by a campaign's or an automation's link (`campaignId` as the token names it). */
export interface Unsubscribed {
  accountId: string;
  customerId: string;
  campaignId: string;
  method: string;
}

/**
 * The `contact.unsubscribed` event, for the unsubscribe's own batch, before the customer's update:
 * `stillSubscribed` is its guard, so a second post adds none. An automation's token names the
 * automation's ULID in the campaign's place (automations/engine/steps/send-email.ts): whichever
 * of the workspace's campaigns or automations it names is told, the other null.
 */
export function unsubscribedEventStatement(u: Unsubscribed, stillSubscribed: SQL, now: number): SQL {
  const automationId = `aut_${u.campaignId.slice(4)}`;
  const facts = sql`SELECT c.account_id AS account_id, ${eventId()} AS id,
      json_object('contact_id', c.id, 'email', c.email, 'method', ${u.method},
        'campaign_id', (SELECT id FROM campaigns WHERE id = ${u.campaignId} AND account_id = c.account_id),
        'automation_id', (SELECT id FROM automations WHERE id = ${automationId} AND account_id = c.account_id)) AS data
    FROM customers c
    WHERE c.id = ${u.customerId} AND c.account_id = ${u.accountId} AND ${stillSubscribed}
      AND EXISTS (SELECT 1 FROM webhook_endpoints w0 WHERE w0.account_id = c.account_id)`;
  return insertFrom(facts, "contact.unsubscribed", now);
}
