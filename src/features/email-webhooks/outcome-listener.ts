import { sql } from "drizzle-orm";
import type { DeliveryOutcomeListener, RecipientFact } from "../../mail/delivery-outcomes";
import type { EmailEventName } from "../../webhooks/email-events";
import { factEventStatement, recipientResponse, suppressedEventStatement } from "./fact-events";

const perRecipient = (facts: RecipientFact[]) => ({
  rows: facts.map((f) => ({ emailId: f.emailId, address: f.address, response: f.response })),
});

/**
 * The email event webhooks' listener on the delivery outcome hook: each fact writes its events
 * to the outbox in its own batch, guarded as it is (docs/webhooks.md "Which fact makes which event"):
 * - email.sent: the transport accepted the email for someone the first time (`sent_at` unset), under the claim;
 * - email.delivered / email.delivery_delayed: per recipient the transport accepted / deferred, under
 *   the attempt's claim (a delay once per attempt), and a DSN's `delayed` recipients once per report text;
 * - email.bounced / email.complained: per recipient, its first hard bounce / complaint of the email;
 * - email.failed: an attempt ended `failed` under its claim, or the sweep closed it unsent;
 * - email.opened: the email's first open; email.clicked: the email's first click on each link;
 * - email.suppressed: per suppressed recipient of a refused send, under the refusal's own guard.
 * The service's own mail (source `system`) makes none.
 */
export const emailWebhookEvents: DeliveryOutcomeListener = {
  accepted: () => [],
  handedOff: () => [],
  // `claimed` reads `emails e` by unqualified columns: these facts read no other table.
  ended: (claimed, status, reached, now) => {
    if (reached)
      return [factEventStatement({ name: "email.sent", which: sql`${claimed} AND e.sent_at IS NULL` }, now)];
    if (status === "failed") return [factEventStatement({ name: "email.failed", which: claimed }, now)];
    return [];
  },
  recipients: (facts, guard, now) =>
    (
      [
        ["email.delivered", "accepted"],
        ["email.delivery_delayed", "deferred"],
      ] as Array<[EmailEventName, RecipientFact["state"]]>
    ).flatMap(([name, state]) => {
      const group = facts.filter((f) => f.state === state);
      if (group.length === 0) return [];
      return [
        factEventStatement(
          {
            name,
            which: sql`e.id = r.value ->> '$.emailId' AND ${guard}`,
            recipients: perRecipient(group),
            extra: recipientResponse,
          },
          now,
        ),
      ];
    }),
  // Before the bounce's own insert: the first of its kind for this email and recipient. A soft
  // bounce is the transport's deferral, told by `recipients` as email.delivery_delayed.
  bounced: (emailId, address, kind, now) => {
    if (kind === "soft") return [];
    return [
      factEventStatement(
        {
          name: kind === "hard" ? "email.bounced" : "email.complained",
          which: sql`e.id = ${emailId} AND NOT EXISTS (SELECT 1 FROM bounces b
            WHERE b.email_id = ${emailId} AND b.kind = ${kind} AND b.email = ${address})`,
          recipients: { rows: [{ address }] },
        },
        now,
      ),
    ];
  },
  delivered: () => [],
  recovered: (handedOff, now) => [
    factEventStatement({ name: "email.failed", which: sql`${handedOff} AND sent_at IS NULL` }, now),
  ],
  firstOpen: (emailId, now) => [
    factEventStatement(
      { name: "email.opened", which: sql`e.id = ${emailId} AND e.first_opened_at IS NULL` },
      now,
    ),
  ],
  firstClick: (emailId, now, url) => [
    factEventStatement(
      {
        name: "email.clicked",
        which: sql`e.id = ${emailId} AND NOT EXISTS (SELECT 1 FROM email_events v
          WHERE v.email_seq = e.seq AND v.type = 'clicked' AND v.detail = ${url})`,
        extra: sql`'link', ${url}`,
      },
      now,
    ),
  ],
  firstBounce: () => [],
  suppressed: (accountId, sends, when, now) => {
    const told = sends.filter((send) => (send.recipients?.length ?? 0) > 0);
    return told.length === 0 ? [] : [suppressedEventStatement(accountId, told, when, now)];
  },
};
