import { expect } from "vitest";
import { call, callJson, ticketWorkspace } from "./helpers";

export interface Found {
  id: string;
  subject: string;
  match?: string | null;
}

/** A workspace with an inbox (and its one "Help" ticket), and helpers to write and search. */
export async function searchDesk() {
  const setup = await ticketWorkspace("search");
  const { ws, inbox } = setup;
  const create = async (subject: string, extra: Record<string, unknown> = {}) => {
    const res = await callJson<Found & { shared_uuid: string; customer_id: string; client_id: string }>(
      "POST",
      "/v1/tickets",
      {
        token: ws.token,
        body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject, ...extra },
      },
    );
    expect(res.status).toBe(201);
    return res.body;
  };
  const message = async (ticketId: string, text: string, type = "note") => {
    const res = await call("POST", `/v1/tickets/${ticketId}/messages`, {
      token: ws.token,
      body: { type, body_text: text },
    });
    expect(res.status).toBe(201);
  };
  const search = async (q: string, more = "") => {
    const res = await callJson<{ data: Found[]; pagination: { total: number } }>(
      "GET",
      `/v1/tickets?q=${encodeURIComponent(q)}${more}`,
      { token: ws.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const ids = async (q: string, more = "") => (await search(q, more)).data.map((t) => t.id);
  return { ...setup, create, message, search, ids };
}
