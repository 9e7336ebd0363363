import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { callJson, ticketWorkspace } from "./helpers";

/**
 * `count` agents written in one statement, each a second newer than the last (ids are random),
 * their emails named in the directory first, as every path that creates a user does.
 */
async function seedPeople(accountId: string, count: number) {
  const start = Date.now() - count * 1000;
  await env.DIRECTORY.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO member_emails (email, account_id) SELECT 'person-' || i || '@example.com', ? FROM n`,
  )
    .bind(count, accountId)
    .run();
  await env.DB_2.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO users (id, account_id, email, name, role, status, created_at, updated_at)
     SELECT 'usr_' || substr(hex(randomblob(13)), 1, 26), ?, 'person-' || i || '@example.com', 'Person ' || i, 'agent', 'active', ? + i * 1000, ? + i * 1000 FROM n`,
  )
    .bind(count, accountId, start, start)
    .run();
}

describe("dashboard pages of a workspace with 3,000 users", { timeout: 120_000 }, () => {
  it("keep the ticket page small, still offering its assignee, and paginate the team page", async () => {
    const { ws, ticket } = await ticketWorkspace("crowd");
    await seedPeople(ws.accountId, 3000);
    const newest = await env.DB_2.prepare(
      "SELECT id, email FROM users WHERE account_id = ? ORDER BY created_at DESC LIMIT 1",
    )
      .bind(ws.accountId)
      .first<{ id: string; email: string }>();
    const assign = await callJson("PATCH", `/v1/tickets/${ticket.id}`, {
      token: ws.token,
      body: { assignee_id: newest?.id },
    });
    expect(assign.status).toBe(200);
    const owner = await signIn(ws.accountId, "owner");

    const page = await dashboardGet(`/dashboard/tickets/${ticket.id}`, owner);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html.length).toBeLessThan(50_000);
    expect(html).toMatch(new RegExp(`<option value="${newest?.id}" selected`));

    const list = await (await dashboardGet("/dashboard/tickets", owner)).text();
    expect(list.length).toBeLessThan(50_000);
    expect(list).toContain("Person 3000");

    const team = await (await dashboardGet("/dashboard/team?offset=25", owner)).text();
    expect(team.length).toBeLessThan(50_000);
    // Oldest first, 25 a page: the second page is people 26 to 50.
    expect(team).toContain("<td>person-26@example.com</td>");
    expect(team).toContain("<td>person-50@example.com</td>");
    expect(team).not.toContain("<td>person-25@example.com</td>");
    expect(team).not.toContain("<td>person-51@example.com</td>");
  });
});
