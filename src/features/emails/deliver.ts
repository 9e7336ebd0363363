import { createDb, runBatch } from "../../db/client";
import { bounceAddress } from "../../mail/bounce-address";
import { mimeSize } from "../../mail/mime";
import { transportFor } from "../../mail/transports";
import type { OutgoingMessage, TransportResult } from "../../mail/transports/transport";
import { bounceStatements } from "../suppressions/bounces";
import { addresses, messageOf, PermanentFailure } from "./build-message";
import {
  claimEmail,
  failBeforeHandoff,
  finishStatements,
  handOff,
  openRecipients,
  type RecipientOutcome,
  releaseClaim,
} from "./delivery.repo";
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
  if (message.recipients.length === 0)
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

/**
 * Sends one email if it is due and nobody else has taken it. Recipients the transport accepted are
 * never sent to again; those it deferred (4xx) are retried with growing pauses even when others
 * were accepted; each refused recipient counts one bounce per email. How the attempt ended is
 * written in one batch with its event.
 */
export async function deliverEmail(env: Env, emailId: string, now = Date.now()): Promise<DeliveryOutcome> {
  const db = createDb(env.DB);
  const email = await claimEmail(db, emailId, now);
  if (!email) return { kind: "skipped" };

  let raw: string;
  let recipients: string[];
  try {
    const all = [
      ...new Set(
        [...addresses(email.to), ...addresses(email.cc), ...addresses(email.bcc)].map((a) =>
          a.address.toLowerCase(),
        ),
      ),
    ];
    [raw, recipients] = await Promise.all([messageOf(env, db, email), openRecipients(db, email, all)]);
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
  // Lost the claim while building (it ran out and the sweep took it back): the new holder sends.
  if (!(await handOff(db, email, Date.now()))) return { kind: "skipped" };

  const result = await send(env, {
    emailId: email.id,
    from: email.fromAddress,
    returnPath: await bounceAddress(env.ENCRYPTION_KEY, email.id, email.fromAddress),
    recipients,
    raw,
  });
  const outcomes = outcomesOf(recipients, result);
  const accepted = outcomes.some((o) => o.state === "accepted") || email.sentAt !== null;
  const deferred = outcomes.filter((o) => o.state === "deferred");
  const retry = deferred.length > 0 && email.attempts < MAX_ATTEMPTS;
  const size = mimeSize(raw);
  const status = retry
    ? "queued"
    : accepted
      ? "sent"
      : outcomes.every((o) => o.state === "rejected") && result.rejected.length > 0
        ? "bounced"
        : "failed";
  const delaySeconds = backoffSeconds(email.attempts);
  const bounces = result.rejected.flatMap((r) =>
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
  await runBatch(db, [
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
  ]);
  return retry ? { kind: "retry", delaySeconds } : { kind: "done", status };
}
