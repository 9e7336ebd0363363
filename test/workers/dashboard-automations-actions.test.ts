import { describe, expect, it } from "vitest";
import { seedAutomation, seedCustomer, seedEnrollment } from "./dashboard-automations-helpers";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, seedWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

interface Automation {
  id: string;
  name: string;
  status: string;
  trigger: Record<string, string>;
  allow_reentry: boolean;
  secret: string;
  steps: Array<Record<string, unknown> & { id: string; type: string }>;
}

const automationOf = async (token: string, id: string) =>
  (await callJson<Automation>("GET", `/v1/automations/${id}`, { token })).body;

/** The editor's fields for a wait then a webhook step, as the browser posts them. */
const twoSteps = (ids: [string, string] = ["", ""]) => ({
  name: "Onboarding",
  trigger_type: "api",
  "steps.0.id": ids[0],
  "steps.0.type": "wait",
  "steps.0.duration": "2d",
  "steps.1.id": ids[1],
  "steps.1.type": "webhook",
  "steps.1.url": "https://example.com/hook",
  "steps.1.method": "PUT",
  "steps.1.headers": "X-Team: growth",
  "steps.1.payload": '{"hello": "world"}',
});

const createdId = (response: Response) =>
  /^\/dashboard\/automations\/(aut_[0-9A-Za-z]+)\?done=created$/.exec(
    response.headers.get("Location") ?? "",
  )?.[1] ?? "";

describe("dashboard: automation actions", () => {
  it("creates an automation through the API's rules; step buttons re-render without saving", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const added = await dashboardPost("/dashboard/automations", admin, {
      ...twoSteps(),
      op: "add:update_customer",
    });
    expect(added.status).toBe(200);
    const form = await added.text();
    expect(form).toContain('name="steps.2.type"');
    expect(form).toMatch(/name="steps.2.type"[^>]*>[\s\S]*?<option value="update_customer" selected/);
    expect(form).toContain('name="steps.1.url" value="https://example.com/hook"');
    const list = await callJson<{ data: unknown[] }>("GET", "/v1/automations", { token: ws.token });
    expect(list.body.data).toEqual([]);

    const refused = await dashboardPost("/dashboard/automations", admin, {
      ...twoSteps(),
      "steps.0.duration": "400d",
      "steps.1.url": "https://10.0.0.1/hook",
      op: "save",
    });
    expect(refused.status).toBe(400);
    const problem = await refused.text();
    expect(problem).toContain("<code>body.steps.0.duration</code>");
    expect(problem).toContain('value="https://10.0.0.1/hook"');

    const created = await dashboardPost("/dashboard/automations", admin, { ...twoSteps(), op: "save" });
    expect(created.status).toBe(303);
    const automation = await automationOf(ws.token, createdId(created));
    expect(automation).toMatchObject({
      name: "Onboarding",
      status: "draft",
      trigger: { type: "api" },
      allow_reentry: false,
    });
    expect(automation.steps).toEqual([
      { id: expect.stringMatching(/^stp_/), type: "wait", duration: "2d" },
      {
        id: expect.stringMatching(/^stp_/),
        type: "webhook",
        url: "https://example.com/hook",
        method: "PUT",
        headers: { "X-Team": "growth" },
        payload: { hello: "world" },
      },
    ]);
    const page = await (
      await dashboardGet(`/dashboard/automations/${automation.id}?done=created`, admin)
    ).text();
    expect(page).toContain("Automation created as a draft.");
  });

  it("saves edits keeping the ids of the steps kept, in the order posted; a move alone saves nothing", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "owner");
    const id = createdId(await dashboardPost("/dashboard/automations", admin, { ...twoSteps(), op: "save" }));
    const before = await automationOf(ws.token, id);
    const [wait, hook] = before.steps.map((s) => s.id) as [string, string];

    const moved = await dashboardPost(`/dashboard/automations/${id}`, admin, {
      ...twoSteps([wait, hook]),
      op: "up:1",
    });
    expect(moved.status).toBe(200);
    const movedForm = await moved.text();
    expect(movedForm).toContain(`name="steps.0.id" value="${hook}"`);
    expect(movedForm).toContain(`name="steps.1.id" value="${wait}"`);
    expect((await automationOf(ws.token, id)).steps.map((s) => s.id)).toEqual([wait, hook]);

    // The webhook moved first, the wait second with a new duration, a new step last.
    const saved = await dashboardPost(`/dashboard/automations/${id}`, admin, {
      name: "Renamed",
      trigger_type: "api",
      allow_reentry: "on",
      "steps.0.id": hook,
      "steps.0.type": "webhook",
      "steps.0.url": "https://example.com/other",
      "steps.0.method": "POST",
      "steps.1.id": wait,
      "steps.1.type": "wait",
      "steps.1.duration": "5m",
      "steps.2.id": "",
      "steps.2.type": "update_customer",
      "steps.2.metadata": '{"vip": true}',
      op: "save",
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toBe(`/dashboard/automations/${id}?done=saved`);
    const after = await automationOf(ws.token, id);
    expect(after).toMatchObject({ name: "Renamed", allow_reentry: true });
    expect(after.steps.map((s) => s.id).slice(0, 2)).toEqual([hook, wait]);
    expect(after.steps[1]).toEqual({ id: wait, type: "wait", duration: "5m" });
    expect(after.steps[2]).toMatchObject({ type: "update_customer", metadata: { vip: true } });
    expect(after.steps[2]?.id).toMatch(/^stp_/);
    expect(after.steps[0]).toMatchObject({ url: "https://example.com/other", headers: {} });
  });

  it("activates, pauses and deletes as the API does; deleting an active one shows the API's 400", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const empty = createdId(
      await dashboardPost("/dashboard/automations", admin, { name: "Empty", trigger_type: "api" }),
    );
    const noSteps = await dashboardPost(`/dashboard/automations/${empty}/activate`, admin);
    expect(noSteps.status).toBe(400);
    expect(await noSteps.text()).toContain("add at least one step");

    const id = createdId(await dashboardPost("/dashboard/automations", admin, twoSteps()));
    const activated = await dashboardPost(`/dashboard/automations/${id}/activate`, admin);
    expect(activated.headers.get("Location")).toBe(`/dashboard/automations/${id}?done=activated`);
    expect((await automationOf(ws.token, id)).status).toBe("active");

    const refused = await dashboardPost(`/dashboard/automations/${id}/delete`, admin);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/role="alert"[\s\S]*pause it before deleting it/);
    expect((await automationOf(ws.token, id)).status).toBe("active");

    const paused = await dashboardPost(`/dashboard/automations/${id}/pause`, admin);
    expect(paused.headers.get("Location")).toBe(`/dashboard/automations/${id}?done=paused`);
    expect((await automationOf(ws.token, id)).status).toBe("paused");
    expect((await dashboardPost(`/dashboard/automations/${id}/pause`, admin)).status).toBe(400);

    const deleted = await dashboardPost(`/dashboard/automations/${id}/delete`, admin);
    expect(deleted.headers.get("Location")).toBe("/dashboard/automations?done=deleted");
    expect((await callJson("GET", `/v1/automations/${id}`, { token: ws.token })).status).toBe(404);
  });

  it("shows the secret to admins by a POST, as the API answers it", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const id = createdId(await dashboardPost("/dashboard/automations", admin, twoSteps()));
    const { secret } = await automationOf(ws.token, id);
    expect(secret).toMatch(/^whsec_/);
    const page = await dashboardPost(`/dashboard/automations/${id}/secret`, admin);
    expect(await page.text()).toContain(`<code class="secret">${secret}</code>`);
    const fragment = await postForm(
      `/dashboard/automations/${id}/secret`,
      { _csrf: admin.csrf },
      { Cookie: admin.cookie, "HX-Request": "true" },
    );
    expect(await fragment.text()).toBe(`<code class="secret">${secret}</code>`);
    expect(
      (await dashboardPost(`/dashboard/automations/${id}/secret`, await signIn(ws.accountId, "agent")))
        .status,
    ).toBe(403);
  });

  it("refuses agents, posts without the CSRF token, and another workspace's automation", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const theirs = createdId(
      await dashboardPost("/dashboard/automations", await signIn(other.accountId, "owner"), twoSteps()),
    );
    const agent = await signIn(ws.accountId, "agent");
    expect((await dashboardPost("/dashboard/automations", agent, twoSteps())).status).toBe(403);
    expect((await dashboardPost(`/dashboard/automations/${theirs}/activate`, agent)).status).toBe(403);
    const noCsrf = await postForm("/dashboard/automations", twoSteps(), { Cookie: owner.cookie });
    expect(noCsrf.status).toBe(403);
    for (const action of ["activate", "pause", "delete", "secret"]) {
      expect((await dashboardPost(`/dashboard/automations/${theirs}/${action}`, owner)).status).toBe(404);
    }
    expect((await dashboardPost(`/dashboard/automations/${theirs}`, owner, twoSteps())).status).toBe(404);
    expect((await automationOf(other.token, theirs)).status).toBe("draft");
    const mine = await callJson<{ data: unknown[] }>("GET", "/v1/automations", { token: ws.token });
    expect(mine.body.data).toEqual([]);
  });

  it("cancels an active enrolment as the API does; a finished one shows the API's 409", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const automation = await seedAutomation(ws.accountId, { status: "active" });
    const enrollment = await seedEnrollment(automation, await seedCustomer(ws.accountId, "ada@example.org"), {
      currentStep: "stp_wait",
    });
    const theirs = await seedEnrollment(
      await seedAutomation(other.accountId, { status: "active" }),
      await seedCustomer(other.accountId, "x@example.org"),
    );
    const admin = await signIn(ws.accountId, "admin");
    expect(
      (
        await dashboardPost(
          `/dashboard/enrollments/${enrollment.id}/cancel`,
          await signIn(ws.accountId, "agent"),
        )
      ).status,
    ).toBe(403);
    expect((await dashboardPost(`/dashboard/enrollments/${theirs.id}/cancel`, admin)).status).toBe(404);
    const enrollmentOf = async (token: string, id: string) =>
      (await callJson<{ status: string }>("GET", `/v1/enrollments/${id}`, { token })).body;
    expect((await enrollmentOf(other.token, theirs.id)).status).toBe("active");

    const cancelled = await dashboardPost(`/dashboard/enrollments/${enrollment.id}/cancel`, admin);
    expect(cancelled.headers.get("Location")).toBe(`/dashboard/enrollments/${enrollment.id}?done=cancelled`);
    expect((await enrollmentOf(ws.token, enrollment.id)).status).toBe("cancelled");
    const page = await (
      await dashboardGet(`/dashboard/enrollments/${enrollment.id}?done=cancelled`, admin)
    ).text();
    expect(page).toContain("Enrolment cancelled");
    expect(page).not.toContain(`/dashboard/enrollments/${enrollment.id}/cancel"`);

    const again = await dashboardPost(`/dashboard/enrollments/${enrollment.id}/cancel`, admin);
    expect(again.status).toBe(409);
    expect(await again.text()).toMatch(/role="alert"[\s\S]*only an active enrolment can be cancelled/);
  });
});
