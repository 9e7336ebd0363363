import { createDb, type Db, runBatch } from "../../db/client";
import { SUSPENDED_REASON } from "../../lib/workspace-gate";
import { bounceAddress } from "../../mail/bounce-address";
import { mimeSize } from "../../mail/mime";
import { transportFor } from "../../mail/transports";
import type { OutgoingMessage, TransportResult } from "../../mail/transports/transport";
import type { ConnectionRow } from "../connections/connections.repo";
import { bounceStatements } from "../suppressions/bounces";
import { addresses, messageOf, PermanentFailure } from "./build-message";
import {
  failBeforeHandoff,
  finishStatements,
  openRecipients,
  type RecipientOutcome,
  releaseClaim,
} from "./delivery.repo";
import { claimEmails, handOffEmails } from "./delivery-batch.repo";
import type { StoredAttachment } from "./emails.dto";
import type { EmailRow } from "./emails.repo";
import { isSystemEmail } from "./system-mail";

/** Temporary failures are retried this many times in all, with growing pauses, then the email fails. */
export const MAX_ATTEMPTS = 6;
const backoffSeconds = (attempts: number) => Math.min(30 * 2 ** (attempts - 1), 3600);

export type DeliveryOutcome =
  | { kind: "skipped" }
  | { kind: "done"; status: EmailRow["status"] }
  | { kind: "retry"; delaySeconds: number };

/** Transports answer every outcome; one that throws anyway is read as a temporary failure. */
async function send(env: Env, message: OutgoingMessage): Promise<TransportResult> {
  if (message.envelopes.length === 0)
    return { kind: "sent", response: "no recipient left to send to", rejected: [] };
  try {
    return await transportFor(env).send(message);
  } catch (error) {
    return {
      kind: "failed",
      permanent: false,
      response: `Transport error: ${error instanceof Error ? error.message : String(error)}`,
      rejected: [],
    };
  }
}

/** What happened to each recipient of this attempt. */
function outcomesOf(recipients: string[], result: TransportResult): RecipientOutcome[] {
  const refused = new Map(result.rejected.map((r) => [r.recipient.toLowerCase(), r]));
  return recipients.map((address) => {
    const rejection = refused.get(address);
    if (rejection) {
      return { address, state: rejection.permanent ? "rejected" : "deferred", response: rejection.response };
    }
    if (result.kind === "sent") return { address, state: "accepted", response: result.response };
    // The whole message was refused (connection, DATA): every recipient shares the answer.
    return { address, state: result.permanent ? "rejected" : "deferred", response: result.response };
  });
}

/** The email's own bytes in storage: attachments it keeps itself, plus its built message. */
const storedBytesOf = (email: EmailRow, size: number) =>
  (JSON.parse(email.attachments) as StoredAttachment[])
    .filter((a) => a.key.startsWith(`emails/${email.id}/`))
    .reduce((sum, a) => sum + a.size, size);

interface Built {
  email: EmailRow;
  raw: string;
  recipients: string[];
}

/**
 * Builds, signs and keeps an email's message; a failure ends the attempt here: the email fails at
 * once when it would fail again, else the claim is given back for a retry.
 */
async function build(
  env: Env,
  db: Db,
  email: EmailRow,
  connection: ConnectionRow | null,
  now: number,
): Promise<Built | DeliveryOutcome> {
  try {
    const all = [
      ...new Set(
        [...addresses(email.to), ...addresses(email.cc), ...addresses(email.bcc)].map((a) =>
          a.address.toLowerCase(),
        ),
      ),
    ];
    const [raw, recipients] = await Promise.all([
      messageOf(env, connection, email),
      openRecipients(db, email, all),
    ]);
    return { email, raw, recipients };
  } catch (error) {
    if (error instanceof PermanentFailure || email.attempts >= MAX_ATTEMPTS) {
      const reason = error instanceof Error ? error.message : String(error);
      await failBeforeHandoff(db, email, reason, storedBytesOf(email, email.size ?? 0), now);
      return { kind: "done", status: "failed" };
    }
    // Ours and passing (R2, D1): give the claim back now rather than when the lease runs out.
    const delaySeconds = backoffSeconds(email.attempts);
    await releaseClaim(db, email, "Temporary storage failure; retrying.", now + delaySeconds * 1000, now);
    return { kind: "retry", delaySeconds };
  }
}

/** Hands one built message to the transport; answers the outcome and the statements that record it. */
async function sendBuilt(env: Env, db: Db, built: Built, now: number) {
  const { email, raw, recipients } = built;
  // Each recipient its own envelope sender, so a bounce or complaint names whom it is about.
  const envelopes = await Promise.all(
    recipients.map(async (recipient) => ({
      mailFrom: await bounceAddress(env.ENCRYPTION_KEY, email.id, recipient, email.fromAddress),
      recipient,
    })),
  );
  const result = await send(env, { emailId: email.id, from: email.fromAddress, envelopes, raw });
  const outcomes = outcomesOf(recipients, result);
  const accepted = outcomes.some((o) => o.state === "accepted") || email.sentAt !== null;
  const deferred = outcomes.filter((o) => o.state === "deferred");
  const retry = deferred.length > 0 && email.attempts < MAX_ATTEMPTS;
  const size = mimeSize(raw);
  // Only a refusal of the recipient counts as its bounce; one of the message or session does not.
  const bounced = result.rejected.filter((r) => !r.messageLevel);
  const status = retry
    ? "queued"
    : accepted
      ? "sent"
      : outcomes.every((o) => o.state === "rejected") && bounced.length > 0
        ? "bounced"
        : "failed";
  const delaySeconds = backoffSeconds(email.attempts);
  const bounces = bounced.flatMap((r) =>
    bounceStatements(
      {
        accountId: email.accountId,
        email: r.recipient,
        kind: r.permanent ? "hard" : "soft",
        emailId: email.id,
        detail: r.response,
      },
      now,
    ),
  );
  const statements = [
    ...finishStatements(
      db,
      email,
      outcomes,
      {
        status,
        lastEvent: retry ? "deferred" : status,
        lastResponse: result.response,
        size,
        // The service's own mail is not the workspace's: it takes none of its storage.
        storedBytes: isSystemEmail(email) ? 0 : storedBytesOf(email, size),
        nextAttemptAt: retry ? now + delaySeconds * 1000 : null,
        ...(accepted ? { sentAt: email.sentAt ?? now } : {}),
      },
      result.response,
      now,
    ),
    ...bounces,
  ];
  const outcome: DeliveryOutcome = retry ? { kind: "retry", delaySeconds } : { kind: "done", status };
  return { id: email.id, outcome, statements };
}

/**
 * Sends the emails that are due and nobody else has taken, as one queue batch: claims (with the
 * sender keys), hand-offs and the records of how the attempts ended each take one D1 round trip
 * for the whole batch, while each email keeps its own fences (claim, lease, attempt), so the
 * batch changes no email's guarantees. Recipients the transport accepted are never sent to again;
 * those it deferred (4xx) are retried with growing pauses even when others were accepted; each
 * refused recipient counts one bounce per email. Answers one outcome per id, in order.
 */
export async function deliverEmails(env: Env, ids: string[], now = Date.now()): Promise<DeliveryOutcome[]> {
  const db = createDb(env.DB);
  const outcomes = new Map<string, DeliveryOutcome>();
  const { claimed, connections, suspended } = await claimEmails(db, ids, now);
  const built: Built[] = [];
  await Promise.all(
    claimed.map(async (email) => {
      if (suspended.has(email.accountId)) {
        // Queued before its workspace was suspended: it ends here, recorded, and never goes out later.
        const bytes = storedBytesOf(email, email.size ?? 0);
        await failBeforeHandoff(db, email, SUSPENDED_REASON, bytes, now, SUSPENDED_REASON);
        outcomes.set(email.id, { kind: "done", status: "failed" });
        return;
      }
      const answer = await build(
        env,
        db,
        email,
        (email.connectionId && connections.get(email.connectionId)) || null,
        now,
      );
      if ("raw" in answer) built.push(answer);
      else outcomes.set(email.id, answer);
    }),
  );
  // A claim lost while building (it ran out and the sweep took it back): the new holder sends.
  const held = await handOffEmails(
    db,
    built.map((b) => b.email),
    Date.now(),
  );
  const sent = await Promise.all(
    built.filter((b) => held.has(b.email.id)).map((b) => sendBuilt(env, db, b, now)),
  );
  await runBatch(
    db,
    sent.flatMap((s) => s.statements),
  );
  for (const s of sent) outcomes.set(s.id, s.outcome);
  return ids.map((id) => outcomes.get(id) ?? { kind: "skipped" });
}

/** Sends one email if it is due and nobody else has taken it (see `deliverEmails`). */
export async function deliverEmail(env: Env, emailId: string, now = Date.now()): Promise<DeliveryOutcome> {
  const [outcome] = await deliverEmails(env, [emailId], now);
  return outcome ?? { kind: "skipped" };
}
