/**
 * The conversations an inbound benchmark replies to, set up before anything is measured: tickets
 * opened by mail through the local email endpoint, each answered by an agent through the API
 * (whose email carries the Message-ID and signed reply address a customer's reply refers to).
 */
import { call, describe, waitForEmptyQueue } from "./api";
import { ticketsOfInbox } from "./inbound-check";
import { deliverTimed, inParallel } from "./inbound-mail";
import type { BenchContext } from "./types";

const QUEUE_TIMEOUT_MS = 2 * 60_000;

/** A ticket opened in setup and answered by an agent: what a customer's reply refers to. */
export interface Seed {
  ticketId: string;
  customer: string;
  subject: string;
  firstId: string;
  agentId: string;
  replyAddress: string;
}

export async function createInbox(ctx: BenchContext, address: string): Promise<string> {
  const answer = await call(ctx, "POST", "/v1/inboxes", { name: "Bench inbound", email_address: address });
  if (answer.status !== 201) throw new Error(`POST /v1/inboxes answered ${describe(answer)}`);
  return (JSON.parse(answer.text) as { id: string }).id;
}

/** An agent's reply through the API: its Message-ID and the signed address it asks answers to. */
async function agentReply(ctx: BenchContext, ticketId: string) {
  const body = { type: "reply", body_text: "Hello,\n\nPlease restart it and tell us.\n\nSupport" };
  const posted = await call(ctx, "POST", `/v1/tickets/${ticketId}/messages`, body);
  if (posted.status !== 201) throw new Error(`an agent reply answered ${describe(posted)}`);
  const reply = JSON.parse(posted.text) as { email_id: string; email_message_id: string };
  const email = await call(ctx, "GET", `/v1/emails/${reply.email_id}`);
  if (email.status !== 200) throw new Error(`GET /v1/emails/${reply.email_id} answered ${describe(email)}`);
  const replyTo = (JSON.parse(email.text) as { reply_to: string[] }).reply_to[0];
  if (!replyTo) throw new Error("an agent reply's email has no reply address");
  return { agentId: reply.email_message_id, replyAddress: replyTo };
}

/** `count` tickets opened by mail, `concurrency` at a time, each answered by an agent; the queue drained after. */
export async function seedConversations(
  ctx: BenchContext,
  inbox: { id: string; address: string },
  options: { run: string; count: number; concurrency: number },
): Promise<Seed[]> {
  const { run, count, concurrency } = options;
  const mails = Array.from({ length: count }, (_, k) => ({
    from: `seed-${k}.${run}@example.com`,
    to: inbox.address,
    subject: `Bench ${run} seed ${k}`,
    messageId: `<seed-${k}.${run}@customer.example>`,
    body: "Hello,\n\nMy printer does not print.\n",
  }));
  const delivered = await inParallel(mails, concurrency, (mail) => deliverTimed(ctx.baseUrl, mail));
  const failed = delivered.find((d) => d.outcome !== "accepted");
  if (failed) throw new Error(`a setup mail was not accepted: ${failed.outcome} ${failed.reason ?? ""}`);
  const bySubject = new Map((await ticketsOfInbox(ctx, inbox.id)).map((t) => [t.subject, t.id]));
  const seeds = await inParallel(mails, concurrency, async (mail) => {
    const ticketId = bySubject.get(mail.subject);
    if (!ticketId) throw new Error(`setup mail "${mail.subject}" opened no ticket`);
    const answer = await agentReply(ctx, ticketId);
    return { ticketId, customer: mail.from, subject: mail.subject, firstId: mail.messageId, ...answer };
  });
  const queue = await waitForEmptyQueue(ctx, QUEUE_TIMEOUT_MS);
  if (queue.left > 0) throw new Error(`${queue.left} agent replies still unsent after setup`);
  return seeds;
}
