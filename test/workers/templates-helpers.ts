import { exports } from "cloudflare:workers";
import { afterAll, beforeAll } from "vitest";
import { call, callJson, eventually } from "./helpers";

/**
 * Resend's own SDK talks to the Worker under test: its `fetch` calls go to the Worker's real fetch
 * handler (the SDK calls the global `fetch`; nothing else is routed, and it is put back after).
 */
export function routeFetchToWorker() {
  const real = globalThis.fetch;
  beforeAll(() => {
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      exports.default.fetch(new Request(input, init))) as typeof fetch;
  });
  afterAll(() => {
    globalThis.fetch = real;
  });
}

export const RESEND_BASE_URL = "http://localhost/v1";

/** A template created through the API (draft unless `publish`). */
export async function createTemplate(token: string, body: Record<string, unknown>, publish = false) {
  const created = await callJson<{ id: string }>("POST", "/v1/templates", { token, body });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  if (publish) {
    const published = await callJson("POST", `/v1/templates/${created.body.id}/publish`, { token });
    if (published.status !== 200)
      throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
  }
  return created.body.id;
}

type Email = Record<string, unknown> & { id: string; status: string };

/** The email once the queue has sent it. */
export async function sent(token: string, id: string) {
  return eventually(async () => {
    const { body } = await callJson<Email>("GET", `/v1/emails/${id}`, { token });
    return body.status === "sent" ? body : null;
  });
}

/** The built message without what differs between two emails by construction: ids, date, boundaries, signature. */
export async function contentWithoutIds(token: string, id: string) {
  const raw = await (await call("GET", `/v1/emails/${id}/content`, { token })).text();
  return raw
    .replace(/^DKIM-Signature:[\s\S]*?\r\n(?=\S)/, "")
    .replaceAll(id, "EMAIL_ID")
    .replace(/^Date: .*$/m, "Date: DATE")
    .replace(/=_[0-9a-f]{32}/g, "BOUNDARY");
}
