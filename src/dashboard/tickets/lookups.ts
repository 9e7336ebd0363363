import type { Db } from "../../db/client";
import { type InboxRow, listInboxes } from "../../features/inboxes/inboxes.repo";
import { listUsers, type UserRow } from "../../features/users/users.repo";

/** The inboxes a select offers: the newest hundred (a workspace rarely has more). */
const INBOX_CHOICES = 100;

export type Person = Pick<UserRow, "id" | "name" | "email" | "status">;
export type Inbox = Pick<InboxRow, "id" | "name" | "emailAddress">;

/**
 * The workspace's inboxes and people, for the selects and for naming assignees and authors.
 * Disabled users stay in the list: they still wrote messages and may still be assigned.
 */
export async function workspaceChoices(db: Db, accountId: string) {
  const [inboxes, people] = await Promise.all([
    listInboxes(db, accountId, INBOX_CHOICES, 0),
    listUsers(db, accountId),
  ]);
  return { inboxes: inboxes.rows as Inbox[], people: people as Person[] };
}

export const personName = (person: Person | undefined) =>
  person ? person.name?.trim() || person.email : "Unknown user";

/** The assignee select: Unassigned, the active users, and a disabled current assignee (marked). */
export function assigneeOptions(people: Person[], current: string | null) {
  return [
    { value: "", label: "Unassigned" },
    ...people
      .filter((p) => p.status === "active" || p.id === current)
      .map((p) => ({
        value: p.id,
        label: p.status === "active" ? personName(p) : `${personName(p)} (disabled)`,
      })),
  ];
}
