import { recipientTag } from "../../mail/bounce-address";
import type { ReportedEmail } from "./reports.repo";

/**
 * The one recipient of `email` a report may change: the one its bounce token's tag names. A key
 * that names the email only (a token from before per-recipient envelopes, or the returned
 * original's Message-ID) names a recipient only when the email had one; for several it names
 * none, since any of them could have written the report about any other (a To: recipient about
 * a Bcc one).
 */
export async function namedRecipient(
  secret: string,
  email: ReportedEmail,
  tag: string | null,
): Promise<string | null> {
  const recipients = [...new Set(email.recipients)];
  if (tag === null) return recipients.length === 1 ? (recipients[0] ?? null) : null;
  const tags = await Promise.all(recipients.map((r) => recipientTag(secret, r)));
  const matches = recipients.filter((_, i) => tags[i] === tag);
  return matches.length === 1 ? (matches[0] ?? null) : null;
}
