import { describe, expect, it } from "vitest";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { searchDesk } from "./ticket-search-helpers";

describe("searching from the dashboard", () => {
  it("has a search box on every page that lands on the ticket list with q, hits marked", async () => {
    const { ws, create, message } = await searchDesk();
    const t = await create("Dashboard search");
    await message(t.id, "The <i>capybara</i> escaped again");
    const agent = await signIn(ws.accountId, "agent");
    const home = await (await dashboardGet("/dashboard", agent)).text();
    expect(home).toContain('<form method="get" action="/dashboard/tickets">');
    expect(home).toContain('name="q"');
    const res = await dashboardGet("/dashboard/tickets?q=capybara", agent);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`/dashboard/tickets/${t.id}`);
    expect(html).toContain("&lt;i&gt;<mark>capybara</mark>&lt;/i&gt;");
    expect(html).not.toContain("<i>capybara");
  });

  it("takes as long a q as the API, so a view saved through the API opens", async () => {
    const { ws, create } = await searchDesk();
    const t = await create("Long search");
    const agent = await signIn(ws.accountId, "agent");
    const q = `long ${"x".repeat(400)} -nothing`;
    const res = await dashboardGet(`/dashboard/tickets?q=${encodeURIComponent(q)}`, agent);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain(`/dashboard/tickets/${t.id}"`);
  });
});
