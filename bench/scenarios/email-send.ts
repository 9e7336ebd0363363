/**
 * The cost of accepting an email: POST /v1/emails (validation, sender domain check, quotas,
 * suppressions, one D1 batch, a queue message) against the unauthenticated health check on the same
 * server. In development the transport is `capture`, so the queue's sends stay on this machine; they
 * run alongside the load, as they would in production. Afterwards the scenario waits for the queue
 * to send what the load left behind, so the next scenario starts on a quiet server.
 */
import { call, describe, waitForEmptyQueue } from "../lib/api";
import { measure, warmUp } from "../lib/measure";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";

const BACKLOG_TIMEOUT_MS = 5 * 60_000;

export const emailSend: Scenario = {
  name: "email-send",
  description: "GET /health vs POST /v1/emails",
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const email = {
      from: `Bench <bench@${ctx.fromDomain}>`,
      to: "someone@example.com",
      subject: "Bench",
      text: "Hello",
      html: "<p>Hello</p>",
    };
    const health = { url: `${ctx.baseUrl}/health` };
    const send = {
      url: `${ctx.baseUrl}/v1/emails`,
      method: "POST" as const,
      body: JSON.stringify(email),
      headers: { Authorization: `Bearer ${ctx.token}`, "Content-Type": "application/json" },
    };
    const result: ScenarioResult = { name: emailSend.name, measurements: [], goals: [] };

    // autocannon counts failures but keeps no bodies: one call first says why, if sending fails.
    const probe = await call(ctx, "POST", "/v1/emails", email);
    if (probe.status !== 200 || (JSON.parse(probe.text) as { status?: string }).status !== "queued") {
      result.problems = [`a single POST /v1/emails answered ${describe(probe)}; not measured`];
      return result;
    }

    // Health first, while the queue is idle; the sends keep the queue busy after their load ends.
    await warmUp(health);
    const healthFigures = await measure({ ...health, label: "GET /health", seconds: ctx.seconds });
    await warmUp(send);
    const sendFigures = await measure({ ...send, label: "POST /v1/emails", seconds: ctx.seconds });
    result.measurements = [healthFigures, sendFigures];

    const backlog = await waitForEmptyQueue(ctx, BACKLOG_TIMEOUT_MS);
    const figures: Figure[] = [
      {
        label: "ratio email/health req/s",
        value: healthFigures.rps > 0 ? sendFigures.rps / healthFigures.rps : 0,
        unit: "",
      },
      { label: "emails unsent when the load ended", value: backlog.found, unit: "emails" },
      { label: "time for the queue to send them", value: backlog.seconds, unit: "s" },
    ];
    result.figures = figures;
    if (backlog.left > 0) {
      result.problems = [
        `${backlog.left} of ${backlog.found} emails were still queued or sending ${BACKLOG_TIMEOUT_MS / 1000} s after the load`,
      ];
    }
    return result;
  },
};
