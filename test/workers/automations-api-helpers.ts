import { expect } from "vitest";
import { callJson } from "./helpers";

export interface Automation {
  id: string;
  status: string;
  secret: string;
  trigger: Record<string, unknown>;
  steps: Array<Record<string, unknown> & { id: string }>;
  allow_reentry: boolean;
}

export interface Enrollment {
  id: string;
  automation_id: string;
  customer_id: string;
  status: string;
  current_step: string | null;
  trigger_type: string;
  trigger_data: Record<string, unknown>;
  history?: Array<Record<string, unknown>>;
  note: string | null;
  finished_at: string | null;
}

export const WAIT = { type: "wait", duration: "1d" };

export async function createAutomation(token: string, overrides: Record<string, unknown> = {}) {
  const { status, body } = await callJson<Automation>("POST", "/v1/automations", {
    token,
    body: { name: "Onboarding", trigger: { type: "api" }, steps: [WAIT], ...overrides },
  });
  expect(status).toBe(201);
  return body;
}

/** An automation moved to `active`. */
export async function activeAutomation(token: string, overrides: Record<string, unknown> = {}) {
  const created = await createAutomation(token, overrides);
  const { status, body } = await callJson<Automation>("POST", `/v1/automations/${created.id}/activate`, {
    token,
  });
  expect(status).toBe(200);
  return body;
}

export const trigger = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  callJson<Enrollment & { error?: string; code?: string }>("POST", "/v1/automations/trigger", {
    token,
    body,
    headers,
  });

export const enrollmentsOf = (token: string, automationId: string, query = "") =>
  callJson<{ data: Enrollment[]; count: number; limit: number; offset: number }>(
    "GET",
    `/v1/automations/${automationId}/enrollments${query}`,
    { token },
  );
