import { AppError } from "../../lib/errors";
import type { QuotaLimits } from "../../lib/plans";
import { jsonLength, utf8Length } from "../../lib/text";
import { formatAddress } from "../../mail/address";
import { verifyDomainHelp } from "../connections/domain-help";
import { assertEmailQuota, currentUsage, limitExceeded } from "../usage/usage.service";
import { estimateSize, formatList, type NormalizedEmail } from "./emails.input";
import { MAX_STORED_EMAIL_BYTES } from "./emails.schemas";
import type { SenderConnection, SendState } from "./send-state";

/** Larger built messages are refused (413): what common mailbox providers accept. */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** An attachment's entry beyond its names: size, R2 key and JSON punctuation. */
const ATTACHMENT_ENTRY_BYTES = 128;

/** Bytes of the email's variable-length columns as they will be stored (an upper bound). */
export function storedEmailBytes(email: NormalizedEmail): number {
  const lists = [email.to, email.cc, email.bcc, email.replyTo].map((list) => jsonLength(formatList(list)));
  const attachments = email.attachments.map(
    (a) => jsonLength([a.filename, a.contentType, a.contentId]) + ATTACHMENT_ENTRY_BYTES,
  );
  return [
    utf8Length(email.html ?? ""),
    utf8Length(email.text ?? ""),
    utf8Length(email.subject),
    utf8Length(formatAddress(email.from)) * 2,
    utf8Length(email.messageId ?? ""),
    jsonLength(email.headers),
    jsonLength(email.tags),
    ...lists,
    ...attachments,
  ].reduce((sum, bytes) => sum + bytes, 0);
}

/** 403 with `domain` and `help` unless every sender domain is verified; answers the connections. */
export function senderConnections(
  state: SendState,
  emails: NormalizedEmail[],
): Map<string, SenderConnection> {
  for (const domain of new Set(emails.map((e) => e.fromDomain))) {
    const connection = state.connections.get(domain);
    if (connection?.status !== "verified") {
      throw new AppError(
        403,
        "domain_not_verified",
        "Sender domain not verified",
        `${domain} is not a verified sending domain of this workspace.`,
        { domain, help: verifyDomainHelp(domain, connection) },
      );
    }
  }
  return state.connections;
}

/** 429 when an email has more recipients than the plan allows, or the batch would pass a quota. */
export function checkQuotas(state: SendState, limits: QuotaLimits, emails: NormalizedEmail[], now: number) {
  const perEmail = limits.recipients_per_email;
  for (const email of emails) {
    if (perEmail !== null && email.recipients.length > perEmail) {
      throw limitExceeded("recipients_per_email", email.recipients.length, perEmail, email.recipients.length);
    }
  }
  assertEmailQuota(currentUsage(state.usage, now), limits, emails.length);
}

export const SUPPRESSED_CODE = "recipient_suppressed";

/** 422 naming every suppressed recipient; nothing is sent. */
export function checkSuppressions(state: SendState) {
  const { suppressed } = state;
  if (suppressed.length > 0) {
    throw new AppError(
      422,
      SUPPRESSED_CODE,
      "Recipient suppressed",
      `Not sent: ${suppressed.join(", ")} ${suppressed.length === 1 ? "is" : "are"} suppressed after bounces or complaints. Remove the address from the email, or the suppression with DELETE /v1/suppressions/{email}.`,
      { suppressed },
    );
  }
}

/** 413 when a built message would pass 25 MB, or when the email could not be stored in one row. */
export function checkSizes(emails: NormalizedEmail[]) {
  for (const email of emails) {
    const stored = storedEmailBytes(email);
    if (stored > MAX_STORED_EMAIL_BYTES) {
      throw new AppError(
        413,
        "message_too_large",
        "Message too large",
        `html, text, subject, headers, addresses and attachment names take ${stored} bytes together; an email stores at most ${MAX_STORED_EMAIL_BYTES} (attachment contents do not count).`,
        { limit: MAX_STORED_EMAIL_BYTES },
      );
    }
    const size = estimateSize(email);
    if (size > MAX_MESSAGE_BYTES) {
      throw new AppError(
        413,
        "message_too_large",
        "Message too large",
        `The built message would be about ${Math.round(size / 1024 / 1024)} MB; the maximum is 25 MB.`,
        {
          limit: MAX_MESSAGE_BYTES,
        },
      );
    }
  }
}
