import { and, eq, ne, sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { slaPolicies, slaPolicyInboxes } from "../../db/schema";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { iso } from "../../lib/time";
import { isUniqueViolation } from "../../lib/unique-violation";
import type { Hours } from "./business-time";
import { refreshInboxPolicies } from "./inbox-policy";
import {
  findPolicy,
  policiesQuery,
  type SlaPolicyRow,
  type SlaPolicyView,
  setPolicyInboxes,
  workspaceInboxCount,
} from "./sla-policies.repo";
import type { CreateSlaPolicyInput, SlaTargets, UpdateSlaPolicyInput } from "./sla-policies.schemas";

type Ctx = { db: Db; accountId: string; now: number };

/** A stored policy's parsed columns: what the ticket clock reads. */
export const policyTerms = (row: SlaPolicyRow) => ({
  targets: JSON.parse(row.targets) as SlaTargets,
  hours: JSON.parse(row.hours) as Hours,
  pauseStatuses: JSON.parse(row.pauseStatuses) as string[],
  warningBefore: row.warningBefore,
});
export type PolicyTerms = ReturnType<typeof policyTerms>;

export function toSlaPolicy({ policy, inboxIds }: SlaPolicyView) {
  const terms = policyTerms(policy);
  return {
    id: policy.id,
    name: policy.name,
    inbox_ids: (JSON.parse(inboxIds) as Array<string | null>)
      .filter((id): id is string => id !== null)
      .sort(),
    targets: terms.targets,
    hours: terms.hours,
    pause_statuses: terms.pauseStatuses as Array<"pending" | "on_hold">,
    warning_before: policy.warningBefore,
    enabled: policy.enabled,
    created_at: iso(policy.createdAt),
    updated_at: iso(policy.updatedAt),
  };
}

export async function listSlaPolicies(ctx: Ctx) {
  return (await policiesQuery(ctx.db, ctx.accountId)).map(toSlaPolicy);
}

export async function getSlaPolicy(ctx: Ctx, id: string) {
  const view = await findPolicy(ctx.db, ctx.accountId, id);
  if (!view) throw notFound(`SLA policy ${id}`);
  return toSlaPolicy(view);
}

const inboxTaken = (ids: string[]) =>
  conflict(
    "inbox_has_sla_policy",
    "Inbox already covered",
    `${ids.join(", ")} ${ids.length === 1 ? "is" : "are"} covered by another SLA policy; an inbox is covered by one policy at most.`,
  );

/** Every inbox is the workspace's (404) and held by no other policy (409), checked before writing. */
async function checkInboxes(ctx: Ctx, policyId: string, ids: string[]) {
  if ((await workspaceInboxCount(ctx.db, ctx.accountId, ids)) !== ids.length)
    throw notFound(`One of the inboxes ${ids.join(", ")}`);
  if (ids.length === 0) return;
  const held = await ctx.db
    .select({ inboxId: slaPolicyInboxes.inboxId })
    .from(slaPolicyInboxes)
    .where(
      and(
        ne(slaPolicyInboxes.policyId, policyId),
        sql`${slaPolicyInboxes.inboxId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
      ),
    );
  if (held.length > 0) throw inboxTaken(held.map((h) => h.inboxId));
}

/** The batch, with the race the check above cannot close (two policies claiming one inbox) as 409. */
async function commit(ctx: Ctx, statements: Parameters<typeof runBatch>[1], ids: string[] | undefined) {
  try {
    await runBatch(ctx.db, statements);
  } catch (error) {
    if (ids && isUniqueViolation(error)) throw inboxTaken(ids);
    throw error;
  }
}

export async function createSlaPolicy(ctx: Ctx, input: CreateSlaPolicyInput) {
  const id = newId("sla");
  await checkInboxes(ctx, id, input.inbox_ids);
  const row: SlaPolicyRow = {
    id,
    accountId: ctx.accountId,
    name: input.name,
    targets: JSON.stringify(input.targets),
    hours: JSON.stringify(input.hours),
    pauseStatuses: JSON.stringify(input.pause_statuses),
    warningBefore: input.warning_before,
    enabled: input.enabled,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await commit(
    ctx,
    [
      ctx.db.insert(slaPolicies).values(row),
      ...setPolicyInboxes(ctx.db, ctx.accountId, id, input.inbox_ids),
      refreshInboxPolicies(ctx.accountId),
    ],
    input.inbox_ids,
  );
  return getSlaPolicy(ctx, id);
}

export async function updateSlaPolicy(ctx: Ctx, id: string, input: UpdateSlaPolicyInput) {
  if (!(await findPolicy(ctx.db, ctx.accountId, id))) throw notFound(`SLA policy ${id}`);
  if (input.inbox_ids) await checkInboxes(ctx, id, input.inbox_ids);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.targets !== undefined ? { targets: JSON.stringify(input.targets) } : {}),
    ...(input.hours !== undefined ? { hours: JSON.stringify(input.hours) } : {}),
    ...(input.pause_statuses !== undefined ? { pauseStatuses: JSON.stringify(input.pause_statuses) } : {}),
    ...(input.warning_before !== undefined ? { warningBefore: input.warning_before } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    updatedAt: ctx.now,
  };
  await commit(
    ctx,
    [
      ctx.db
        .update(slaPolicies)
        .set(changes)
        .where(and(eq(slaPolicies.accountId, ctx.accountId), eq(slaPolicies.id, id))),
      ...(input.inbox_ids ? setPolicyInboxes(ctx.db, ctx.accountId, id, input.inbox_ids) : []),
      refreshInboxPolicies(ctx.accountId),
    ],
    input.inbox_ids,
  );
  return getSlaPolicy(ctx, id);
}

export async function deleteSlaPolicy(ctx: Ctx, id: string) {
  const [deleted] = await runBatch(ctx.db, [
    ctx.db
      .delete(slaPolicies)
      .where(and(eq(slaPolicies.accountId, ctx.accountId), eq(slaPolicies.id, id)))
      .returning({ id: slaPolicies.id }),
    refreshInboxPolicies(ctx.accountId),
  ]);
  if ((deleted?.results.length ?? 0) === 0) throw notFound(`SLA policy ${id}`);
  return { id, deleted: true as const };
}
