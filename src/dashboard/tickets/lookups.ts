import type { Db } from "../../db/client";
import { listUsers, type UserRow } from "../../features/users/users.repo";
import { type InboxChoice, inboxChoices } from "../inbox-choices";

export type Person = Pick<UserRow, "id" | "name" | "email" | "status">;
export type Inbox = InboxChoice;

/**
 * The workspace's inboxes and people, for the selects and for naming assignees and authors.
 * Disabled users stay in the list: they still wrote messages and may still be assigned.
 */
export async function workspaceChoices(db: Db, accountId: string) {
  const [inboxes, people] = await Promise.all([inboxChoices(db, accountId), listUsers(db, accountId)]);
  return { inboxes, people: people as Person[] };
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
