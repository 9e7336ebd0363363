/** The filtered ticket lists the tickets-list scenario measures, and how many seeded tickets each matches. */
import {
  countSeeded,
  SEEDED_TAG,
  seededAssigned,
  seededInbox,
  seededPriority,
  seededStatus,
  seededTagged,
  type TicketWorkspace,
} from "./tickets-seed";

export interface TicketListCase {
  name: string;
  /** The list's path in this workspace. */
  path(workspace: TicketWorkspace): string;
  /** Whether seeded ticket n matches. */
  matches(n: number): boolean;
}

const LIST = "/v1/tickets?limit=50";

export const PLAIN_LIST: TicketListCase = { name: "no filter", path: () => LIST, matches: () => true };

export const FILTERED_LISTS: TicketListCase[] = [
  { name: "status", path: () => `${LIST}&status=open`, matches: (n) => seededStatus(n) === "open" },
  {
    name: "inbox_id",
    path: (w) => `${LIST}&inbox_id=${w.inboxIds[1]}`,
    matches: (n) => seededInbox(n) === 1,
  },
  {
    name: "assignee_id",
    path: (w) => `${LIST}&assignee_id=${w.ownerId}`,
    matches: seededAssigned,
  },
  { name: "tag", path: () => `${LIST}&tag=${SEEDED_TAG}`, matches: seededTagged },
  {
    name: "status+priority",
    path: () => `${LIST}&status=open&priority=high`,
    matches: (n) => seededStatus(n) === "open" && seededPriority(n) === "high",
  },
];

/** The total a list must answer in a seeded workspace. */
export const expectedTotal = (list: TicketListCase, workspace: TicketWorkspace) =>
  countSeeded(workspace.tickets, list.matches);
