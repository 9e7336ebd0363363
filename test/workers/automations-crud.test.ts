import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "../../src/lib/crypto";
import { type Automation, activeAutomation, createAutomation, WAIT } from "./automations-api-helpers";
import { call, callJson, seedInbox, seedWorkspace, sendingWorkspace } from "./helpers";

type Details = { error: string; code: string; details: Array<{ path: string; message: string }> };

describe("automations CRUD", () => {
  it("creates a draft with a whsec_ secret stored encrypted, generated step ids, and lists { data, pagination } (default 20)", async () => {
    const ws = await seedWorkspace();
    const created = await createAutomation(ws.token, {
      steps: [
        { id: "stp_welcome", ...WAIT },
        { type: "update_customer", metadata: { onboarded: true } },
      ],
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^aut_/),
      status: "draft",
      trigger: { type: "api" },
      allow_reentry: false,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    expect(created.steps.map((s) => s.id)).toEqual([
      "stp_welcome",
      expect.stringMatching(/^stp_[0-9A-Z]{26}$/),
    ]);
    const stored = await env.DB_2.prepare("SELECT secret_encrypted FROM automations WHERE id = ?")
      .bind(created.id)
      .first<{ secret_encrypted: string }>();
    expect(stored?.secret_encrypted).not.toContain("whsec_");
    expect(await decryptSecret(env.ENCRYPTION_KEY, stored?.secret_encrypted ?? "")).toBe(created.secret);
    expect((await callJson("GET", `/v1/automations/${created.id}`, { token: ws.token })).body).toEqual(
      created,
    );

    for (let i = 0; i < 20; i++) await createAutomation(ws.token, { name: `A${i}` });
    const list = await callJson<{ data: Automation[]; pagination: unknown }>("GET", "/v1/automations", {
      token: ws.token,
    });
    expect(list.body.data).toHaveLength(20);
    expect(list.body.pagination).toEqual({ limit: 20, offset: 0, total: 21 });
    expect(list.body.data.at(-1)?.id).not.toBe(created.id);
    const drafts = await callJson<{ data: Automation[] }>("GET", "/v1/automations?status=active", {
      token: ws.token,
    });
    expect(drafts.body.data).toEqual([]);
  });

  it("PATCH keeps the step ids given and generates the others; the trigger target must be the workspace's", async () => {
    const ws = await seedWorkspace();
    const created = await createAutomation(ws.token, { steps: [WAIT, { ...WAIT, duration: "2d" }] });
    const [first, second] = created.steps;
    const patched = await callJson<Automation>("PATCH", `/v1/automations/${created.id}`, {
      token: ws.token,
      body: { steps: [{ ...second }, { type: "wait", duration: "10m" }], allow_reentry: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.steps[0]?.id).toBe(second?.id);
    expect(patched.body.steps[1]?.id).toMatch(/^stp_/);
    expect(patched.body.steps.map((s) => s.id)).not.toContain(first?.id);
    expect(patched.body.allow_reentry).toBe(true);
    expect(patched.body.secret).toBe(created.secret);

    const other = await seedWorkspace();
    const theirGroup = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
      token: other.token,
      body: { name: "Theirs" },
    });
    const theirInbox = await seedInbox(other.accountId);
    for (const trigger of [
      { type: "group_joined", contact_group_id: theirGroup.body.id },
      { type: "ticket_resolved", inbox_id: theirInbox.id },
    ]) {
      const created404 = await call("POST", "/v1/automations", {
        token: ws.token,
        body: { name: "X", trigger, steps: [WAIT] },
      });
      expect(created404.status).toBe(404);
      const patched404 = await call("PATCH", `/v1/automations/${created.id}`, {
        token: ws.token,
        body: { trigger },
      });
      expect(patched404.status).toBe(404);
    }
    const ownInbox = await seedInbox(ws.accountId);
    const retargeted = await callJson<Automation>("PATCH", `/v1/automations/${created.id}`, {
      token: ws.token,
      body: { trigger: { type: "ticket_resolved", inbox_id: ownInbox.id } },
    });
    expect(retargeted.body.trigger).toEqual({ type: "ticket_resolved", inbox_id: ownInbox.id });
  });

  it("refuses bad steps with 400 and details", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const foreign = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
      token: other.token,
      body: { name: "Theirs" },
    });
    const cases: Array<[unknown, string]> = [
      [{ type: "launch_rocket" }, "body.steps.0.type"],
      [{ type: "wait", duration: "366d" }, "body.steps.0.duration"],
      [{ type: "webhook", url: "https://10.0.0.7/hook" }, "body.steps.0.url"],
      [{ type: "webhook", url: "ftp://example.com/hook" }, "body.steps.0.url"],
      [{ type: "add_to_group", contact_group_id: foreign.body.id }, "body.steps.0.contact_group_id"],
      [{ type: "remove_from_group", contact_group_id: "grp_missing" }, "body.steps.0.contact_group_id"],
      [{ type: "send_email", from: "not an address", subject: "Hi", text: "x" }, "body.steps.0.from"],
      [{ type: "send_email", from: "a@acme.test", subject: "Hi" }, "body.steps.0.html"],
      // Sizes: what production's D1 row (2 MB) and the customer's metadata limit would refuse.
      [{ type: "update_customer", metadata: { big: "x".repeat(16_384) } }, "body.steps.0.metadata"],
      [
        { type: "webhook", url: "https://example.com/h", payload: { big: "x".repeat(65_536) } },
        "body.steps.0.payload",
      ],
    ];
    for (const [step, path] of cases) {
      const res = await callJson<Details>("POST", "/v1/automations", {
        token: ws.token,
        body: { name: "Bad", trigger: { type: "api" }, steps: [step] },
      });
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe("validation_error");
      expect(res.body.details.map((d) => d.path)).toContain(path);
    }
    const html = "h".repeat(400_000);
    const tooMuch = Array.from({ length: 3 }, () => ({
      type: "send_email",
      from: "a@acme.test",
      subject: "Hi",
      html,
    }));
    const huge = await callJson<Details>("POST", "/v1/automations", {
      token: ws.token,
      body: { name: "Huge", trigger: { type: "api" }, steps: tooMuch },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.details.map((d) => d.path)).toContain("body.steps");
    const draft = await createAutomation(ws.token);
    const patched = await callJson<Details>("PATCH", `/v1/automations/${draft.id}`, {
      token: ws.token,
      body: { steps: [WAIT, { type: "wait", duration: "53w" }] },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.details.map((d) => d.path)).toContain("body.steps.1.duration");
    expect(
      (await callJson<Automation>("GET", `/v1/automations/${draft.id}`, { token: ws.token })).body.steps,
    ).toEqual(draft.steps);
  });

  it("activates and pauses, refusing illegal moves with 400 naming the status; an active one cannot be deleted", async () => {
    const ws = await sendingWorkspace(`aut-${crypto.randomUUID().slice(0, 8)}.test`);
    const created = await createAutomation(ws.token, {
      steps: [{ type: "send_email", from: `Acme <hi@${ws.domain}>`, subject: "Hi", text: "Welcome" }],
    });
    const active = await callJson<Automation>("POST", `/v1/automations/${created.id}/activate`, {
      token: ws.token,
    });
    expect(active.status).toBe(200);
    expect(active.body.status).toBe("active");

    const again = await callJson<{ error: string; code: string }>(
      "POST",
      `/v1/automations/${created.id}/activate`,
      {
        token: ws.token,
      },
    );
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: "Automation is active", code: "invalid_automation_status" });

    const deleteActive = await callJson<{ error: string; code: string }>(
      "DELETE",
      `/v1/automations/${created.id}`,
      {
        token: ws.token,
      },
    );
    expect(deleteActive.status).toBe(400);
    expect(deleteActive.body).toMatchObject({ error: "Automation is active", code: "automation_active" });

    const paused = await callJson<Automation>("POST", `/v1/automations/${created.id}/pause`, {
      token: ws.token,
    });
    expect(paused.body.status).toBe("paused");
    const pauseAgain = await callJson<{ error: string }>("POST", `/v1/automations/${created.id}/pause`, {
      token: ws.token,
    });
    expect(pauseAgain.status).toBe(400);
    expect(pauseAgain.body.error).toBe("Automation is paused");

    expect((await call("DELETE", `/v1/automations/${created.id}`, { token: ws.token })).status).toBe(200);
    expect((await call("GET", `/v1/automations/${created.id}`, { token: ws.token })).status).toBe(404);
    const draft = await createAutomation(ws.token);
    expect((await call("DELETE", `/v1/automations/${draft.id}`, { token: ws.token })).status).toBe(200);
  });

  it("activation needs a step and verified send_email domains (400 with details); an active one's edit too", async () => {
    const ws = await sendingWorkspace(`aut-${crypto.randomUUID().slice(0, 8)}.test`);
    const empty = await createAutomation(ws.token, { steps: [] });
    const noSteps = await callJson<Details>("POST", `/v1/automations/${empty.id}/activate`, {
      token: ws.token,
    });
    expect(noSteps.status).toBe(400);
    expect(noSteps.body.details).toEqual([{ path: "steps", message: "add at least one step" }]);

    const unverified = { type: "send_email", from: "hi@not-ours.test", subject: "Hi", text: "x" };
    const draft = await createAutomation(ws.token, { steps: [WAIT, unverified] });
    const refused = await callJson<Details>("POST", `/v1/automations/${draft.id}/activate`, {
      token: ws.token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      {
        path: "steps.1.from",
        message: "the domain not-ours.test is not a verified connection of this workspace",
      },
    ]);
    expect(
      (await callJson<Automation>("GET", `/v1/automations/${draft.id}`, { token: ws.token })).body.status,
    ).toBe("draft");

    const active = await activeAutomation(ws.token);
    const edit = await callJson<Details>("PATCH", `/v1/automations/${active.id}`, {
      token: ws.token,
      body: { steps: [unverified] },
    });
    expect(edit.status).toBe(400);
    expect(edit.body.details.map((d) => d.path)).toEqual(["body.steps.0.from"]);
  });

  it("another workspace's automation is a 404 everywhere", async () => {
    const ws = await seedWorkspace();
    const theirs = await createAutomation((await seedWorkspace()).token);
    for (const [method, path, body] of [
      ["GET", `/v1/automations/${theirs.id}`, undefined],
      ["PATCH", `/v1/automations/${theirs.id}`, { name: "Mine" }],
      ["DELETE", `/v1/automations/${theirs.id}`, undefined],
      ["POST", `/v1/automations/${theirs.id}/activate`, undefined],
      ["POST", `/v1/automations/${theirs.id}/pause`, undefined],
      ["GET", `/v1/automations/${theirs.id}/enrollments`, undefined],
    ] as const) {
      expect((await call(method, path, { token: ws.token, body })).status, `${method} ${path}`).toBe(404);
    }
  });
});
