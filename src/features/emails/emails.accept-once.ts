import { type SQL, sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../../db/client";
import { notFound } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import { mayActSql } from "../../lib/workspace-gate";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";
import { limitSql } from "../usage/limits-sql";
import { addUsageIf, ensureUsageRow, type UsageAmounts, usageRoom } from "../usage/usage.repo";
import { assertStorageQuota, currentUsage, emailWindows } from "../usage/usage.service";
import { type DerivedColumns, insertEmailStatements } from "./email-insert";
import { attachmentFiles, checkedInOrder, type RowAccount, rowFor } from "./emails.accept";
import { checkSizes } from "./emails.checks";
import type { NormalizedEmail } from "./emails.input";
import type { NewEmailRow } from "./emails.repo";
import { loadSendState, type SendState, sendStateOf, sendStateQueries } from "./send-state";

export interface AcceptOnceContext {
  db: Db;
  files: R2Bucket;
  accountId: string;
  now: number;
}

/**
 * Statements the caller commits with the emails (an idempotent answer). `written` is SQL that is
 * true, as the batch runs, exactly when the emails were accepted.
 */
export type WithEmails = (rows: NewEmailRow[], written: SQL) => Statement[];

/**
 * The accepting batch found `guard` false: what the emails were built from (a cached template,
 * send-cache.ts) changed meanwhile. Nothing was written or counted; the caller builds them afresh.
 */
export class StaleSend extends Error {
  override name = "StaleSend";
}

/**
 * Accepts emails (POST /v1/emails, /batch, /raw) in ONE D1 round trip, where checking, reserving
 * quota and writing used to take three. The batch (one transaction, so nothing changes between
 * its statements) is:
 *
 *   1. the reads of the checks (account, sender connections, usage, suppressed recipients);
 *   2. the usage row, made if missing;
 *   3. the first email's INSERT ... SELECT ... WHERE every check holds: the workspace may act,
 *      every sender domain is verified, no recipient is suppressed, the plan's recipients per email
 *      and its email and storage quotas have room (limits computed in SQL from the account row,
 *      `limitSql`, since nothing before the batch knows the plan);
 *   4. the rest of the emails, their recipients, tags and events, each written only if the first
 *      email exists (insertEmailStatements' `onlyIf`): the first email's row is the marker that
 *      the checks passed;
 *   5. the usage counted, on the same marker: no limit of its own, because (3) checked the room in
 *      the same transaction and no concurrent request can take it in between. Two requests that
 *      together exceed a quota run one after the other; the second sees the first's count.
 *
 * A refused batch writes nothing (every write waits on the marker) and commits harmlessly, rather
 * than failing on purpose: there is no rollback to provoke and no error to tell from a real one.
 * The reads of (1) are then exactly what (3) saw, and the checks run on them in the API's order
 * to answer the same 403/429/422 as a send checked in advance would. Emails too large to store
 * are refused from a read of their own first: their row could not even be attempted.
 *
 * An email refused for a suppressed recipient (the 422) is counted (the email report, its
 * `email.suppressed` events) after the batch, from the batch's own reads, in a batch of its own
 * (`checkedInOrder`). Counted inside this batch, under "refused, and for that reason", those two
 * statements carried the checks' SQL again (6 KB each) and cost every accepted email about 2.9 ms
 * of workerd locally (docs/benchmarks.md), for a refusal that is rare and writes nothing else.
 */
export async function acceptEmails(
  ctx: AcceptOnceContext,
  emails: NormalizedEmail[],
  source: string,
  withEmails: WithEmails = () => [],
  /** SQL that must hold for anything to be written or counted (StaleSend when it does not). */
  guard?: SQL,
): Promise<NewEmailRow[]> {
  const { db, accountId, now } = ctx;
  const domains = [...new Set(emails.map((e) => e.fromDomain))];
  const recipients = [...new Set(emails.flatMap((e) => e.recipients))];
  try {
    checkSizes(emails);
  } catch (tooLarge) {
    // Sized from kept template versions: the caller builds them afresh before refusing.
    if (guard) throw new StaleSend("emails.accept: too large as built from kept templates");
    await refuse(
      db,
      accountId,
      await loadSendState(db, accountId, domains, recipients, null, now),
      emails,
      0,
      now,
    );
    throw tooLarge;
  }

  // Tracking defaults and connection ids are the batch's to read (`derived`); the rows are built
  // again from the batch's reads once it has committed.
  const draftAccount: RowAccount = { id: accountId, defaultTrackOpens: false, defaultTrackClicks: false };
  const drafts = emails.map((email) => rowFor({ account: draftAccount, now }, email, "", source));
  const first = drafts[0]?.id ?? "";
  const written = sql`EXISTS (SELECT 1 FROM emails WHERE id = ${first})`;
  const amounts: UsageAmounts = {
    emails: emails.length,
    bytes: drafts.reduce((sum, row) => sum + (row.storedBytes ?? 0), 0),
  };
  const windows = emailWindows(now);
  const guarded = (condition: SQL) => (guard ? sql`(${condition} AND ${guard})` : condition);
  const checks = guarded(checksSql(accountId, domains, recipients, emails, amounts, windows));
  const reads = sendStateQueries(db, accountId, domains, recipients);
  const statements = [
    ...reads,
    ...(guard ? [sql`SELECT ${guard} AS fresh`] : []),
    ensureUsageRow(accountId),
    ...drafts.flatMap((row, i) => {
      const email = emails[i] as NormalizedEmail;
      return insertEmailStatements(
        db,
        row,
        email.recipients,
        email.tags,
        i === 0 ? checks : written,
        derivedColumns(accountId, email),
      );
    }),
    addUsageIf(accountId, amounts, windows, written),
    ...withEmails(drafts, written),
    ...(drafts.length === 0
      ? []
      : deliveryOutcomes.accepted(
          drafts.map((row) => row.id),
          now,
        )),
  ];
  const guardRead = guard ? reads.length : -1;
  const firstInsert = reads.length + (guard ? 2 : 1);

  const files = attachmentFiles(drafts, emails);
  const dropFiles = () =>
    Promise.all(files.map((file) => ctx.files.delete(file.key))).catch((cleanup: unknown) =>
      log.warn("emails.attachment_cleanup_failed", describeError(cleanup)),
    );
  let results: D1Result[];
  try {
    await Promise.all(files.map((file) => ctx.files.put(file.key, file.bytes)));
    results = await runBatch(db, statements);
  } catch (error) {
    await dropFiles();
    throw error;
  }
  const state = sendStateOf(results.slice(0, reads.length));
  if (results[firstInsert]?.meta.changes !== 1) {
    await dropFiles();
    const fresh = (results[guardRead]?.results[0] as { fresh?: number } | undefined)?.fresh;
    if (guard && fresh !== 1) throw new StaleSend("emails.accept: built from what changed meanwhile");
    await refuse(db, accountId, state, emails, amounts.bytes, now);
    throw new Error("emails.accept: the batch refused emails that every check admits");
  }
  const account = state.account as RowAccount;
  return drafts.map((draft, i) => {
    const email = emails[i] as NormalizedEmail;
    const connectionId = state.connections.get(email.fromDomain)?.id ?? "";
    return rowFor({ account, now }, email, connectionId, source, draft.id);
  });
}

/**
 * Throws what the checks answer for this state, in the API's order (`checkedInOrder`, which counts
 * a refusal for a suppressed recipient); storage comes last, as it did.
 */
async function refuse(
  db: Db,
  accountId: string,
  state: SendState,
  emails: NormalizedEmail[],
  bytes: number,
  now: number,
) {
  if (!state.account) throw notFound(`Account ${accountId}`);
  const { limits } = await checkedInOrder({ db, account: state.account, state, now }, emails);
  assertStorageQuota(currentUsage(state.usage, now), limits, bytes);
}

/**
 * SQL: every check of a send holds as the batch runs (see acceptEmails). Columns of
 * account_usage are unqualified (usageRoom's), so the limits come from a subquery of their own
 * names. Lists travel as one JSON parameter each, to stay far below D1's 100 per statement.
 */
function checksSql(
  accountId: string,
  domains: string[],
  recipients: string[],
  emails: NormalizedEmail[],
  amounts: UsageAmounts,
  windows: ReturnType<typeof emailWindows>,
): SQL {
  const mostRecipients = Math.max(0, ...emails.map((e) => e.recipients.length));
  const noneSuppressed = sql`AND NOT EXISTS (SELECT 1 FROM suppressions
           WHERE account_id = ${accountId} AND email IN (SELECT value FROM json_each(${JSON.stringify(recipients)})))`;
  const limit = (quota: Parameters<typeof limitSql>[0], name: string) =>
    sql`${limitSql(quota, "acct")} AS ${sql.identifier(name)}`;
  return sql`EXISTS (
    SELECT 1 FROM (
      SELECT acct.id AS limited_account,
        ${limit("recipients_per_email", "lim_recipients")}, ${limit("emails_per_month", "lim_month")},
        ${limit("emails_per_day", "lim_day")}, ${limit("emails_per_hour", "lim_hour")},
        ${limit("storage_bytes", "lim_storage")}
      FROM accounts AS acct WHERE acct.id = ${accountId}
    ) AS lim
    JOIN account_usage ON account_usage.account_id = lim.limited_account
    WHERE ${mayActSql(accountId)}
      AND (SELECT count(*) FROM connections
           WHERE account_id = ${accountId} AND status = 'verified'
             AND domain IN (SELECT value FROM json_each(${JSON.stringify(domains)}))) = ${domains.length}
      ${noneSuppressed}
      AND (lim.lim_recipients IS NULL OR ${mostRecipients} <= lim.lim_recipients)
      AND ${usageRoom(amounts, windows, {
        month: sql`lim.lim_month`,
        day: sql`lim.lim_day`,
        hour: sql`lim.lim_hour`,
        storage: sql`lim.lim_storage`,
      })})`;
}

/** The email row's columns the batch reads: its sender connection and the account's tracking defaults. */
function derivedColumns(accountId: string, email: NormalizedEmail): DerivedColumns {
  const accountDefault = (column: string) =>
    sql`(SELECT ${sql.identifier(column)} FROM accounts WHERE id = ${accountId})`;
  return {
    connectionId: sql`(SELECT id FROM connections WHERE account_id = ${accountId} AND domain = ${email.fromDomain})`,
    ...(email.trackOpens === undefined ? { trackOpens: accountDefault("default_track_opens") } : {}),
    ...(email.trackClicks === undefined ? { trackClicks: accountDefault("default_track_clicks") } : {}),
  };
}
