import { sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../../db/client";
import { type EntityTagList, parseEntityTags, strongTags } from "../../lib/entity-tags";
import { AppError } from "../../lib/errors";

/** A ticket's strong ETag: its `version`, which triggers move on every change GET shows. */
export const etagOf = (version: number) => `"v${version}"`;

export const ticketChanged = () =>
  new AppError(
    412,
    "ticket_changed",
    "Ticket changed",
    "The ticket changed (a new message, a status, an assignee, tags...) since the version If-Match names; nothing was stored or sent. GET it again for its ETag and the news, then retry with that ETag.",
  );

/** Aborts its batch (`ticket_changed`) unless the ticket is at one of `expected`'s versions. */
export const versionCheck = (accountId: string, ticketId: string, expected: ExpectedVersion): Statement =>
  sql`INSERT INTO ticket_version_checks (ticket_id, account_id, versions)
      VALUES (${ticketId}, ${accountId}, ${expected === "*" ? null : JSON.stringify(expected)})`;

/** Aborts its batch (`ticket_merged`) when the ticket was merged (migration 0049). */
export const unmergedCheck = (accountId: string, ticketId: string): Statement =>
  sql`INSERT INTO ticket_unmerged_checks (ticket_id, account_id) VALUES (${ticketId}, ${accountId})`;

const mergedMeanwhile = () =>
  new AppError(
    409,
    "ticket_merged",
    "Ticket merged",
    "The ticket was merged into another while this write ran; nothing was stored or sent. GET it for merged_into_id and write to that ticket.",
  );

/** The If-Match the write must meet: the versions its strong tags name, or any version (`*`). */
export type ExpectedVersion = number[] | "*";

export function expectedVersion(ifMatch: EntityTagList | undefined): ExpectedVersion | undefined {
  if (ifMatch === undefined) return undefined;
  const tags = strongTags(ifMatch);
  if (tags === "*") return "*";
  return tags.flatMap((tag) => {
    const version = /^"v(\d{1,15})"$/.exec(tag)?.[1];
    return version ? [Number(version)] : [];
  });
}

/**
 * One conditional write of a ticket: the check that goes first in its batch (the view's trigger
 * aborts the batch when the ticket is at another version), and the read that goes last, so the
 * answer's ETag is the version this batch left, whatever commits after it. The batch is the only
 * check: one made before it (on the ticket as read) could pass for two racing writes alike.
 */
export class VersionGuard {
  /** The version the batch left, once it committed with `last()` in it. */
  version: number | undefined;

  constructor(
    private readonly accountId: string,
    private readonly ticketId: string,
    readonly expected: ExpectedVersion | undefined,
  ) {}

  /**
   * The checks that go first: the ticket is not merged (a merge that committed after the write read
   * it has moved its messages away), and, with If-Match, it is at a version named.
   */
  first(): Statement[] {
    const unmerged = unmergedCheck(this.accountId, this.ticketId);
    if (!this.expected) return [unmerged];
    return [unmerged, versionCheck(this.accountId, this.ticketId, this.expected)];
  }

  last(): Statement {
    return sql`SELECT version AS ticket_version_left FROM tickets
      WHERE id = ${this.ticketId} AND account_id = ${this.accountId}`;
  }

  /**
   * Reads the version from the results of a batch with `last()` in it, found by its column's own
   * name: a caller may add statements after it (a reply's email acceptance does).
   */
  readFrom(results: D1Result[]) {
    for (const result of results) {
      const row = result.results?.[0] as { ticket_version_left?: number } | undefined;
      if (row?.ticket_version_left !== undefined) this.version = row.ticket_version_left;
    }
  }

  /** The answer's ETag, when the write committed (an idempotent replay wrote nothing: none). */
  headers(): Record<string, string> {
    return this.version === undefined ? {} : { ETag: etagOf(this.version) };
  }
}

/** The guard of a write to `ticketId` from its request's If-Match (always reads the new version). */
export const guardFor = (ctx: { accountId: string }, ticketId: string, ifMatch: string | undefined) =>
  new VersionGuard(ctx.accountId, ticketId, expectedVersion(parseEntityTags("If-Match", ifMatch)));

/**
 * A batch that the If-Match check aborted, as the 412 it is, and one a merge aborted as the 409 it
 * is; any other failure as it was.
 */
export function asTicketChanged(error: unknown): unknown {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.message.includes("ticket_changed")) return ticketChanged();
    if (current.message.includes("ticket_merged")) return mergedMeanwhile();
  }
  return error;
}

/** Runs a ticket write's batch, between the guard's check and read when there is one. */
export async function runGuarded(ctx: { db: Db }, statements: Statement[], guard?: VersionGuard) {
  try {
    if (!guard) return await runBatch(ctx.db, statements);
    const results = await runBatch(ctx.db, [...guard.first(), ...statements, guard.last()]);
    guard.readFrom(results);
    return results;
  } catch (error) {
    throw asTicketChanged(error);
  }
}
