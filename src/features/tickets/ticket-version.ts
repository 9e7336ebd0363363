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

  first(): Statement[] {
    if (!this.expected) return [];
    const versions = this.expected === "*" ? null : JSON.stringify(this.expected);
    return [
      sql`INSERT INTO ticket_version_checks (ticket_id, account_id, versions)
          VALUES (${this.ticketId}, ${this.accountId}, ${versions})`,
    ];
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

/** A batch that the If-Match check aborted, as the 412 it is; any other failure as it was. */
export function asTicketChanged(error: unknown): unknown {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.message.includes("ticket_changed")) return ticketChanged();
  }
  return error;
}

/** Runs a ticket write's batch, between the guard's check and read when there is one. */
export async function runGuarded(ctx: { db: Db }, statements: Statement[], guard?: VersionGuard) {
  if (!guard) return runBatch(ctx.db, statements);
  try {
    const results = await runBatch(ctx.db, [...guard.first(), ...statements, guard.last()]);
    guard.readFrom(results);
    return results;
  } catch (error) {
    throw asTicketChanged(error);
  }
}
