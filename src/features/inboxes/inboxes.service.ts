import { type Db, runBatch } from "../../db/client";
import { notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { type PageParams, pagedList, pageOffset } from "../../lib/pagination";
import { isUniqueViolation } from "../../lib/unique-violation";
import { announceEvents, type Defer } from "../../webhooks/announce";
import { recordEvent } from "../../webhooks/outbox";
import { attachmentKeysUnder, deleteFiles } from "../messages/messages.repo";
import { addressTaken, type ClaimEnv, claimInboxAddress, releaseInboxAddress } from "./address-claims";
import { inboxConnection } from "./inbox-connection";
import { toInbox } from "./inboxes.dto";
import {
  deleteInboxStatement,
  findInbox,
  type InboxRow,
  insertInbox,
  listInboxes,
  updateInboxStatement,
} from "./inboxes.repo";
import type { CreateInboxInput, UpdateInboxInput } from "./inboxes.schemas";
import { type WebhookEnv, webhooksColumn } from "./webhooks";

export interface InboxContext {
  db: Db;
  env: WebhookEnv & ClaimEnv & Pick<Env, "FILES" | "WEBHOOK_QUEUE">;
  accountId: string;
  now: number;
  /** Where work after the response goes; without it, that work is awaited. */
  defer?: Defer;
}

/**
 * The shard's own unique index on the address refused a write: an inbox of this shard holds it
 * that the directory does not name (made before the directory and not named yet).
 */
const isAddressConflict = (error: unknown) => isUniqueViolation(error, "inboxes.email_address");

async function ownInbox(ctx: InboxContext, id: string) {
  const row = await findInbox(ctx.db, ctx.accountId, id);
  if (!row) throw notFound(`Inbox ${id}`);
  return row;
}

const present = (row: InboxRow, ctx: InboxContext) => toInbox(row, ctx.env.ENCRYPTION_KEY);

/**
 * Creates an inbox: its address claimed in the directory first (unique across the service), then
 * the inbox in the workspace's shard; a write that fails gives the claim back. The spec has no
 * `inbox.created`, so no event is recorded.
 */
export async function createInbox(ctx: InboxContext, input: CreateInboxInput) {
  const connectionId = await inboxConnection(ctx.db, ctx.accountId, input.email_address, input.connection_id);
  const webhooks = await webhooksColumn(input.webhooks, ctx.env);
  const id = newId("inb");
  const address = input.email_address;
  await claimInboxAddress(ctx.env, { address, accountId: ctx.accountId, inboxId: id }, ctx.now);
  const [row] = await insertInbox(ctx.db, {
    id,
    accountId: ctx.accountId,
    name: input.name,
    emailAddress: address,
    connectionId,
    statusAfterReply: input.status_after_reply,
    assignmentRule: input.assignment_rule,
    webhooks,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }).catch(async (error: unknown) => {
    await releaseInboxAddress(ctx.env, address, id);
    throw error;
  });
  if (row) return present(row, ctx);
  await releaseInboxAddress(ctx.env, address, id);
  throw addressTaken(address);
}

export async function listAccountInboxes(ctx: InboxContext, page: PageParams) {
  const { rows, total } = await listInboxes(ctx.db, ctx.accountId, page.limit, pageOffset(page));
  return pagedList(await Promise.all(rows.map((row) => present(row, ctx))), total, page);
}

export async function getInbox(ctx: InboxContext, id: string) {
  return present(await ownInbox(ctx, id), ctx);
}

/**
 * Applies the fields sent; `webhooks`, when sent, replaces the whole list. Every successful PATCH
 * records `inbox.updated` with the new state, in the same batch as the change. A new address is
 * claimed in the directory before the change and the old one released after it (the new one
 * when the change fails).
 */
export async function updateInbox(ctx: InboxContext, id: string, input: UpdateInboxInput) {
  const before = await ownInbox(ctx, id);
  const emailAddress = input.email_address ?? before.emailAddress;
  // An inbox left at its address keeps its connection, even one whose domain has since failed a check.
  const connectionId =
    emailAddress !== before.emailAddress || input.connection_id !== undefined
      ? await inboxConnection(ctx.db, ctx.accountId, emailAddress, input.connection_id)
      : before.connectionId;
  const webhooks = input.webhooks ? await webhooksColumn(input.webhooks, ctx.env) : before.webhooks;
  const after: InboxRow = {
    ...before,
    name: input.name ?? before.name,
    emailAddress,
    connectionId,
    statusAfterReply: input.status_after_reply ?? before.statusAfterReply,
    assignmentRule: input.assignment_rule ?? before.assignmentRule,
    webhooks,
    updatedAt: ctx.now,
  };
  const moved = after.emailAddress !== before.emailAddress;
  if (moved) {
    const claim = { address: after.emailAddress, accountId: ctx.accountId, inboxId: id };
    await claimInboxAddress(ctx.env, claim, ctx.now);
  }
  // Sent to the webhooks as they are after the change: a webhook added or enabled by this very
  // edit hears about it; one removed or disabled by it does not.
  const event = recordEvent(
    { accountId: ctx.accountId, inbox: after, name: "inbox.updated", guard: { table: "inboxes", id } },
    ctx.now,
  );
  try {
    const [updated] = await runBatch(ctx.db, [updateInboxStatement(ctx.db, after), ...event.statements]);
    // Deleted between the read and the write: the event has no webhooks left to reach.
    if (!updated?.meta.changes) throw notFound(`Inbox ${id}`);
  } catch (error) {
    if (moved) await releaseInboxAddress(ctx.env, after.emailAddress, id);
    if (isAddressConflict(error)) throw addressTaken(after.emailAddress);
    throw error;
  }
  if (moved) await releaseInboxAddress(ctx.env, before.emailAddress, id);
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [event], ctx.defer);
  return present(after, ctx);
}

/**
 * Deletes the inbox with its tickets (and their messages and tag links) and tags, by foreign-key
 * cascade, and records `inbox.deleted` with the inbox as it last was, all in one batch. Cascaded
 * tickets fire no `ticket.deleted`: events go only to the inbox's webhooks, which go with it.
 * Attachment bytes in R2 are deleted once the rows are gone, and the address released in the directory.
 */
export async function removeInbox(ctx: InboxContext, id: string) {
  const before = await ownInbox(ctx, id);
  const files = await attachmentKeysUnder(ctx.db, ctx.accountId, { inboxId: id });
  const event = recordEvent(
    { accountId: ctx.accountId, inbox: before, name: "inbox.deleted", guard: { table: "inboxes", id } },
    ctx.now,
  );
  const results = await runBatch(ctx.db, [
    ...event.statements,
    deleteInboxStatement(ctx.db, ctx.accountId, id),
  ]);
  const deleted = results.at(-1);
  if (!deleted?.meta.changes) throw notFound(`Inbox ${id}`);
  await releaseInboxAddress(ctx.env, before.emailAddress, id);
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [event], ctx.defer);
  await deleteFiles(ctx.env.FILES, files);
}
