import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  activeAutomation,
  createAutomation,
  type Enrollment,
  enrollmentsOf,
  trigger,
} from "./automations-api-helpers";
import { call, callJson, seedWorkspace } from "./helpers";

const customerIdOf = async (accountId: string, email: string) =>
  (
    await env.DB_2.prepare("SELECT id FROM customers WHERE account_id = ? AND email = ?")
      .bind(accountId, email)
      .first<{ id: string }>()
  )?.id;

describe("POST /v1/automations/trigger and enrolments", () => {
  it("enrols a customer found or created by address; lists { data, count, limit, offset } (default 20), filters status", async () => {
    const ws = await seedWorkspace();
    const automation = await activeAutomation(ws.token);
    const first = await trigger(ws.token, {
      automation_id: automation.id,
      customer: { email: "Ada@Example.com", name: "Ada" },
      data: { plan: "pro" },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^enr_/),
      automation_id: automation.id,
      customer_id: await customerIdOf(ws.accountId, "ada@example.com"),
      status: "active",
      current_step: automation.steps[0]?.id,
      next_run_at: null,
      trigger_type: "api",
      trigger_data: { plan: "pro" },
      history: [],
      note: null,
      finished_at: null,
    });
    for (let i = 0; i < 21; i++) {
      const res = await trigger(ws.token, {
        automation_id: automation.id,
        customer: { email: `c${i}@example.com` },
      });
      expect(res.status).toBe(201);
    }
    const page = await enrollmentsOf(ws.token, automation.id);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ count: 22, limit: 20, offset: 0 });
    expect(page.body.data).toHaveLength(20);
    expect(page.body.data[0]).not.toHaveProperty("history");

    await env.DB_2.prepare("UPDATE automation_enrollments SET status = 'completed' WHERE id = ?")
      .bind(first.body.id)
      .run();
    const completed = await enrollmentsOf(ws.token, automation.id, "?status=completed");
    expect(completed.body.count).toBe(1);
    expect(completed.body.data.map((e) => e.id)).toEqual([first.body.id]);
  });

  it("needs an active automation (400 naming the status) and the workspace's customer and automation (404)", async () => {
    const ws = await seedWorkspace();
    const draft = await createAutomation(ws.token);
    const refused = await trigger(ws.token, {
      automation_id: draft.id,
      customer: { email: "a@example.com" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "Automation is draft", code: "automation_not_active" });

    const other = await seedWorkspace();
    const theirs = await activeAutomation(other.token);
    expect(
      (await trigger(ws.token, { automation_id: theirs.id, customer: { email: "a@example.com" } })).status,
    ).toBe(404);
    await trigger(other.token, { automation_id: theirs.id, customer: { email: "b@example.com" } });
    const theirCustomer = await customerIdOf(other.accountId, "b@example.com");
    const mine = await activeAutomation(ws.token);
    expect((await trigger(ws.token, { automation_id: mine.id, customer_id: theirCustomer })).status).toBe(
      404,
    );
    const both = await trigger(ws.token, {
      automation_id: mine.id,
      customer_id: theirCustomer,
      customer: { email: "c@example.com" },
    });
    expect(both.status).toBe(400);
  });

  it("refuses a customer already active with 409 unless allow_reentry; a finished enrolment lets them in again", async () => {
    const ws = await seedWorkspace();
    const strict = await activeAutomation(ws.token);
    const body = { automation_id: strict.id, customer: { email: "ada@example.com" } };
    const first = await trigger(ws.token, body);
    expect(first.status).toBe(201);
    const second = await trigger(ws.token, { automation_id: strict.id, customer_id: first.body.customer_id });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("already_enrolled");

    await env.DB_2.prepare("UPDATE automation_enrollments SET status = 'completed' WHERE id = ?")
      .bind(first.body.id)
      .run();
    expect((await trigger(ws.token, body)).status).toBe(201);

    const open = await activeAutomation(ws.token, { allow_reentry: true });
    const a = await trigger(ws.token, { automation_id: open.id, customer: { email: "ada@example.com" } });
    const b = await trigger(ws.token, { automation_id: open.id, customer: { email: "ada@example.com" } });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it("two concurrent triggers for one customer give exactly one 201 and one 409", async () => {
    const ws = await seedWorkspace();
    const automation = await activeAutomation(ws.token);
    const body = { automation_id: automation.id, customer: { email: "race@example.com" } };
    const results = await Promise.all([trigger(ws.token, body), trigger(ws.token, body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await enrollmentsOf(ws.token, automation.id)).body.count).toBe(1);
  });

  it("honours Idempotency-Key: the same key replays the same enrolment; another body under it is a 409", async () => {
    const ws = await seedWorkspace();
    const automation = await activeAutomation(ws.token);
    const body = { automation_id: automation.id, customer: { email: "ada@example.com" }, data: { a: 1 } };
    const headers = { "Idempotency-Key": "enrol-ada-1" };
    const first = await trigger(ws.token, body, headers);
    const replay = await trigger(ws.token, { ...body, data: { a: 1 } }, headers);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    const reused = await trigger(ws.token, { ...body, data: { a: 2 } }, headers);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe("idempotency_key_reused");
    const concurrent = await Promise.all([
      trigger(ws.token, { ...body, customer: { email: "bo@example.com" } }, { "Idempotency-Key": "k2" }),
      trigger(ws.token, { ...body, customer: { email: "bo@example.com" } }, { "Idempotency-Key": "k2" }),
    ]);
    expect(concurrent.map((r) => r.status)).toEqual([201, 201]);
    expect(concurrent[0]?.body.id).toBe(concurrent[1]?.body.id);
    expect((await enrollmentsOf(ws.token, automation.id)).body.count).toBe(2);
  });

  it("GET /v1/enrollments/{id} has the history in step order; cancel moves active → cancelled, then 409", async () => {
    const ws = await seedWorkspace();
    const automation = await activeAutomation(ws.token);
    const enrolled = await trigger(ws.token, {
      automation_id: automation.id,
      customer: { email: "ada@example.com" },
    });
    const id = enrolled.body.id;
    const insert = env.DB_2.prepare(
      "INSERT INTO enrollment_steps (enrollment_id, step_id, account_id, step_type, status, error, detail, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    await env.DB_2.batch([
      insert.bind(id, "stp_b", ws.accountId, "webhook", "failed", "HTTP 500", '{"status":500}', 2_000, 2_100),
      insert.bind(id, "stp_a", ws.accountId, "wait", "succeeded", null, null, 1_000, 1_500),
    ]);
    const got = await callJson<Enrollment>("GET", `/v1/enrollments/${id}`, { token: ws.token });
    expect(got.body.history).toEqual([
      {
        step_id: "stp_a",
        type: "wait",
        status: "succeeded",
        at: "1970-01-01T00:00:01.000Z",
        finished_at: "1970-01-01T00:00:01.500Z",
        error: null,
        detail: null,
      },
      {
        step_id: "stp_b",
        type: "webhook",
        status: "failed",
        at: "1970-01-01T00:00:02.000Z",
        finished_at: "1970-01-01T00:00:02.100Z",
        error: "HTTP 500",
        detail: { status: 500 },
      },
    ]);

    const cancelled = await callJson<Enrollment>("POST", `/v1/enrollments/${id}/cancel`, { token: ws.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: "cancelled",
      current_step: null,
      finished_at: expect.any(String),
    });
    const again = await callJson<{ error: string; code: string }>("POST", `/v1/enrollments/${id}/cancel`, {
      token: ws.token,
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "Enrollment is cancelled", code: "enrollment_finished" });

    const other = await trigger(ws.token, {
      automation_id: automation.id,
      customer: { email: "bo@example.com" },
    });
    await env.DB_2.prepare("UPDATE automation_enrollments SET status = 'completed' WHERE id = ?")
      .bind(other.body.id)
      .run();
    const finished = await callJson<{ error: string }>("POST", `/v1/enrollments/${other.body.id}/cancel`, {
      token: ws.token,
    });
    expect(finished.status).toBe(409);
    expect(finished.body.error).toBe("Enrollment is completed");
  });

  it("another workspace's enrolment is a 404", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const theirs = await activeAutomation(other.token);
    const enrolled = await trigger(other.token, {
      automation_id: theirs.id,
      customer: { email: "a@example.com" },
    });
    expect((await call("GET", `/v1/enrollments/${enrolled.body.id}`, { token: ws.token })).status).toBe(404);
    expect(
      (await call("POST", `/v1/enrollments/${enrolled.body.id}/cancel`, { token: ws.token })).status,
    ).toBe(404);
    expect((await call("GET", `/v1/enrollments/${enrolled.body.id}`, { token: other.token })).status).toBe(
      200,
    );
  });
});
