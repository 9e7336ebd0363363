import type { Db } from "../../db/client";
import { type UserRow, usersByIds, usersPage } from "../../features/users/users.repo";
import { type InboxChoice, inboxChoices } from "../inbox-choices";

export type Person = Pick<UserRow, "id" | "name" | "email" | "status">;
export type Inbox = InboxChoice;

/** How many people a picker offers besides those the page names, whatever the team's size. */
export const PICKER_PEOPLE = 50;

/**
 * The workspace's inboxes and people, for the selects and for naming assignees and authors: the
 * first PICKER_PEOPLE active users plus every user the page names (`named`: its assignees,
 * authors, the selected filter), so a page stays small in a workspace of thousands of users and
 * still shows whom it names. Named disabled users are included: they still wrote messages and
 * may still be assigned.
 */
export async function workspaceChoices(
  db: Db,
  accountId: string,
  named: Array<string | null | undefined> = [],
) {
  const ids = [...new Set(named.filter((id): id is string => Boolean(id)))];
  const [inboxes, first, mentioned] = await Promise.all([
    inboxChoices(db, accountId),
    usersPage(db, accountId, PICKER_PEOPLE, 0, true),
    ids.length > 0 ? usersByIds(db, accountId, ids) : Promise.resolve([]),
  ]);
  const people = new Map([...first, ...mentioned].map((user) => [user.id, user as Person]));
  return { inboxes, people: [...people.values()] };
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
