import { describe, expect, it } from "vitest";
import {
  automationWorkspace,
  enrollmentOf,
  historyOf,
  runEnrollment,
  SECRET,
  seedAutomation,
  seedCustomer,
  seedEnrollment,
} from "./automations-helpers";
import { endpoint, receivedAt, verifyElsewhere } from "./webhook-helpers";

/** HMAC-SHA256 in hex, computed here rather than with the service's code. */
async function hmacHex(key: string, message: string) {
  const enc = new TextEncoder();
  const k = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", k, enc.encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function runOne(
  steps: Parameters<typeof seedAutomation>[1],
  triggerData: Record<string, unknown> = {},
) {
  const ws = await automationWorkspace();
  const customer = await seedCustomer(ws.accountId, { name: "Grace Hopper", metadata: { tier: "gold" } });
  const automation = await seedAutomation(ws.accountId, steps, { name: "Welcome flow" });
  const enrollment = await seedEnrollment(automation, customer.id, triggerData);
  await using instance = await runEnrollment(enrollment);
  await instance.waitForStatus("complete");
  return { ws, customer, automation, enrollment, history: await historyOf(enrollment.id) };
}

describe("automation engine: the webhook step", () => {
  it("posts the exact default body, signed with the automation's secret", async () => {
    const hook = endpoint();
    const before = Date.now();
    const { customer, automation, enrollment, history } = await runOne(
      [{ id: "stp_hook", type: "webhook", url: hook.url, method: "POST", headers: {} }],
      { plan: "pro" },
    );
    const [request, ...more] = await receivedAt(hook.path);
    expect(more).toHaveLength(0);
    const body = JSON.parse(request?.body ?? "") as { timestamp: string };
    expect(body).toEqual({
      event: "automation.step.webhook",
      timestamp: body.timestamp,
      automation: { id: automation.id, name: "Welcome flow" },
      enrollment: { id: enrollment.id, status: "active", current_step: "stp_hook" },
      customer: {
        id: customer.id,
        email: customer.email,
        name: "Grace Hopper",
        phone: "+441234567",
        metadata: { tier: "gold" },
      },
      trigger: { type: "api", data: { plan: "pro" } },
    });
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before);

    const headers = request?.headers ?? {};
    expect(request?.method).toBe("POST");
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["user-agent"]).toBe("Service-Webhooks/1.0");
    expect(headers["x-webhook-event"]).toBe("automation.step.webhook");
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(headers["x-service-signature"] ?? "");
    expect(match).not.toBeNull();
    expect(match?.[2]).toBe(await hmacHex(SECRET, `${match?.[1]}.${request?.body}`));
    const verdicts = await verifyElsewhere(request?.body ?? "", headers["x-service-signature"] ?? "", SECRET);
    expect(verdicts).toEqual({ readme: "valid", stripe: "valid" });

    expect(history.stp_hook).toMatchObject({ status: "succeeded", error: null, stepType: "webhook" });
    expect(history.stp_hook?.detail.status_code).toBe(200);
    expect(history.stp_hook?.detail.duration_ms).toBeTypeOf("number");
  });

  it("sends a configured payload, method and headers; its own headers cannot be replaced", async () => {
    const hook = endpoint();
    await runOne([
      {
        id: "stp_hook",
        type: "webhook",
        url: hook.url,
        method: "PUT",
        headers: { "X-Api-Key": "k-123", "user-agent": "spoof" },
        payload: { hello: "world", n: 1 },
      },
    ]);
    const [request] = await receivedAt(hook.path);
    expect(request?.method).toBe("PUT");
    expect(request?.body).toBe(JSON.stringify({ hello: "world", n: 1 }));
    expect(request?.headers["x-api-key"]).toBe("k-123");
    expect(request?.headers["user-agent"]).toBe("Service-Webhooks/1.0");
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request?.headers["x-service-signature"] ?? "");
    expect(match?.[2]).toBe(await hmacHex(SECRET, `${match?.[1]}.${request?.body}`));
  });

  it("records a failing webhook and a refused URL, and the enrolment goes on", async () => {
    const failing = endpoint("fail");
    const { enrollment, history } = await runOne([
      { id: "stp_fail", type: "webhook", url: failing.url, method: "POST", headers: {} },
      { id: "stp_private", type: "webhook", url: "https://10.1.2.3/hook", method: "POST", headers: {} },
      { id: "stp_meta", type: "update_customer", metadata: { reached: true } },
    ]);
    expect(await receivedAt(failing.path)).toHaveLength(1);
    expect(history.stp_fail).toMatchObject({ status: "failed", error: "HTTP 500" });
    expect(history.stp_fail?.detail.status_code).toBe(500);
    expect(history.stp_private?.status).toBe("failed");
    expect(history.stp_private?.error).toContain("not sent: the URL must not point to a private");
    expect(history.stp_meta?.status).toBe("succeeded");
    expect((await enrollmentOf(enrollment.id))?.status).toBe("completed");
  });
});
