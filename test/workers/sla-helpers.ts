import { expect } from "vitest";
import { addMessage } from "../../src/features/messages/messages.service";
import type { TicketContext } from "../../src/features/tickets/ticket-context";
import { updateTicket } from "../../src/features/tickets/ticket-update";
import { createTicket, showTicket } from "../../src/features/tickets/tickets.service";
import { callJson, db, seedInbox, sendingWorkspace, shardEnv } from "./helpers";

export const MIN = 60_000;
/** Monday 30 November 2026, 09:00 UTC: every test moves time from here, as its own `now`. */
export const T0 = Date.parse("2026-11-30T09:00:00Z");

export const TARGETS = {
  normal: { first_response: 60, next_response: 120, resolution: 480 },
  urgent: { first_response: 15, next_response: 30, resolution: 240 },
};

/** A workspace that can send replies, an inbox under an SLA policy, and service calls at a chosen time. */
export async function slaDesk(policy: Record<string, unknown> = {}) {
  const domain = `sla-${crypto.randomUUID().slice(0, 8)}.test`;
  const ws = await sendingWorkspace(domain);
  const inbox = await seedInbox(ws.accountId, `support@${domain}`);
  const created = await callJson<{ id: string }>("POST", "/v1/sla-policies", {
    token: ws.token,
    body: { name: "Standard", inbox_ids: [inbox.id], targets: TARGETS, ...policy },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const at = (now: number): TicketContext => ({ db: db(), env: shardEnv(), accountId: ws.accountId, now });
  const open = async (now: number, fields: Record<string, unknown> = {}) =>
    createTicket(at(now), {
      inbox_id: inbox.id,
      customer: { email: "ada@example.com" },
      subject: "Help",
      ...fields,
    } as never);
  const show = (now: number, id: string) => showTicket(at(now), id);
  const patch = (now: number, id: string, body: Record<string, unknown>) =>
    updateTicket(at(now), id, body as never);
  const say = (
    now: number,
    id: string,
    type: "reply" | "customer" | "note",
    extra: Record<string, unknown> = {},
  ) =>
    addMessage(at(now), id, {
      type,
      body_text: `${type} at ${new Date(now).toISOString()}`,
      ...extra,
    } as never);
  return { ws, inbox, policyId: created.body.id, at, open, show, patch, say };
}

export const iso = (ms: number) => new Date(ms).toISOString();
