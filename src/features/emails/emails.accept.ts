import { type Db, runBatch, type Statement } from "../../db/client";
import { newId } from "../../lib/ids";
import { describeError, log } from "../../lib/logger";
import { limitsFor, type PlanName, parseQuotaOverrides } from "../../lib/plans";
import { formatAddress } from "../../mail/address";
import type { AccountRow } from "../accounts/accounts.repo";
import { reserveEmailQuota } from "../usage/usage.service";
import { checkQuotas, checkSizes, checkSuppressions, senderConnections } from "./emails.checks";
import type { StoredAttachment } from "./emails.dto";
import { formatList, type NormalizedEmail } from "./emails.input";
import { insertEmailStatements, type NewEmailRow } from "./emails.repo";
import { type Idempotency, storeAnswer } from "./idempotency";
import type { SendState } from "./send-state";

export interface AcceptContext {
  db: Db;
  files: R2Bucket;
  account: AccountRow;
  /** What loadSendState read for these emails. */
  state: SendState;
  now: number;
}

export const attachmentKey = (emailId: string, index: number) => `emails/${emailId}/attachments/${index}`;

/** Builds the stored row of an accepted email. */
function rowFor(
  ctx: AcceptContext,
  email: NormalizedEmail,
  connectionId: string,
  source: string,
): NewEmailRow {
  const id = newId("eml");
  const attachments: StoredAttachment[] = email.attachments.map((a, i) => ({
    filename: a.filename,
    content_type: a.contentType,
    content_id: a.contentId,
    size: a.bytes.length,
    key: attachmentKey(id, i),
  }));
  const status = email.scheduledAt ? "scheduled" : "queued";
  return {
    id,
    accountId: ctx.account.id,
    connectionId,
    source,
    from: formatAddress(email.from),
    fromAddress: email.from.address,
    to: JSON.stringify(formatList(email.to)),
    cc: JSON.stringify(formatList(email.cc)),
    bcc: JSON.stringify(formatList(email.bcc)),
    replyTo: JSON.stringify(formatList(email.replyTo)),
    subject: email.subject,
    html: email.html,
    text: email.text,
    headers: JSON.stringify(email.headers),
    tags: JSON.stringify(email.tags),
    attachments: JSON.stringify(attachments),
    trackOpens: email.trackOpens ?? ctx.account.defaultTrackOpens,
    trackClicks: email.trackClicks ?? ctx.account.defaultTrackClicks,
    status,
    scheduledAt: email.scheduledAt,
    messageId: email.messageId ?? `<${id}@${email.fromDomain}>`,
    lastEvent: status,
    lastEventAt: ctx.now,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

/**
 * Accepts emails after the checks, in the order the API promises: sender domain (403), plan
 * limits and quotas (429), suppressed recipients (422), size (413). Quota is reserved atomically;
 * attachments go to R2; the rows, and the idempotent answer if any, are written in one batch.
 */
export async function acceptEmails(
  ctx: AcceptContext,
  emails: NormalizedEmail[],
  source: string,
  idempotency: {
    idem: Idempotency;
    answer: (rows: NewEmailRow[]) => { status: number; body: unknown };
  } | null,
): Promise<NewEmailRow[]> {
  const { db, account, now } = ctx;
  const connections = senderConnections(ctx.state, emails);
  const limits = limitsFor(account.plan as PlanName, parseQuotaOverrides(account.quotaOverrides));
  checkQuotas(ctx.state, limits, emails, now);
  checkSuppressions(ctx.state);
  checkSizes(emails);

  const reservation = await reserveEmailQuota(db, account.id, limits, emails.length, now);
  const rows = emails.map((email) => rowFor(ctx, email, connections.get(email.fromDomain)?.id ?? "", source));
  const stored = rows.flatMap((row, i) =>
    (emails[i]?.attachments ?? []).map((a, j) => ({ key: attachmentKey(row.id, j), bytes: a.bytes })),
  );
  try {
    await Promise.all(stored.map((file) => ctx.files.put(file.key, file.bytes)));
    const statements: Statement[] = rows.flatMap((row, i) =>
      insertEmailStatements(db, row, emails[i]?.recipients ?? [], emails[i]?.tags ?? []),
    );
    if (idempotency) {
      const answer = idempotency.answer(rows);
      statements.push(storeAnswer(db, account.id, idempotency.idem, answer.status, answer.body, now));
    }
    await runBatch(db, statements);
  } catch (error) {
    await reservation.release();
    await Promise.all(stored.map((file) => ctx.files.delete(file.key))).catch((cleanup: unknown) =>
      log.warn("emails.attachment_cleanup_failed", describeError(cleanup)),
    );
    throw error;
  }
  return rows;
}
