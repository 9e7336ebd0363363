import { type Db, runBatch } from "../../db/client";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { type PageParams, pagedList, pageOffset } from "../../lib/pagination";
import { isUniqueViolation } from "../../lib/unique-violation";
import { announceEvents, type Defer } from "../../webhooks/announce";
import { recordEvent } from "../../webhooks/outbox";
import { attachmentKeysUnder, deleteFiles } from "../messages/messages.repo";
import { inboxConnection } from "./inbox-connection";
import { toInbox } from "./inboxes.dto";
import {
  addressInUse,
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
  env: WebhookEnv & Pick<Env, "FILES" | "WEBHOOK_QUEUE">;
  accountId: string;
  now: number;
  /** Where work after the response goes; without it, that work is awaited. */
  defer?: Defer;
}

/** The same answer whoever holds the address: it names no workspace and no inbox. */
const addressTaken = (address: string) =>
  conflict(
    "email_address_taken",
    "Email address already in use",
    `${address} is already the address of an inbox; addresses are unique across the service.`,
  );

/** The unique index on the address refused a write that raced past the check before it. */
const isAddressConflict = (error: unknown) => isUniqueViolation(error, "inboxes.email_address");

async function ownInbox(ctx: InboxContext, id: string) {
  const row = await findInbox(ctx.db, ctx.accountId, id);
  if (!row) throw notFound(`Inbox ${id}`);
  return row;
}

const present = (row: InboxRow, ctx: InboxContext) => toInbox(row, ctx.env.ENCRYPTION_KEY);

/** Creates an inbox. The spec has no `inbox.created`, so no event is recorded. */
export async function createInbox(ctx: InboxContext, input: CreateInboxInput) {
  const connectionId = await inboxConnection(ctx.db, ctx.accountId, input.email_address, input.connection_id);
  const webhooks = await webhooksColumn(input.webhooks, ctx.env);
  const [row] = await insertInbox(ctx.db, {
    id: newId("inb"),
    accountId: ctx.accountId,
    name: input.name,
    emailAddress: input.email_address,
    connectionId,
    statusAfterReply: input.status_after_reply,
    webhooks,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  if (!row) throw addressTaken(input.email_address);
  return present(row, ctx);
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
 * records `inbox.updated` with the new state, in the same batch as the change.
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
    webhooks,
    updatedAt: ctx.now,
  };
  if (after.emailAddress !== before.emailAddress && (await addressInUse(ctx.db, after.emailAddress))) {
    throw addressTaken(after.emailAddress);
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
    if (isAddressConflict(error)) throw addressTaken(after.emailAddress);
    throw error;
  }
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [event], ctx.defer);
  return present(after, ctx);
}

/**
 * Deletes the inbox with its tickets (and their messages and tag links) and tags, by foreign-key
 * cascade, and records `inbox.deleted` with the inbox as it last was, all in one batch. Cascaded
 * tickets fire no `ticket.deleted`: events go only to the inbox's webhooks, which go with it.
 * Attachment bytes in R2 are deleted once the rows are gone.
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
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [event], ctx.defer);
  await deleteFiles(ctx.env.FILES, files);
}
