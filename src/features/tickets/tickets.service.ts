import { runBatch, type Statement } from "../../db/client";
import { messages, tickets } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { type AnswerStore, idempotentCreate } from "../../lib/idempotent-create";
import { newId } from "../../lib/ids";
import { type OffsetParams, standardList } from "../../lib/pagination";
import { announceEvents } from "../../webhooks/announce";
import { recordEvent } from "../../webhooks/outbox";
import { customerData, ticketData } from "../../webhooks/payloads";
import { assignByRule } from "../assignment/assignment.repo";
import { assigneeChosen, storedAssignee } from "../assignment/ticket-assignment";
import { findOrCreateCustomer } from "../customers/customers.service";
import { attachmentKeysUnder, deleteFiles } from "../messages/messages.repo";
import { slaOfNewTicket } from "../sla/ticket-sla";
import { assertAssignable } from "../users/users.service";
import { firstMessageEvent, firstMessageRow } from "./first-message";
import { excerptsOf } from "./search-excerpt";
import { parseSearch } from "./search-query";
import { customerOf, inboxOf, recordTicketEvent, type TicketContext } from "./ticket-context";
import { ensureTags, linkTagStatements } from "./ticket-tags.repo";
import { clientIdOf, toTicket } from "./tickets.dto";
import {
  deleteTicketStatement,
  findTicket,
  nextTicketNumber,
  type TicketFilter,
  type TicketRow,
  type TicketSequence,
  tagTicketsQuery,
  ticketQueries,
} from "./tickets.repo";
import type { CreateTicketBodySchema } from "./tickets.schemas";

type CreateInput = (typeof CreateTicketBodySchema)["_output"];

export async function ticketOf(ctx: TicketContext, id: string) {
  const view = await findTicket(ctx.db, ctx.accountId, id);
  if (!view) throw notFound(`Ticket ${id}`);
  return view;
}

export const showTicket = async (ctx: TicketContext, id: string) =>
  toTicket(await ticketOf(ctx, id), ctx.env.PUBLIC_BASE_URL, ctx.now);

/** Status changes that close a ticket stamp `closed_at`; any other status clears it. */
export function closedAtFor(
  status: (typeof tickets.$inferSelect)["status"],
  current: number | null,
  now: number,
) {
  return status === "closed" || status === "resolved" ? (current ?? now) : null;
}

type InboxRow = Awaited<ReturnType<typeof inboxOf>>;
type CustomerRow = Awaited<ReturnType<typeof customerOf>>;

/** A new ticket's row, numbered from the workspace's sequence; nothing is written but the number. */
export async function newTicketRow(
  ctx: TicketContext,
  inbox: InboxRow,
  customer: CustomerRow,
  fields: Pick<CreateInput, "subject" | "status" | "priority" | "metadata" | "assignee_id"> & {
    messageCount: number;
  },
): Promise<TicketRow> {
  const sequence = await nextTicketNumber(ctx.db, ctx.accountId);
  if (!sequence) throw notFound(`Account ${ctx.accountId}`);
  return numberedTicketRow(ctx, inbox, customer, fields, sequence);
}

/** A new ticket's row with a number already taken (inbound mail takes it in a batch of its own writes). */
export function numberedTicketRow(
  ctx: TicketContext,
  inbox: InboxRow,
  customer: CustomerRow,
  fields: Parameters<typeof newTicketRow>[3],
  sequence: TicketSequence,
): TicketRow {
  const status = fields.status ?? "open";
  return {
    id: newId("tkv"),
    accountId: ctx.accountId,
    inboxId: inbox.id,
    customerId: customer.id,
    number: sequence.number,
    clientId: clientIdOf(sequence.prefix, sequence.number),
    subject: fields.subject,
    status,
    priority: fields.priority ?? "normal",
    sharedUuid: newId("shr"),
    metadata: JSON.stringify(fields.metadata ?? {}),
    assigneeId: fields.assignee_id ?? null,
    messageCount: fields.messageCount,
    lastMessageAt: fields.messageCount > 0 ? ctx.now : null,
    snoozedUntil: null,
    closedAt: closedAtFor(status, null, ctx.now),
    mergedIntoId: null,
    version: 1,
    sla: null,
    slaDueAt: null,
    slaBreached: 0,
    slaNextAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

/** `ticket.created` for a new ticket, for the batch that inserts it. */
export const ticketCreatedEvent = (
  ctx: TicketContext,
  inbox: InboxRow,
  customer: CustomerRow,
  row: TicketRow,
) =>
  recordEvent(
    {
      accountId: ctx.accountId,
      inbox,
      name: "ticket.created",
      data: { ticket: ticketData(row, ctx.env.PUBLIC_BASE_URL), customer: customerData(customer) },
    },
    ctx.now,
  );

export interface CreateTicketOptions {
  /**
   * Also fire `message.created` for the first message, after `ticket.created`, as the spec asks of
   * tickets opened by the public portal (and inbound mail). POST /v1/tickets fires `ticket.created` only.
   */
  announceMessage?: boolean;
  /** The request's `Idempotency-Key`: a retry answers the first ticket instead of opening another. */
  idempotencyKey?: string | undefined;
}

/**
 * POST /v1/tickets: the customer (found or created), the ticket with its number, an optional
 * first customer message, its tags, the `ticket.created` event and the idempotent answer, in one
 * batch.
 */
export async function createTicket(
  ctx: TicketContext,
  input: CreateInput,
  options: CreateTicketOptions = {},
) {
  const request = { key: options.idempotencyKey, scope: "tickets", body: input };
  const created = await idempotentCreate(ctx, request, (store) => openTicket(ctx, input, options, store));
  return created.body;
}

async function openTicket(
  ctx: TicketContext,
  input: CreateInput,
  options: CreateTicketOptions,
  store: AnswerStore,
) {
  await assertAssignable(ctx, input.assignee_id, "body.assignee_id");
  const inbox = await inboxOf(ctx, input.inbox_id);
  const customer = input.customer_id
    ? await customerOf(ctx, input.customer_id)
    : await findOrCreateCustomer(ctx.db, ctx.accountId, input.customer as { email: string }, ctx.now);
  if (customer.blocked) {
    throw new AppError(
      403,
      "customer_blocked",
      "Customer blocked",
      `${customer.email} is blocked and cannot open tickets.`,
    );
  }
  const row = await newTicketRow(ctx, inbox, customer, { ...input, messageCount: input.message ? 1 : 0 });
  Object.assign(row, slaOfNewTicket(ctx, row, inbox));
  const message = input.message ? firstMessageRow(row, customer, input.message) : null;
  const tagRows = await ensureTags(
    ctx.db,
    ctx.accountId,
    inbox.id,
    input.tags ?? [],
    () => newId("tag"),
    ctx.now,
  );
  // The answer is made from what the batch writes, so it can be stored in that batch.
  const view = {
    ticket: row,
    customerEmail: customer.email,
    customerName: customer.name,
    tagNames: JSON.stringify(tagRows.map((t) => t.name)),
  };
  const answer = toTicket(view, ctx.env.PUBLIC_BASE_URL, ctx.now);
  // Without an explicit assignee the inbox's rule picks one inside the batch (assignment.repo.ts).
  const assigning = row.assigneeId === null;
  const statements: Statement[] = [ctx.db.insert(tickets).values(row)];
  if (assigning) statements.push(...assignByRule(ctx.accountId, row));
  if (message) statements.push(ctx.db.insert(messages).values(message));
  statements.push(
    ...linkTagStatements(
      ctx.db,
      ctx.accountId,
      row.id,
      tagRows.map((t) => t.id),
      ctx.now,
    ),
  );
  const event = ticketCreatedEvent(ctx, inbox, customer, row);
  const messageEvent =
    message && options.announceMessage ? firstMessageEvent(ctx, inbox, row, message) : null;
  statements.push(...event.statements, ...(messageEvent?.statements ?? []), ...store.answer(201, answer));
  if (assigning && store.key) statements.push(storedAssignee(ctx.accountId, store.key, row.id));
  const results = await runBatch(ctx.db, statements);
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [event, messageEvent], ctx.defer);
  const assigneeId = assigning ? assigneeChosen(results[1]) : row.assigneeId;
  return { status: 201 as const, body: { ...answer, assignee_id: assigneeId } };
}

export async function listTickets(
  ctx: TicketContext,
  { q: text, ...rest }: Omit<TicketFilter, "accountId" | "q"> & { q?: string | undefined },
  page: OffsetParams,
) {
  const q = text === undefined ? undefined : parseSearch(text);
  const filter = { ...rest, q };
  // A tag filter first reads how common the tag is, to pick how its page is found (tickets.repo).
  const tagTickets = filter.tag
    ? ((await tagTicketsQuery(ctx.db, ctx.accountId, filter.tag))[0]?.total ?? 0)
    : undefined;
  const { page: query, total } = ticketQueries(
    ctx.db,
    { ...filter, accountId: ctx.accountId },
    page.limit,
    page.offset,
    tagTickets,
  );
  const [rows, totals] = await ctx.db.batch([query, total]);
  const data = rows.map((view) => toTicket(view, ctx.env.PUBLIC_BASE_URL, ctx.now));
  if (!q) return standardList(data, totals[0]?.total ?? 0, page);
  const excerpts = await excerptsOf(
    ctx.db,
    ctx.accountId,
    q,
    data.map((t) => t.id),
  );
  const matched = data.map((t) => ({ ...t, match: excerpts.get(t.id) ?? null }));
  return standardList(matched, totals[0]?.total ?? 0, page);
}

/** DELETE: messages, tag links and attachment rows go with the ticket; attachment bytes after. */
export async function deleteTicket(ctx: TicketContext, id: string) {
  const { ticket } = await ticketOf(ctx, id);
  const files = await attachmentKeysUnder(ctx.db, ctx.accountId, { ticketId: id });
  const event = await recordTicketEvent(ctx, "ticket.deleted", ticket);
  const results = await runBatch(ctx.db, [
    ...event.statements,
    deleteTicketStatement(ctx.db, ctx.accountId, id),
  ]);
  // Deleted by a concurrent request between the read and the write: that one answered 200.
  if (!results.at(-1)?.meta.changes) throw notFound(`Ticket ${id}`);
  await announceEvents(ctx.env.WEBHOOK_QUEUE, [event], ctx.defer);
  await deleteFiles(ctx.env.FILES, files);
  return { id, deleted: true as const };
}
