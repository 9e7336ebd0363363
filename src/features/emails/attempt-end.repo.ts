import { sql } from "drizzle-orm";
import type { Statement } from "../../db/client";
import { deliveryOutcomes, type RecipientFact } from "../../mail/delivery-outcomes";
import { bounceStatements } from "../suppressions/bounces";
import { claimedIn, LEASE_MS, ownedBy, stillClaimedBy } from "./delivery.repo";
import type { EmailRow } from "./emails.repo";
import { unshareResponses } from "./shared-response";

/** What one attempt made of one recipient, as it is written. */
export interface RecipientOutcome {
  address: string;
  /** `failed`: deferred on the last of its tries, or its message could not be built. */
  state: "accepted" | "deferred" | "rejected" | "failed";
  response: string;
  /** A deferred recipient is not tried again before this time. */
  retryAt?: number | null;
  /** The transport's refusal of the recipient itself (not of the message or session): a bounce. */
  bounce?: "hard" | "soft";
  /** It spends one of the recipient's tries (default): all but the refusals that no retry could change. */
  tried?: boolean;
  /** The transport's answer (default), which listeners hear; not a failure of ours before it. */
  fromTransport?: boolean;
}

/** The fact listeners hear: a recipient that failed was deferred by this attempt. */
const factOf = (emailId: string, o: RecipientOutcome): RecipientFact => ({
  emailId,
  address: o.address,
  state: o.state === "failed" ? "deferred" : o.state,
  response: o.response,
});

/** One attempt's outcomes to write. */
interface Outcomes {
  email: EmailRow;
  outcomes: RecipientOutcome[];
}

/**
 * The recipients' outcomes of these attempts, each under its email's claim, in one statement per
 * listener and one for their states (the attempts of a round together): what listeners count per
 * recipient (the email webhooks' delivered and delayed events), each recipient's state, answer,
 * tries and due time, then the bounces the transport's refusals make.
 */
function recipientStatements(attempts: Outcomes[], now: number): Statement[] {
  const told = attempts.filter((attempt) => attempt.outcomes.length > 0);
  if (told.length === 0) return [];
  const rows = told.flatMap(({ email, outcomes }) =>
    outcomes.map((o) => ({
      seq: email.seq,
      claim: email.attempts,
      address: o.address,
      state: o.state,
      response: o.response,
      retry_at: o.retryAt ?? null,
      tried: o.tried === false ? 0 : 1,
    })),
  );
  const bounces = told.flatMap(({ email, outcomes }) =>
    outcomes.flatMap((o) =>
      o.bounce
        ? bounceStatements(
            {
              accountId: email.accountId,
              email: o.address,
              kind: o.bounce,
              emailId: email.id,
              detail: o.response,
            },
            now,
          )
        : [],
    ),
  );
  const facts = told.flatMap(({ email, outcomes }) =>
    outcomes.filter((o) => o.fromTransport !== false).map((o) => factOf(email.id, o)),
  );
  return [
    ...deliveryOutcomes.recipients(
      facts,
      claimedIn(
        told.map((attempt) => attempt.email),
        "e",
      ),
      now,
    ),
    sql`UPDATE email_recipients SET state = o.value ->> 'state', response = o.value ->> 'response',
          attempts = attempts + (o.value ->> 'tried'), retry_at = o.value ->> 'retry_at'
        FROM json_each(${JSON.stringify(rows)}) AS o
        WHERE email_recipients.email_seq = o.value ->> 'seq' AND email_recipients.address = o.value ->> 'address'
          AND EXISTS (SELECT 1 FROM emails WHERE seq = o.value ->> 'seq'
            AND status = 'sending' AND attempts = o.value ->> 'claim')`,
    ...bounces,
  ];
}

/**
 * Outcomes written while the attempt goes on (other envelopes are still at the transport), so that
 * a crash leaves in doubt only those truly in flight. The first acceptance of the email is counted
 * here, as the attempt's end would (its `sent_at` set, so that end and the sweep count it no more),
 * and the lease is renewed.
 */
export function progressStatements(email: EmailRow, outcomes: RecipientOutcome[], now: number): Statement[] {
  const reached = outcomes.some((o) => o.state === "accepted");
  return [
    ...(reached ? deliveryOutcomes.ended(claimedIn([email]), "sending", true, now) : []),
    ...recipientStatements([{ email, outcomes }], now),
    sql`UPDATE emails SET lease_until = ${now + LEASE_MS},
          sent_at = ${reached ? sql`coalesce(sent_at, ${now})` : sql`sent_at`}
        WHERE id = ${email.id} AND status = 'sending' AND attempts = ${email.attempts}`,
  ];
}

/**
 * What an attempt's end changes on its email. A key left out keeps the column as it is; a null
 * empties it.
 */
export interface AttemptEnd {
  status: string;
  lastEvent: string;
  lastResponse?: string | null;
  nextAttemptAt?: number | null;
  size?: number;
  storedBytes?: number;
  sentAt?: number;
}

/** The columns of `emails` an attempt's end writes, by their keys in `AttemptEnd`. */
const END_COLUMNS = {
  status: "status",
  lastEvent: "last_event",
  lastResponse: "last_response",
  nextAttemptAt: "next_attempt_at",
  size: "size",
  storedBytes: "stored_bytes",
  sentAt: "sent_at",
} as const satisfies Record<keyof AttemptEnd, string>;

/** How one attempt ended, as it is written (see `attemptEndStatements`). */
export interface AttemptEndItem {
  email: EmailRow;
  /** The outcomes not written yet. */
  outcomes: RecipientOutcome[];
  changes: AttemptEnd;
  /** The event's detail. */
  detail: string | null;
  now: number;
}

/**
 * The statements that record how these attempts ended (the attempts of one round of writes), for
 * one batch, a statement for all of them at each step rather than one an email. First what counts
 * the ends (a campaign's stats, the report's rollups, the webhooks' events), once for each way of
 * ending (status, and whether the email reached someone); then the recipients' outcomes not
 * written yet, the storage the built messages take, the events and the emails' rows, and last
 * the shared answers' copies dropped. Every row is fenced by its email's claim, so an attempt
 * whose email was taken back writes nothing. The counts read the emails' rows as they were: the
 * rows' own update comes after them. One email's statements keep the order they had when each
 * email was written alone; the emails of a round touch only their own rows and add to shared
 * counters, so writing them side by side changes no outcome.
 */
export function attemptEndStatements(items: AttemptEndItem[]): Statement[] {
  const ways = new Map<string, AttemptEndItem[]>();
  for (const item of items) {
    const way = `${item.changes.status ?? ""}:${item.changes.sentAt != null}`;
    ways.set(way, [...(ways.get(way) ?? []), item]);
  }
  const counts = [...ways.values()].flatMap((ended) => {
    const status = ended[0]?.changes.status ?? "";
    const reached = ended[0]?.changes.sentAt != null;
    const now = Math.max(...ended.map((item) => item.now));
    const ofCampaigns = ended.filter((item) => item.email.campaignId).map((item) => item.email);
    return [
      ...(ofCampaigns.length > 0 ? deliveryOutcomes.delivered(claimedIn(ofCampaigns), status, now) : []),
      ...deliveryOutcomes.ended(claimedIn(ended.map((item) => item.email)), status, reached, now),
    ];
  });
  const latest = Math.max(...items.map((item) => item.now));
  return [
    ...counts,
    ...recipientStatements(items, latest),
    ...(items.some((item) => item.changes.storedBytes !== undefined) ? [storageStatement(items)] : []),
    endEventsStatement(items),
    endUpdateStatement(items),
    ...unshareResponses(items.map((item) => item.email.seq)),
  ];
}

/** The ends as one JSON parameter: each email's id, claim and what its end writes. */
const endsJson = (items: AttemptEndItem[]) =>
  JSON.stringify(
    items.map(({ email, changes, detail, now }) => ({
      id: email.id,
      seq: email.seq,
      attempts: email.attempts,
      detail,
      now,
      changes,
    })),
  );

/**
 * The storage the built messages take, each email's in place of what it held, under its claim:
 * one update per workspace of the round, kept at zero or more for the round's sum.
 */
function storageStatement(items: AttemptEndItem[]): Statement {
  const stored = sql`FROM json_each(${endsJson(items)}) AS j JOIN emails e ON e.id = j.value ->> '$.id'
    WHERE e.status = 'sending' AND e.attempts = j.value ->> '$.attempts'
      AND json_type(j.value, '$.changes.storedBytes') IS NOT NULL`;
  return sql`UPDATE account_usage
    SET storage_bytes = max(storage_bytes + (SELECT coalesce(sum((j.value ->> '$.changes.storedBytes') - e.stored_bytes), 0)
      ${stored} AND e.account_id = account_usage.account_id), 0)
    WHERE account_id IN (SELECT e.account_id ${stored})`;
}

/** Each attempt's event (its end, with the transport's answer or the reason), under its claim. */
function endEventsStatement(items: AttemptEndItem[]): Statement {
  return sql`INSERT INTO email_events (email_seq, type, detail, created_at)
    SELECT j.value ->> '$.seq', j.value ->> '$.changes.lastEvent', j.value ->> '$.detail', j.value ->> '$.now'
    FROM json_each(${endsJson(items)}) AS j WHERE ${stillClaimedBy("j")}`;
}

/**
 * Each email's row as its attempt ended, under its claim: the lease given back, and the columns
 * its end names (a column it leaves out keeps its value: `json_type` is NULL for a key that is not
 * there, 'null' for a null).
 */
function endUpdateStatement(items: AttemptEndItem[]): Statement {
  const columns = Object.entries(END_COLUMNS).map(
    ([
      key,
      column,
    ]) => sql`${sql.identifier(column)} = CASE WHEN json_type(j.value, ${`$.changes.${key}`}) IS NULL
      THEN ${sql.identifier(column)} ELSE j.value ->> ${`$.changes.${key}`} END`,
  );
  return sql`UPDATE emails SET ${sql.join(columns, sql`, `)}, lease_until = NULL,
      last_event_at = j.value ->> '$.now', updated_at = j.value ->> '$.now'
    FROM json_each(${endsJson(items)}) AS j
    WHERE emails.id = j.value ->> '$.id' AND emails.status = 'sending' AND emails.attempts = j.value ->> '$.attempts'`;
}

/**
 * Ends an attempt that never reached the transport and never will (the message cannot be built,
 * or the workspace is suspended: `response` then says so): the email fails and so does each of its
 * open recipients, none of them tried. `storedBytes` is what the email still keeps in R2, so the
 * storage reserved for an unbuilt message is given back.
 */
export function failBeforeHandoffStatements(
  email: EmailRow,
  reason: string,
  storedBytes: number,
  now: number,
  response = `Could not build the message: ${reason}`,
): Statement[] {
  return [
    sql`UPDATE email_recipients SET state = 'failed', response = ${response}, retry_at = NULL
        WHERE email_seq = ${email.seq} AND state IN ('pending', 'deferred') AND ${ownedBy(email)}`,
    ...attemptEndStatements([
      {
        email,
        outcomes: [],
        changes: { status: "failed", lastEvent: "failed", lastResponse: response, storedBytes },
        detail: reason,
        now,
      },
    ]),
  ];
}
