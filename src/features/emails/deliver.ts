import { createDb, type Db, runBatch } from "../../db/client";
import { decryptSecret } from "../../lib/crypto";
import { domainOf, parseAddress } from "../../mail/address";
import { signDkim } from "../../mail/dkim/sign";
import { buildMime, mimeSize } from "../../mail/mime";
import { applyTracking } from "../../mail/tracking/apply";
import { transportFor } from "../../mail/transports";
import type { OutgoingMessage, TransportResult } from "../../mail/transports/transport";
import { findConnection } from "../connections/connections.repo";
import { bounceStatements } from "../suppressions/bounces";
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

export const messageKey = (emailId: string) => `emails/${emailId}/message.eml`;

const addresses = (json: string) =>
  (JSON.parse(json) as string[]).flatMap((text) => parseAddress(text) ?? []);

class PermanentFailure extends Error {}

interface DkimKey {
  domain: string;
  selector: string;
  privateKey: string;
}

/**
 * The key an email is signed with: its sender domain's connection key; for the service's own
 * mail, the deployment's optional system key (none configured: sent unsigned).
 */
async function dkimKeyFor(env: Env, db: Db, email: EmailRow): Promise<DkimKey | null> {
  if (isSystemEmail(email)) {
    const privateKey = env.SYSTEM_DKIM_PRIVATE_KEY;
    const selector = env.SYSTEM_DKIM_SELECTOR;
    return privateKey && selector ? { domain: domainOf(email.fromAddress), selector, privateKey } : null;
  }
  const connection = email.connectionId
    ? await findConnection(db, email.accountId, email.connectionId)
    : null;
  if (!connection) throw new PermanentFailure("The sender domain's connection was deleted before sending.");
  const privateKey = await decryptSecret(env.ENCRYPTION_KEY, connection.dkimPrivateKeyEncrypted).catch(() => {
    throw new PermanentFailure(
      "The sender domain's DKIM key cannot be decrypted (was ENCRYPTION_KEY changed?).",
    );
  });
  return { domain: connection.domain, selector: connection.dkimSelector, privateKey };
}

/** The message as it will be sent: MIME built, tracking applied, DKIM-signed. */
async function buildSigned(env: Env, db: Db, email: EmailRow): Promise<string> {
  const key = await dkimKeyFor(env, db, email);
  const stored = JSON.parse(email.attachments) as StoredAttachment[];
  const attachments = await Promise.all(
    stored.map(async (a) => {
      const object = await env.FILES.get(a.key);
      if (!object) throw new PermanentFailure(`Attachment ${a.filename} is missing from storage.`);
      return {
        filename: a.filename,
        contentType: a.content_type,
        contentId: a.content_id ?? undefined,
        content: new Uint8Array(await object.arrayBuffer()),
      };
    }),
  );
  const html =
    email.html && (email.trackOpens || email.trackClicks)
      ? await applyTracking(email.html, {
          baseUrl: env.PUBLIC_BASE_URL,
          emailId: email.id,
          key: env.ENCRYPTION_KEY,
          opens: email.trackOpens,
          clicks: email.trackClicks,
        })
      : email.html;
  const from = parseAddress(email.from);
  if (!from) throw new PermanentFailure("The stored sender address is invalid.");
  return permanentIfThrows(() => {
    const mime = buildMime({
      from,
      to: addresses(email.to),
      cc: addresses(email.cc),
      replyTo: addresses(email.replyTo),
      subject: email.subject,
      ...(email.text ? { text: email.text } : {}),
      ...(html ? { html } : {}),
      headers: JSON.parse(email.headers) as Record<string, string>,
      attachments,
      messageId: email.messageId,
      date: new Date(),
    });
    return key ? signDkim(mime, key) : mime;
  });
}

/** Building and signing are pure: what fails there fails again on every retry, so it is permanent. */
async function permanentIfThrows<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new PermanentFailure(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The message to hand over: built, signed and kept in R2 on the first attempt; a retry sends the
 * very bytes kept then (same Date, same signature), so every recipient gets one message.
 */
async function messageOf(env: Env, db: Db, email: EmailRow): Promise<string> {
  if (email.attempts > 1) {
    const kept = await env.FILES.get(messageKey(email.id));
    if (kept) return kept.text();
  }
  const raw = await buildSigned(env, db, email);
  await env.FILES.put(messageKey(email.id), raw, { httpMetadata: { contentType: "message/rfc822" } });
  return raw;
}

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
