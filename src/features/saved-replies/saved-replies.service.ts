import { runBatch } from "../../db/client";
import { notFound } from "../../lib/errors";
import { idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import { iso } from "../../lib/time";
import { inboxOf, type TicketContext } from "../tickets/ticket-context";
import { assertAssignable } from "../users/users.service";
import {
  deleteSavedReply,
  findSavedReply,
  insertSavedReplyStatement,
  type SavedReplyRow,
  savedReplyQueries,
  updateSavedReply,
} from "./saved-replies.repo";
import type {
  CreateSavedReplyInput,
  SavedReplyActions,
  UpdateSavedReplyInput,
} from "./saved-replies.schemas";
import { checkTemplate } from "./template";

export const toSavedReply = (row: SavedReplyRow) => ({
  id: row.id,
  name: row.name,
  body: row.body,
  inbox_id: row.inboxId,
  actions: JSON.parse(row.actions) as SavedReplyActions,
  created_by: row.createdBy,
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

export const savedReplyNotFound = (id: string) => notFound(`Saved reply ${id}`);

export async function savedReplyOf(ctx: TicketContext, id: string) {
  const row = await findSavedReply(ctx.db, ctx.accountId, id);
  if (!row) throw savedReplyNotFound(id);
  return row;
}

/** What a save checks before writing: the template (422), the inbox (404) and the assignee (400). */
async function checkFields(ctx: TicketContext, input: UpdateSavedReplyInput) {
  if (input.body !== undefined) checkTemplate(input.body);
  if (input.inbox_id) await inboxOf(ctx, input.inbox_id);
  await assertAssignable(ctx, input.actions?.assignee_id, "body.actions.assignee_id");
}

export async function listSavedReplies(
  ctx: TicketContext,
  inboxId: string | undefined,
  page: { limit: number; offset: number },
) {
  const { page: query, total } = savedReplyQueries(ctx.db, ctx.accountId, inboxId, page.limit, page.offset);
  const [rows, totals] = await ctx.db.batch([query, total]);
  return { replies: rows.map(toSavedReply), total: totals[0]?.total ?? 0 };
}

/** POST /v1/saved-replies: the row and the idempotent answer commit in one batch. */
export async function createSavedReply(
  ctx: TicketContext,
  input: CreateSavedReplyInput,
  options: { idempotencyKey?: string | undefined; userId?: string } = {},
) {
  const request = { key: options.idempotencyKey, scope: "saved_replies", body: input };
  const created = await idempotentCreate(ctx, request, async (store) => {
    await checkFields(ctx, input);
    const row: SavedReplyRow = {
      id: newId("srp"),
      accountId: ctx.accountId,
      name: input.name,
      body: input.body,
      inboxId: input.inbox_id ?? null,
      actions: JSON.stringify(input.actions ?? {}),
      createdBy: options.userId ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    const answer = toSavedReply(row);
    await runBatch(ctx.db, [insertSavedReplyStatement(ctx.db, row), ...store.answer(201, answer)]);
    return { status: 201 as const, body: answer };
  });
  return created.body;
}

export async function getSavedReply(ctx: TicketContext, id: string) {
  return toSavedReply(await savedReplyOf(ctx, id));
}

export async function patchSavedReply(ctx: TicketContext, id: string, input: UpdateSavedReplyInput) {
  await checkFields(ctx, input);
  const updated = await updateSavedReply(ctx.db, ctx.accountId, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
    ...(input.inbox_id !== undefined ? { inboxId: input.inbox_id } : {}),
    ...(input.actions !== undefined ? { actions: JSON.stringify(input.actions) } : {}),
    updatedAt: ctx.now,
  });
  if (!updated) throw savedReplyNotFound(id);
  return toSavedReply(updated);
}

export async function removeSavedReply(ctx: TicketContext, id: string) {
  if (!(await deleteSavedReply(ctx.db, ctx.accountId, id))) throw savedReplyNotFound(id);
  return { id, deleted: true as const };
}
