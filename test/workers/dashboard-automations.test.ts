import { describe, expect, it } from "vitest";
import { seedAutomation, seedCustomer, seedEnrollment, seedHistory } from "./dashboard-automations-helpers";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { seedWorkspace } from "./helpers";

describe("dashboard: automations pages", () => {
  it("lists automations with status, trigger, steps and active enrolments, paginated, escaping names", async () => {
    const ws = await seedWorkspace();
    const first = await seedAutomation(ws.accountId, { name: "Old <script>x</script>", createdAt: 1_000 });
    const second = await seedAutomation(ws.accountId, {
      name: "Onboarding",
      status: "active",
      triggerType: "group_joined",
      triggerRef: "grp_x",
      stepList: [
        { id: "stp_a", type: "wait", duration: "1d" },
        { id: "stp_b", type: "wait", duration: "2d" },
      ],
    });
    const ada = await seedCustomer(ws.accountId, "ada@example.org");
    const bob = await seedCustomer(ws.accountId, "bob@example.org");
    await seedEnrollment(second, ada);
    await seedEnrollment(second, bob);
    await seedEnrollment(second, ada, { status: "completed" });
    const agent = await signIn(ws.accountId, "agent");

    const page = await (await dashboardGet("/dashboard/automations", agent)).text();
    expect(page).toContain('aria-current="page">Automations</a>');
    expect(page).toContain("Old &lt;script&gt;x&lt;/script&gt;");
    expect(page).not.toContain("<script>x</script>");
    expect(page).not.toContain("New automation");
    const row = page.slice(page.indexOf(`/dashboard/automations/${second.id}"`));
    expect(row).toMatch(/active<\/span>[\s\S]*<code>group_joined<\/code>[\s\S]*<td>2<\/td>[\s\S]*>2<\/a>/);
    // Newest first, one per page.
    const one = await (await dashboardGet("/dashboard/automations?limit=1", agent)).text();
    expect(one).toContain(second.id);
    expect(one).not.toContain(first.id);
    expect(one).toContain('href="/dashboard/automations?limit=1&amp;offset=1"');
    const next = await (await dashboardGet("/dashboard/automations?limit=1&offset=1", agent)).text();
    expect(next).toContain(first.id);
  });

  it("shows an automation read-only to agents and with the editor, secret button and actions to admins", async () => {
    const ws = await seedWorkspace();
    const automation = await seedAutomation(ws.accountId, {
      stepList: [
        { id: "stp_mail", type: "send_email", from: "a@acme.test", subject: "Hi <b>there</b>", text: "T" },
        {
          id: "stp_hook",
          type: "webhook",
          url: "https://example.com/h",
          method: "PATCH",
          headers: { "X-A": "1" },
        },
      ],
    });
    const agent = await signIn(ws.accountId, "agent");
    const read = await (await dashboardGet(`/dashboard/automations/${automation.id}`, agent)).text();
    expect(read).toContain("“Hi &lt;b&gt;there&lt;/b&gt;” from a@acme.test");
    expect(read).toContain("PATCH https://example.com/h");
    expect(read).not.toContain("Show secret");
    expect(read).not.toContain('name="steps.0.id"');
    expect(read).not.toContain("/activate");

    const admin = await signIn(ws.accountId, "admin");
    const page = await (await dashboardGet(`/dashboard/automations/${automation.id}`, admin)).text();
    expect(page).toContain("Show secret");
    expect(page).not.toContain("whsec_");
    expect(page).toContain('name="steps.0.id" value="stp_mail"');
    expect(page).toContain('name="steps.1.id" value="stp_hook"');
    expect(page).toMatch(/name="steps.1.headers"[^>]*>X-A: 1<\/textarea>/);
    expect(page).toContain(`action="/dashboard/automations/${automation.id}/activate"`);
    expect(page).toContain(`action="/dashboard/automations/${automation.id}/delete"`);
    expect(page).not.toContain(`/dashboard/automations/${automation.id}/pause"`);

    const active = await seedAutomation(ws.accountId, { status: "active" });
    const activePage = await (await dashboardGet(`/dashboard/automations/${active.id}`, admin)).text();
    expect(activePage).toContain(`action="/dashboard/automations/${active.id}/pause"`);
    expect(activePage).not.toContain(`/dashboard/automations/${active.id}/delete"`);
    expect(activePage).not.toContain(`/dashboard/automations/${active.id}/activate"`);
  });

  it("lists an automation's enrolments by status and shows one's history", async () => {
    const ws = await seedWorkspace();
    const automation = await seedAutomation(ws.accountId, {
      stepList: [
        { id: "stp_mail", type: "send_email", from: "a@acme.test", subject: "Hi", text: "T" },
        { id: "stp_hook", type: "webhook", url: "https://example.com/h", method: "POST", headers: {} },
        { id: "stp_wait", type: "wait", duration: "3d" },
      ],
    });
    const ada = await seedCustomer(ws.accountId, "ada@example.org", "Ada <Lovelace>");
    const bob = await seedCustomer(ws.accountId, "bob@example.org");
    const running = await seedEnrollment(automation, ada, {
      currentStep: "stp_wait",
      nextRunAt: Date.now() + 86_400_000,
    });
    const done = await seedEnrollment(automation, bob, {
      status: "completed",
      note: "step stp_x was removed",
    });
    await seedHistory(running, [
      {
        stepId: "stp_mail",
        stepType: "send_email",
        detail: JSON.stringify({ email_id: "eml_123" }),
        finishedAt: Date.now(),
      },
      {
        stepId: "stp_hook",
        stepType: "webhook",
        status: "failed",
        error: "HTTP 500 <oops>",
        detail: JSON.stringify({ status: 500, duration_ms: 42 }),
      },
      { stepId: "stp_gone", stepType: "update_customer", status: "skipped" },
      { stepId: "stp_wait", stepType: "wait", status: "running" },
    ]);
    const agent = await signIn(ws.accountId, "agent");

    const list = await (
      await dashboardGet(`/dashboard/automations/${automation.id}/enrollments`, agent)
    ).text();
    expect(list).toContain(`href="/dashboard/enrollments/${running.id}"`);
    expect(list).toContain(`href="/dashboard/enrollments/${done.id}"`);
    expect(list).toContain("3. wait");
    const active = await (
      await dashboardGet(`/dashboard/automations/${automation.id}/enrollments?status=active`, agent)
    ).text();
    expect(active).toContain(running.id);
    expect(active).not.toContain(done.id);

    const history = await (await dashboardGet(`/dashboard/enrollments/${running.id}`, agent)).text();
    expect(history).toContain("Ada &lt;Lovelace&gt;");
    expect(history).toContain("1. send_email");
    expect(history).toContain("<code>eml_123</code>");
    expect(history).toContain("HTTP 500 &lt;oops&gt;");
    expect(history).toMatch(/duration_ms<\/dt><dd><code>42<\/code>/);
    expect(history).toContain("update_customer (removed)");
    // Agents do not cancel.
    expect(history).not.toContain("/cancel");
    const admin = await signIn(ws.accountId, "admin");
    expect(await (await dashboardGet(`/dashboard/enrollments/${running.id}`, admin)).text()).toContain(
      `action="/dashboard/enrollments/${running.id}/cancel"`,
    );
    const finished = await (await dashboardGet(`/dashboard/enrollments/${done.id}`, admin)).text();
    expect(finished).toContain("step stp_x was removed");
    expect(finished).not.toContain("/cancel");
  });

  it("answers 404 for another workspace's automation and enrolment, and 403 to agents on the new form", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const theirs = await seedAutomation(other.accountId);
    const enrollment = await seedEnrollment(theirs, await seedCustomer(other.accountId, "x@example.org"));
    const owner = await signIn(ws.accountId, "owner");
    for (const path of [
      `/dashboard/automations/${theirs.id}`,
      `/dashboard/automations/${theirs.id}/enrollments`,
      `/dashboard/enrollments/${enrollment.id}`,
    ]) {
      expect((await dashboardGet(path, owner)).status).toBe(404);
    }
    const mine = await (await dashboardGet("/dashboard/automations", owner)).text();
    expect(mine).not.toContain(theirs.id);
    expect(
      (await dashboardGet("/dashboard/automations/new", await signIn(ws.accountId, "agent"))).status,
    ).toBe(403);
    const form = await (await dashboardGet("/dashboard/automations/new", owner)).text();
    expect(form).toContain('action="/dashboard/automations"');
    expect(form).toContain('value="add:send_email"');
  });
});
