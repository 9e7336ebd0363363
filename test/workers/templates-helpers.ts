import { exports } from "cloudflare:workers";
import { afterAll, beforeAll } from "vitest";
import { callJson } from "./helpers";

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
