import { createDb, type Db } from "../../db/client";
import { decryptSecret } from "../../lib/crypto";
import { parseAddress } from "../../mail/address";
import { signDkim } from "../../mail/dkim/sign";
import { buildMime, mimeSize } from "../../mail/mime";
import { applyTracking } from "../../mail/tracking/apply";
import { transportFor } from "../../mail/transports";
import type { TransportResult } from "../../mail/transports/transport";
import { findConnection } from "../connections/connections.repo";
import { recordBounce } from "../suppressions/bounces";
import type { StoredAttachment } from "./emails.dto";
import { claimEmail, type EmailRow, finishEmail } from "./emails.repo";

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

/** The message as it will be sent: MIME built, tracking applied, DKIM-signed. */
async function buildSigned(env: Env, db: Db, email: EmailRow): Promise<string> {
  const connection = email.connectionId
    ? await findConnection(db, email.accountId, email.connectionId)
    : null;
  if (!connection) throw new PermanentFailure("The sender domain's connection was deleted before sending.");
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
  const privateKey = await decryptSecret(env.ENCRYPTION_KEY, connection.dkimPrivateKeyEncrypted);
  return signDkim(mime, { domain: connection.domain, selector: connection.dkimSelector, privateKey });
}

class PermanentFailure extends Error {}

/** Bounces for refused recipients: permanent ones are hard, temporary ones soft. */
async function recordRejections(db: Db, email: EmailRow, result: TransportResult, now: number) {
  for (const rejection of result.rejected) {
    await recordBounce(
      db,
      {
        accountId: email.accountId,
        email: rejection.recipient,
        kind: rejection.permanent ? "hard" : "soft",
        emailId: email.id,
        detail: rejection.response,
      },
      now,
    );
  }
}

/**
 * Sends one email if it is due and nobody else has taken it. Every way it can end is written to
 * the email with its event; a temporary failure puts it back in the queue with a pause.
 */
export async function deliverEmail(env: Env, emailId: string, now = Date.now()): Promise<DeliveryOutcome> {
  const db = createDb(env.DB);
  const email = await claimEmail(db, emailId, now);
  if (!email) return { kind: "skipped" };

  let raw: string;
  try {
    raw = await buildSigned(env, db, email);
  } catch (error) {
    const reason =
      error instanceof PermanentFailure || error instanceof Error ? error.message : String(error);
    await finishEmail(
      db,
      email.id,
      { status: "failed", lastEvent: "failed", lastResponse: `Could not build the message: ${reason}` },
      reason,
      now,
    );
    return { kind: "done", status: "failed" };
  }
  await env.FILES.put(messageKey(email.id), raw, { httpMetadata: { contentType: "message/rfc822" } });
  const recipients = [
    ...new Set(
      [...addresses(email.to), ...addresses(email.cc), ...addresses(email.bcc)].map((a) =>
        a.address.toLowerCase(),
      ),
    ),
  ];
  const result = await transportFor(env).send({
    emailId: email.id,
    from: email.fromAddress,
    recipients,
    raw,
  });
  await recordRejections(db, email, result, now);
  const size = mimeSize(raw);

  if (result.kind === "sent") {
    await finishEmail(
      db,
      email.id,
      {
        status: "sent",
        lastEvent: "sent",
        lastResponse: result.response,
        sentAt: now,
        size,
        nextAttemptAt: null,
      },
      result.response,
      now,
    );
    return { kind: "done", status: "sent" };
  }
  if (result.permanent || email.attempts >= MAX_ATTEMPTS) {
    const status = result.permanent && result.rejected.length > 0 ? "bounced" : "failed";
    await finishEmail(
      db,
      email.id,
      { status, lastEvent: status, lastResponse: result.response, size },
      result.response,
      now,
    );
    return { kind: "done", status };
  }
  const delaySeconds = backoffSeconds(email.attempts);
  await finishEmail(
    db,
    email.id,
    {
      status: "queued",
      lastEvent: "deferred",
      lastResponse: result.response,
      nextAttemptAt: now + delaySeconds * 1000,
    },
    result.response,
    now,
  );
  return { kind: "retry", delaySeconds };
}
