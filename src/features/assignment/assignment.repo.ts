import { type SQL, sql } from "drizzle-orm";

/**
 * Statuses a ticket holds while someone still has work on it: what an agent's capacity counts
 * and what `balanced` compares.
 */
export const WORKING_STATUSES = ["open", "pending", "on_hold"] as const;

const working = sql.join(
  WORKING_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);

/** The open tickets assigned to `userId` (a column or a value), counted on an index. */
const openTicketsOf = (accountId: string, userId: SQL) =>
  sql`(SELECT count(*) FROM tickets ot
       WHERE ot.account_id = ${accountId} AND ot.assignee_id = ${userId} AND ot.status IN (${working}))`;

/**
 * The user the inbox's rule gives a ticket now, or NULL: an active, available user of the
 * workspace under their capacity, taken in turn after the inbox's cursor (round robin), or the
 * one with the fewest open tickets and, among equals, in turn (balanced). NULL for a manual inbox.
 * It is one subquery of the statement that assigns, so concurrent tickets each see the ones
 * assigned before them: nobody passes their capacity and the turns stay fair.
 */
export function chosenAssignee(accountId: string, inboxId: string): SQL {
  const inbox = (column: string) =>
    sql`(SELECT ${sql.identifier(column)} FROM inboxes WHERE id = ${inboxId} AND account_id = ${accountId})`;
  const open = openTicketsOf(accountId, sql`u.id`);
  return sql`(SELECT u.id FROM users u
    WHERE u.account_id = ${accountId} AND u.status = 'active' AND u.available = 1
      AND (u.capacity IS NULL OR ${open} < u.capacity)
      AND ${inbox("assignment_rule")} IN ('round_robin', 'balanced')
    ORDER BY CASE WHEN ${inbox("assignment_rule")} = 'balanced' THEN ${open} ELSE 0 END,
      u.id <= coalesce(${inbox("assignment_cursor")}, ''), u.id
    LIMIT 1)`;
}

/** A ticket's assignee who can no longer work on it: none, away, disabled or removed. */
const assigneeGone = (accountId: string) => sql`(assignee_id IS NULL OR NOT EXISTS (
  SELECT 1 FROM users au WHERE au.id = tickets.assignee_id AND au.account_id = ${accountId}
    AND au.status = 'active' AND au.available = 1))`;

/**
 * The statements that assign a ticket by its inbox's rule, for the batch that opens or reopens
 * it: the ticket's update, then the cursor's, which runs only when the first changed the ticket
 * (`changes()` is the previous statement's count), so a ticket event put right after them can be
 * guarded the same way (`assignedJustNow`). A new ticket is assigned only while it has no
 * assignee; a reopened one (`reopening`: the batch's own update reopens it after these
 * statements, so they read it still resolved or closed) when its assignee can no longer work on
 * it, and then it may become unassigned. The ticket's update answers the new `assignee_id`.
 */
export function assignByRule(
  accountId: string,
  ticket: { id: string; inboxId: string },
  reopening = false,
): SQL[] {
  const choice = chosenAssignee(accountId, ticket.inboxId);
  const due = reopening
    ? sql`status IN ('resolved', 'closed') AND ${assigneeGone(accountId)}`
    : sql`assignee_id IS NULL`;
  return [
    sql`UPDATE tickets SET assignee_id = ${choice}
        WHERE id = ${ticket.id} AND account_id = ${accountId} AND ${due}
          AND (SELECT assignment_rule FROM inboxes WHERE id = ${ticket.inboxId}) != 'manual'
          AND assignee_id IS NOT ${choice}
        RETURNING assignee_id`,
    sql`UPDATE inboxes
        SET assignment_cursor = coalesce((SELECT assignee_id FROM tickets WHERE id = ${ticket.id}), assignment_cursor)
        WHERE id = ${ticket.inboxId} AND account_id = ${accountId} AND changes() > 0`,
  ];
}

/**
 * Whether the inbox's rule, as its row was read before the batch, may assign at all: a manual
 * inbox's batch leaves `assignByRule`'s statements out, since they could change nothing (a ticket
 * of a manual inbox is never assigned by rule). A rule set between the read and the batch then
 * applies from the next ticket on, as if it had been set just after this one; a rule turned to
 * manual meanwhile is still seen by the statements themselves.
 */
export const ruleMayAssign = (inbox: { assignmentRule: string }) => inbox.assignmentRule !== "manual";

/** True in the statement right after `assignByRule`'s: the rule changed the ticket's assignee. */
export const assignedJustNow = sql`changes() > 0`;
