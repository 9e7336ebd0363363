import { expect } from "vitest";
import { call, callJson, seedInbox, seedUser, seedWorkspace } from "./helpers";

export type Rule = "manual" | "round_robin" | "balanced";

export interface AssignedTicket {
  id: string;
  status: string;
  assignee_id: string | null;
}

/** A workspace with an inbox under `rule` and `agents` active users, oldest (smallest id) first. */
export async function assignmentWorkspace(rule: Rule, agents = 3) {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  if (rule !== "manual") await setRule(ws.token, inbox.id, rule);
  const people = [];
  for (let i = 0; i < agents; i++) people.push(await seedUser(ws.accountId));
  const ids = people.map((p) => p.id).sort();
  const create = async (body: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const res = await callJson<AssignedTicket>("POST", "/v1/tickets", {
      token: ws.token,
      headers,
      body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Help", ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  return { ws, inbox, ids, create };
}

export async function setRule(token: string, inboxId: string, rule: Rule) {
  const res = await call("PATCH", `/v1/inboxes/${inboxId}`, { token, body: { assignment_rule: rule } });
  expect(res.status).toBe(200);
}

export async function patchUser(token: string, id: string, body: Record<string, unknown>) {
  const res = await callJson("PATCH", `/v1/users/${id}`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function ticketOf(token: string, id: string) {
  return (await callJson<AssignedTicket>("GET", `/v1/tickets/${id}`, { token })).body;
}

/** How many of `tickets` each assignee holds (`none` for unassigned). */
export function tally(tickets: Array<{ assignee_id: string | null }>) {
  const counts: Record<string, number> = {};
  for (const t of tickets) counts[t.assignee_id ?? "none"] = (counts[t.assignee_id ?? "none"] ?? 0) + 1;
  return counts;
}
