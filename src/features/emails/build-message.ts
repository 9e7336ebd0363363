import { domainOf, parseAddress } from "../../mail/address";
import { signDkim } from "../../mail/dkim/sign";
import { buildMime } from "../../mail/mime";
import { applyTracking } from "../../mail/tracking/apply";
import type { ConnectionRow } from "../connections/connections.repo";
import type { StoredAttachment } from "./emails.dto";
import type { EmailRow } from "./emails.repo";
import { messageIdOf } from "./message-id";
import { messageKey } from "./message-key";
import { connectionSigningKey } from "./signing-keys";
import { isSystemEmail } from "./system-mail";

export const addresses = (json: string) =>
  (JSON.parse(json) as string[]).flatMap((text) => parseAddress(text) ?? []);

/** A failure that would happen again on every retry: the email fails at once. */
export class PermanentFailure extends Error {}

interface DkimKey {
  domain: string;
  selector: string;
  privateKey: string | CryptoKey;
}

/**
 * The key an email is signed with: its sender domain's connection key (`connection`, read with
 * the claim; null when it was deleted); for the service's own mail, the deployment's optional
 * system key (none configured: sent unsigned).
 */
async function dkimKeyFor(
  env: Env,
  connection: ConnectionRow | null,
  email: EmailRow,
): Promise<DkimKey | null> {
  if (isSystemEmail(email)) {
    const privateKey = env.SYSTEM_DKIM_PRIVATE_KEY;
    const selector = env.SYSTEM_DKIM_SELECTOR;
    return privateKey && selector ? { domain: domainOf(email.fromAddress), selector, privateKey } : null;
  }
  if (!connection) throw new PermanentFailure("The sender domain's connection was deleted before sending.");
  const privateKey = await connectionSigningKey(env.ENCRYPTION_KEY, connection.dkimPrivateKeyEncrypted).catch(
    () => {
      throw new PermanentFailure(
        "The sender domain's DKIM key cannot be decrypted (was ENCRYPTION_KEY changed?).",
      );
    },
  );
  return { domain: connection.domain, selector: connection.dkimSelector, privateKey };
}

/** The message as it will be sent: MIME built, tracking applied, DKIM-signed. */
async function buildSigned(env: Env, connection: ConnectionRow | null, email: EmailRow): Promise<string> {
  const key = await dkimKeyFor(env, connection, email);
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
          accountId: email.accountId,
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
      messageId: messageIdOf(email),
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
export async function messageOf(
  env: Env,
  connection: ConnectionRow | null,
  email: EmailRow,
): Promise<string> {
  if (email.attempts > 1) {
    const kept = await env.FILES.get(messageKey(email.id));
    if (kept) return kept.text();
  }
  const raw = await buildSigned(env, connection, email);
  await env.FILES.put(messageKey(email.id), raw, { httpMetadata: { contentType: "message/rfc822" } });
  return raw;
}
