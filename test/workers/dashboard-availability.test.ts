import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, seedWorkspace, verifiedDomain } from "./helpers";

const availabilityOf = async (token: string, id: string) =>
  (await callJson<{ available: boolean }>("GET", `/v1/users/${id}`, { token })).body.available;

describe("availability on the Team page", () => {
  it("lets an agent set themself away and back, and shows it", async () => {
    const ws = await seedWorkspace();
    const agent = await signIn(ws.accountId, "agent");
    const path = `/dashboard/team/users/${agent.user.id}/availability`;

    const away = await dashboardPost(path, agent, { available: "false" });
    expect(away.status).toBe(303);
    expect(away.headers.get("Location")).toBe("/dashboard/team?done=away");
    expect(await availabilityOf(ws.token, agent.user.id)).toBe(false);
    const html = await (await dashboardGet("/dashboard/team?done=away", agent)).text();
    expect(html).toContain("Set away: assignment rules pass them over.");
    expect(html).toContain(">Set available</button>");

    expect((await dashboardPost(path, agent, { available: "true" })).status).toBe(303);
    expect(await availabilityOf(ws.token, agent.user.id)).toBe(true);
  });

  it("lets an admin set anyone away, but not an agent someone else; bad values are 400", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const agent = await signIn(ws.accountId, "agent");
    const other = await signIn(ws.accountId, "agent");

    const refused = await dashboardPost(`/dashboard/team/users/${other.user.id}/availability`, agent, {
      available: "false",
    });
    expect(refused.status).toBe(403);
    expect(await availabilityOf(ws.token, other.user.id)).toBe(true);
    // An agent sees no button on another person's row: only their own.
    const html = await (await dashboardGet("/dashboard/team", agent)).text();
    expect(html.match(/>Set away<\/button>/g)).toHaveLength(1);

    const path = `/dashboard/team/users/${other.user.id}/availability`;
    expect((await dashboardPost(path, admin, { available: "false" })).status).toBe(303);
    expect(await availabilityOf(ws.token, other.user.id)).toBe(false);
    expect((await dashboardPost(path, admin, { available: "maybe" })).status).toBe(400);

    const elsewhere = await seedWorkspace();
    const stranger = await signIn(elsewhere.accountId, "owner");
    const foreign = await dashboardPost(path, stranger, { available: "true" });
    expect(foreign.status).toBe(404);
    expect(await availabilityOf(ws.token, other.user.id)).toBe(false);
  });
});

describe("the inbox's assignment rule in the dashboard", () => {
  it("is chosen on the settings form, kept when a form leaves it out, and shown to agents", async () => {
    const ws = await seedWorkspace();
    const domain = `assign-${crypto.randomUUID().slice(0, 8)}.test`;
    await verifiedDomain(ws.accountId, domain);
    const admin = await signIn(ws.accountId, "admin");
    const agent = await signIn(ws.accountId, "agent");
    const created = await callJson<{ id: string }>("POST", "/v1/inboxes", {
      token: ws.token,
      body: { name: "Support", email_address: `support@${domain}` },
    });
    const id = created.body.id;
    const form = await (await dashboardGet(`/dashboard/inboxes/${id}`, admin)).text();
    expect(form).toContain('<option value="manual" selected="">Manual</option>');

    const fields = { name: "Support", email_address: `support@${domain}`, status_after_reply: "pending" };
    const saved = await dashboardPost(`/dashboard/inboxes/${id}`, admin, {
      ...fields,
      assignment_rule: "round_robin",
    });
    expect(saved.status).toBe(303);
    const ruleOf = async () =>
      (await callJson<{ assignment_rule: string }>("GET", `/v1/inboxes/${id}`, { token: ws.token })).body
        .assignment_rule;
    expect(await ruleOf()).toBe("round_robin");
    expect((await dashboardPost(`/dashboard/inboxes/${id}`, admin, fields)).status).toBe(303);
    expect(await ruleOf()).toBe("round_robin");
    const bad = await dashboardPost(`/dashboard/inboxes/${id}`, admin, {
      ...fields,
      assignment_rule: "lottery",
    });
    expect(bad.status).toBe(400);

    const readOnly = await (await dashboardGet(`/dashboard/inboxes/${id}`, agent)).text();
    expect(readOnly).toContain("<dt>Assignment</dt>");
    expect(readOnly).toContain("<dd>Round robin</dd>");
  });
});
