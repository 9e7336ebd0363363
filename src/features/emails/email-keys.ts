import { type SQL, sql } from "drizzle-orm";

/**
 * The row numbers behind public ids (issue 29): an email's recipients, tags and events refer to it
 * by `emails.seq`, and the list indexes name a workspace by `accounts.seq`. Each is looked up in
 * SQL, inside the statement that needs it, through a unique index: no extra round trip.
 */
export const emailSeqOf = (emailId: string | SQL): SQL => sql`(SELECT seq FROM emails WHERE id = ${emailId})`;

export const accountSeqOf = (accountId: string | SQL): SQL =>
  sql`(SELECT seq FROM accounts WHERE id = ${accountId})`;
