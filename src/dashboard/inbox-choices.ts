import type { Db } from "../db/client";
import { type InboxRow, listInboxes } from "../features/inboxes/inboxes.repo";

/** What an inbox select offers: the newest hundred (a workspace rarely has more). */
const INBOX_CHOICES = 100;

export type InboxChoice = Pick<InboxRow, "id" | "name" | "emailAddress">;

/** The workspace's inboxes for a select, newest first: one list shared by every page that filters by inbox. */
export async function inboxChoices(db: Db, accountId: string): Promise<InboxChoice[]> {
  return (await listInboxes(db, accountId, INBOX_CHOICES, 0)).rows;
}
