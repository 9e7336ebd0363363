import { sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../../db/client";
import { AppError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { describeError, log } from "../../lib/logger";
import { limitsFor, type PlanName, parseQuotaOverrides } from "../../lib/plans";
import { mayAct, workspaceSuspended } from "../../lib/workspace-gate";
import { formatAddress } from "../../mail/address";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";
import type { AccountRow } from "../accounts/accounts.repo";
import { reserveQuota } from "../usage/usage.service";
import { type EachOnlyIf, insertEmailChildren, insertEmailRow, insertEmailRowsIf } from "./email-insert";
import {
  checkQuotas,
  checkSizes,
  checkSuppressions,
  SUPPRESSED_CODE,
  senderConnections,
} from "./emails.checks";
import type { StoredAttachment } from "./emails.dto";
import { estimateSize, formatList, type NormalizedEmail } from "./emails.input";
import type { NewEmailRow } from "./emails.repo";
import type { SendState } from "./send-state";

export interface AcceptContext {
  db: Db;
  files: R2Bucket;
  account: AccountRow;
  /** What loadSendState read for these emails. */
  state: SendState;
  now: number;
  /** The inbox of the ticket the emails reply in: a dimension of the report's counts. */
  inboxId?: string | undefined;
}

export const attachmentKey = (emailId: string, index: number) => `emails/${emailId}/attachments/${index}`;

/**
 * Emails that passed every check and hold their quota, ready to be written: the caller adds
 * `statements` to its own batch (so an email commits with whatever it belongs to: a ticket
 * message, an idempotent answer), calls `store()` before that batch and `abort()` if it fails.
 */
export interface PreparedEmails {
  rows: NewEmailRow[];
  statements: Statement[];
  /** Puts the attachment bytes the emails own into R2. */
  store(): Promise<void>;
  /** Gives the quota back and deletes what `store()` put: the batch did not commit. */
  abort(): Promise<void>;
}

/** The bytes an email keeps in R2 of its own: attachments given as bytes, and the built message. */
export const ownBytes = (email: NormalizedEmail) =>
  email.attachments.reduce((sum, a) => sum + ("bytes" in a.content ? a.size : 0), 0) + estimateSize(email);

/** What of the account an email's row takes: its id and its tracking defaults. */
export type RowAccount = Pick<AccountRow, "id" | "defaultTrackOpens" | "defaultTrackClicks">;

/** Builds the stored row of an accepted email. */
export function rowFor(
  ctx: { account: RowAccount; now: number },
  email: NormalizedEmail,
  connectionId: string,
  source: string,
  id = newId("eml"),
): NewEmailRow {
  const attachments: StoredAttachment[] = email.attachments.map((a, i) => ({
    filename: a.filename,
    content_type: a.contentType,
    content_id: a.contentId,
    size: a.size,
    key: "key" in a.content ? a.content.key : attachmentKey(id, i),
  }));
  const status = email.scheduledAt ? "scheduled" : "queued";
  return {
    id,
    accountId: ctx.account.id,
    connectionId,
    source,
    from: formatAddress(email.from),
    to: JSON.stringify(formatList(email.to)),
    cc: JSON.stringify(formatList(email.cc)),
    bcc: JSON.stringify(formatList(email.bcc)),
    replyTo: JSON.stringify(formatList(email.replyTo)),
    subject: email.subject,
    html: email.html,
    text: email.text,
    headers: JSON.stringify(email.headers),
    attachments: JSON.stringify(attachments),
    trackOpens: email.trackOpens ?? ctx.account.defaultTrackOpens,
    trackClicks: email.trackClicks ?? ctx.account.defaultTrackClicks,
    status,
    scheduledAt: email.scheduledAt,
    messageId: email.messageId ?? null,
    campaignId: email.campaignId ?? null,
    ...(email.template ? templateColumns(email.template) : {}),
    lastEvent: status,
    lastEventAt: ctx.now,
    storedBytes: ownBytes(email),
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

const templateColumns = (template: NonNullable<NormalizedEmail["template"]>) => ({
  templateId: template.id,
  templateVersionId: template.versionId,
  templateLayoutId: template.layout?.id ?? null,
  templateLayoutVersionId: template.layout?.versionId ?? null,
});

/**
 * The checks of a send in the order the API promises, against what `loadSendState` read: a
 * workspace that may act (403), sender domain (403), plan limits and quotas (429), suppressed
 * recipients (422), size (413). Throws the first that fails; answers the sender connections and
 * the account's limits.
 */
export function checkInOrder(state: SendState, account: AccountRow, emails: NormalizedEmail[], now: number) {
  if (!mayAct(account.status)) throw workspaceSuspended();
  const connections = senderConnections(state, emails);
  const limits = limitsFor(account.plan as PlanName, parseQuotaOverrides(account.quotaOverrides));
  checkQuotas(state, limits, emails, now);
  checkSuppressions(state);
  checkSizes(emails);
  return { connections, limits };
}

/**
 * `checkInOrder`, where a refusal for a suppressed recipient (the 422) is counted first (the email
 * report's `suppressed`, the `email.suppressed` events of the refused emails that name one) in a
 * batch of its own: nothing else is written for a refusal. A count that fails is logged, not
 * thrown: the sender is still answered the 422, not a 500.
 */
export async function checkedInOrder(
  ctx: Pick<AcceptContext, "db" | "account" | "state" | "now" | "inboxId">,
  emails: NormalizedEmail[],
) {
  try {
    return checkInOrder(ctx.state, ctx.account, emails, ctx.now);
  } catch (error) {
    if (error instanceof AppError && error.code === SUPPRESSED_CODE) {
      const suppressed = new Set(ctx.state.suppressed);
      const sends = emails
        .filter((email) => email.recipients.some((address) => suppressed.has(address)))
        .map((email) => ({ tags: email.tags, inboxId: ctx.inboxId, ...toldOf(email) }));
      await runBatch(
        ctx.db,
        deliveryOutcomes.suppressed(ctx.account.id, sends, () => sql`1`, ctx.now),
      ).catch((failure: unknown) => log.warn("emails.suppressed_count_failed", describeError(failure)));
    }
    throw error;
  }
}

/** What a refused send tells its `email.suppressed` webhook events and the report's template dimensions (SuppressedSend). */
export const toldOf = (email: NormalizedEmail) => ({
  recipients: email.recipients,
  from: formatAddress(email.from),
  subject: email.subject,
  ...(email.campaignId ? { campaignId: email.campaignId } : {}),
  ...(email.template ? { templateId: email.template.id, templateVersionId: email.template.versionId } : {}),
});

/** The attachment bytes the emails own, with the R2 keys they go to. */
export const attachmentFiles = (rows: NewEmailRow[], emails: NormalizedEmail[]) =>
  rows.flatMap((row, i) =>
    (emails[i]?.attachments ?? []).flatMap((a, j) =>
      "bytes" in a.content ? [{ key: attachmentKey(row.id, j), bytes: a.content.bytes }] : [],
    ),
  );

/**
 * Checks emails in the order the API promises: a workspace that may act (403 `account_suspended`:
 * the one check every path that writes an email meets, whoever calls), sender domain (403), plan limits and quotas (429),
 * suppressed recipients (422), size (413); then reserves their sends and storage atomically (429
 * when a concurrent request took the last of it). `extraBytes` is storage the caller adds in the
 * same batch (a ticket message's attachments), reserved with the emails. With `onlyIf`, each
 * email is written only when its condition holds as the batch runs (a campaign recipient's claim).
 */
export async function prepareEmails(
  ctx: AcceptContext,
  emails: NormalizedEmail[],
  source: string,
  extraBytes = 0,
  onlyIf?: EachOnlyIf,
): Promise<PreparedEmails> {
  const { db, account, now } = ctx;
  const { connections, limits } = await checkedInOrder(ctx, emails);

  const rows = emails.map((email) => rowFor(ctx, email, connections.get(email.fromDomain)?.id ?? "", source));
  const bytes = rows.reduce((sum, row) => sum + (row.storedBytes ?? 0), extraBytes);
  const reservation = await reserveQuota(db, account.id, limits, { emails: emails.length, bytes }, now);
  const files = attachmentFiles(rows, emails);
  return {
    rows,
    statements: [
      ...(onlyIf ? insertEmailRowsIf(rows, onlyIf) : rows.map((row) => insertEmailRow(db, row))),
      ...insertEmailChildren(
        rows.map((row, i) => ({ row, recipients: emails[i]?.recipients ?? [], tags: emails[i]?.tags ?? [] })),
      ),
    ],
    store: async () => {
      await Promise.all(files.map((file) => ctx.files.put(file.key, file.bytes)));
    },
    abort: async () => {
      await reservation.release();
      await Promise.all(files.map((file) => ctx.files.delete(file.key))).catch((cleanup: unknown) =>
        log.warn("emails.attachment_cleanup_failed", describeError(cleanup)),
      );
    },
  };
}

/**
 * What counts the emails as accepted (the report's rollups), to come last in the batch that
 * creates them: after `more`, which may write what links an email to an inbox (its message).
 */
export const acceptedStatements = (rows: NewEmailRow[]) =>
  rows.length === 0
    ? []
    : deliveryOutcomes.accepted(
        rows.map((row) => row.id),
        rows[0]?.createdAt ?? 0,
      );

/**
 * Writes prepared emails with `more` statements in one batch, after their attachments are in R2;
 * a failure gives the reservation back and removes the bytes.
 */
export async function commitEmails(db: Db, prepared: PreparedEmails, more: Statement[] = []) {
  try {
    await prepared.store();
    return await runBatch(db, [...prepared.statements, ...more, ...acceptedStatements(prepared.rows)]);
  } catch (error) {
    await prepared.abort();
    throw error;
  }
}
