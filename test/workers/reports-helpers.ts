import { mailboxEntriesOf } from "./dev-mailbox-helpers";
import { call, callJson, eventually, shardD1Of } from "./helpers";
import { fill } from "./inbound-helpers";
import { endpoint, inboxWithWebhooks } from "./webhook-helpers";

export interface EmailBody {
  status: string;
  last_event: string;
  last_response: string | null;
  message_id: string;
  recipients: Array<{ address: string; status: string; response: string | null }>;
}

export const MAILER_DAEMON = "";

/**
 * A workspace (in `shard`, TEST_SHARD unless named) with a sending domain and an inbox whose
 * webhooks take every ticket and message event.
 */
export async function setUp(shard?: string) {
  const hook = endpoint();
  const domain = `rep-${crypto.randomUUID().slice(0, 8)}.test`;
  const address = `support@${domain}`;
  const { ws } = await inboxWithWebhooks(
    [{ url: hook.url, events: ["ticket.created", "ticket.updated", "message.created", "inbox.updated"] }],
    { emailAddress: address, ...(shard ? { shard } : {}) },
  );
  return { ws, hook, domain, address };
}

/** The Return-Path `recipient`'s copy of the email arrived with, as that recipient reads it. */
export async function returnPathOf(emailId: string, recipient: string) {
  const copy = (await mailboxEntriesOf(emailId)).find((m) => m.recipient === recipient);
  return /^Return-Path: <([^>]+)>\r\n/.exec(copy?.raw ?? "")?.[1] ?? "";
}

/**
 * One email sent from the workspace's domain (capture transport) to `to` (and `bcc`): its id,
 * Message-ID, kept MIME, and the bounce address (Return-Path) of its first recipient's copy.
 */
export async function sentEmail(
  to: string[] = ["gone@example.net"],
  existing?: Awaited<ReturnType<typeof setUp>>,
  bcc: string[] = [],
) {
  const setup = existing ?? (await setUp());
  const { body } = await callJson<{ id: string }>("POST", "/v1/emails", {
    token: setup.ws.token,
    body: { from: `Acme <hello@${setup.domain}>`, to, bcc, subject: "Your receipt", text: "Thank you." },
  });
  const email = await eventually(async () => {
    const { body: e } = await callJson<EmailBody>("GET", `/v1/emails/${body.id}`, { token: setup.ws.token });
    return e.status === "sent" ? e : null;
  });
  const content = await (
    await call("GET", `/v1/emails/${body.id}/content`, { token: setup.ws.token })
  ).text();
  const bounce = await returnPathOf(body.id, to[0] ?? "");
  return { ...setup, id: body.id, messageId: email.message_id, bounce, content };
}

export const emailOf = async (token: string, id: string) =>
  (await callJson<EmailBody>("GET", `/v1/emails/${id}`, { token })).body;

export const suppressionsOf = async (token: string) =>
  (
    await callJson<{ data: Array<{ email: string; reason: string; source_email_id: string | null }> }>(
      "GET",
      "/v1/emails/suppressions",
      { token },
    )
  ).body.data;

/** The reports about this email or sent to this address (`= NULL` matches nothing: another test's unmatched reports stay out). */
export async function reportsOf(filter: { emailId?: string; rcptTo?: string }) {
  const { results } = await shardD1Of()
    .prepare(
      "SELECT account_id, email_id, type, outcome, detail, raw_key, raw_size FROM mail_reports WHERE email_id = ?1 OR rcpt_to = ?2 ORDER BY id",
    )
    .bind(filter.emailId ?? null, filter.rcptTo ?? null)
    .all<{
      account_id: string | null;
      email_id: string | null;
      type: string | null;
      outcome: string;
      detail: string;
      raw_key: string;
      raw_size: number;
    }>();
  return results;
}

/** A report fixture about `recipient` of `sent`, addressed to `to` (the bounce address by default). */
export const report = (
  template: string,
  sent: { bounce: string; messageId: string; domain: string },
  recipient: string,
  to = sent.bounce,
) =>
  fill(template, {
    BOUNCE: to,
    RECIPIENT: recipient,
    SENDER: `hello@${sent.domain}`,
    ORIGINAL_ID: sent.messageId,
  });
