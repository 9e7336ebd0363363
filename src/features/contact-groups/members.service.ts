import { type Db, runBatch, type Statement } from "../../db/client";
import { notFound } from "../../lib/errors";
import { type AnswerStore, idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import { enrolGroupJoiners, type TriggerContext } from "../automations/triggers";
import { toMember } from "./contact-groups.dto";
import { contactGroupQuery } from "./contact-groups.repo";
import type { AddContactGroupMembersInput } from "./contact-groups.schemas";
import { groupNotFound } from "./contact-groups.service";
import {
  countJoinersInto,
  customersByKeyQuery,
  deleteMember,
  insertMembers,
  insertNewCustomers,
  memberPageQuery,
  type NewCustomer,
} from "./members.repo";

/** A page of members, newest first; the total is the group's exact `member_count`, read, not counted. */
export async function listMembers(db: Db, accountId: string, groupId: string, limit: number, offset: number) {
  const [groups, rows] = await db.batch([
    contactGroupQuery(db, accountId, groupId),
    memberPageQuery(db, accountId, groupId, limit, offset),
  ]);
  const group = groups[0];
  if (!group) throw groupNotFound(groupId);
  return { members: rows.map(toMember), total: group.memberCount };
}

/**
 * The request's customers, each once: by address (with an id ready in case the customer is new; the
 * first name given wins) and by id.
 */
function splitMembers(members: AddContactGroupMembersInput["members"]) {
  const byEmail = new Map<string, NewCustomer>();
  const ids = new Set<string>();
  for (const member of members) {
    if ("customer_id" in member) ids.add(member.customer_id);
    else if (!byEmail.has(member.email)) {
      byEmail.set(member.email, { id: newId("cus"), email: member.email, name: member.name ?? null });
    }
  }
  return { addressed: [...byEmail.values()], ids: [...ids] };
}

/**
 * Adds up to 1,000 members in one batch: customers named by an address the workspace lacks are
 * created, existing members are skipped. Every `customer_id` must be a customer of the workspace,
 * or nothing is added (404). `added + skipped` is the number of entries in the request. The
 * customers who joined are enrolled into the workspace's active `group_joined` automations of the
 * group, after the response (`ctx.defer`); an automation's `add_to_group` step calls this too, so
 * its joiners are enrolled the same way (inline there, no response to wait for).
 */
export async function addMembers(
  ctx: TriggerContext,
  groupId: string,
  input: AddContactGroupMembersInput,
  idempotencyKey?: string,
) {
  const request = { key: idempotencyKey, scope: `contact_groups/${groupId}/members`, body: input };
  const added = await idempotentCreate(ctx, request, (store) => joinMembers(ctx, groupId, input, store));
  return added.body;
}

async function joinMembers(
  ctx: TriggerContext,
  groupId: string,
  input: AddContactGroupMembersInput,
  store: AnswerStore,
) {
  const { db, accountId, now } = ctx;
  const { addressed, ids } = splitMembers(input.members);
  const [group, known] = await runBatch(db, [
    contactGroupQuery(db, accountId, groupId),
    customersByKeyQuery(accountId, { column: "id", values: ids }),
  ]);
  if (!group?.results.length) throw groupNotFound(groupId);
  const knownIds = new Set((known?.results ?? []).map((row) => (row as { id: string }).id));
  const unknown = ids.filter((id) => !knownIds.has(id));
  if (unknown.length > 0) throw notFound(`Customer ${unknown.slice(0, 5).join(", ")}`);

  // Who joins is only known inside the batch, so the stored answer starts with none added and each
  // member insert counts its joiners into it (see countJoinersInto).
  const statements: Statement[] = [...store.answer(200, { added: 0, skipped: input.members.length })];
  const counted = (insert: Statement) =>
    store.key ? [insert, countJoinersInto(accountId, store.key)] : [insert];
  if (addressed.length > 0) {
    statements.push(
      insertNewCustomers(accountId, addressed, now),
      ...counted(
        insertMembers(accountId, groupId, { column: "email", values: addressed.map((c) => c.email) }, now),
      ),
    );
  }
  if (ids.length > 0)
    statements.push(...counted(insertMembers(accountId, groupId, { column: "id", values: ids }, now)));
  const results = await runBatch(db, statements);
  // Only the member inserts return rows: one per customer that joined.
  const joined = results.flatMap((result) => (result.results ?? []) as Array<{ customer_id: string }>);
  await enrolGroupJoiners(
    ctx,
    groupId,
    joined.map((row) => row.customer_id),
  );
  return {
    status: 200 as const,
    body: { added: joined.length, skipped: input.members.length - joined.length },
  };
}

/** Removes one customer from the group; the customer stays. */
export async function removeMember(db: Db, accountId: string, groupId: string, customerId: string) {
  if (await deleteMember(db, accountId, groupId, customerId)) return;
  if (!(await contactGroupQuery(db, accountId, groupId))[0]) throw groupNotFound(groupId);
  throw notFound(`Customer ${customerId} as a member of contact group ${groupId}`);
}
