import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db, Statement } from "../../db/client";
import { tickets } from "../../db/schema";
import type { TicketRow } from "../tickets/tickets.repo";
import { inboxPolicy } from "./inbox-policy";
import { policyById } from "./sla-policies.repo";
import { policyTerms } from "./sla-policies.service";
import { advance, openedState, type SlaMove, type SlaState, slaColumns, TARGET_NAMES } from "./sla-state";

/** The SLA's name for a published message's activity: notes and automatic answers move nothing. */
export const slaMessage = (activity: "customer" | "reply" | "note") =>
  activity === "note" ? undefined : activity;

type Ctx = { db: Db; accountId: string; now: number };

/**
 * The SLA columns of a new ticket: its inbox's enabled policy starts first response and
 * resolution now (`replied`: an agent opened it, so its first response is met). Empty when no
 * policy covers the inbox.
 */
export function slaOfNewTicket(
  ctx: Pick<Ctx, "now">,
  row: TicketRow,
  inbox: { slaPolicy: string | null },
  replied = false,
): ReturnType<typeof slaColumns> {
  const policy = inboxPolicy(inbox);
  if (!policy) return slaColumns(null, ctx.now);
  const move = {
    status: row.status,
    priority: row.priority,
    message: replied ? ("reply" as const) : undefined,
  };
  return slaColumns(openedState(policy.id, policy.terms, move, ctx.now), ctx.now);
}

/**
 * The terms of the policy a ticket runs under: its inbox's copy when that is still the same policy
 * (no round trip), else the policy row (the inbox moved to another policy, or none: the ticket
 * keeps the one it started under); null once that policy was deleted.
 */
async function termsOf(ctx: Ctx, policyId: string, inbox: { slaPolicy: string | null } | undefined) {
  const copy = inbox ? inboxPolicy(inbox) : null;
  if (copy?.id === policyId) return copy.terms;
  const policy = await policyById(ctx.db, ctx.accountId, policyId);
  return policy ? policyTerms(policy) : null;
}

/**
 * The statement that moves a ticket's SLA for a write that takes it from `before` to `after`
 * (with `message` when it publishes one), for that write's batch; none when the ticket has no
 * SLA, nothing that moves it changed, or its policy was deleted (its SLA then stays as it is).
 * Computed from the ticket as this request read it: a concurrent write's SLA change may be
 * overwritten by this one (docs/sla.md).
 */
export async function slaStatements(
  ctx: Ctx,
  before: TicketRow,
  after: Pick<TicketRow, "status" | "priority">,
  message?: SlaMove["message"],
  inbox?: { slaPolicy: string | null },
): Promise<Statement[]> {
  if (!before.sla) return [];
  if (!message && before.status === after.status && before.priority === after.priority) return [];
  const state = JSON.parse(before.sla) as SlaState;
  const terms = await termsOf(ctx, state.policy_id, inbox);
  if (!terms) return [];
  const next = advance(state, terms, { status: after.status, priority: after.priority, message }, ctx.now);
  const columns = slaColumns(next, ctx.now);
  return [
    ctx.db
      .update(tickets)
      .set({ ...columns, sla: columns.sla === null ? null : keepingMarks(columns.sla) })
      .where(and(eq(tickets.id, before.id), eq(tickets.accountId, ctx.accountId))),
  ];
}

/**
 * The new state with the sweep's marks of the row as it is when this runs: a sweep may have fired
 * a warning or breach after this request read the ticket, and a mark for the same due time must
 * stay, or the next sweep would fire it again. (A `sla_next_at` this write made from its older
 * read then finds nothing to fire, and the sweep sets it again.)
 */
function keepingMarks(state: string): SQL {
  const marks = TARGET_NAMES.flatMap((name) =>
    (["warned_for", "breached_for"] as const).map((flag) => {
      const at = (field: string) => `$.${name}.${field}`;
      return sql`${at(flag)}, CASE WHEN json_extract(sla, ${at(flag)}) = json_extract(${state}, ${at("due_at")})
        THEN json_extract(sla, ${at(flag)}) ELSE json_extract(${state}, ${at(flag)}) END`;
    }),
  );
  return sql`json_set(${state}, ${sql.join(marks, sql`, `)})`;
}
