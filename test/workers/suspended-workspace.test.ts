import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { seedUser, seedWorkspace, ticketWorkspace } from "./helpers";
import { deliver, FIXTURES, fill, inboundWorkspace } from "./inbound-helpers";
import { postForm, uniqueIp } from "./people-helpers";
import { setAccountStatus } from "./suspension-helpers";

const countOf = async (sql: string, accountId: string) =>
  (await env.DB_2.prepare(sql).bind(accountId).first<{ n: number }>())?.n ?? 0;

describe("a suspended workspace's dashboard session", () => {
  it("gets the 403 page on listing, creating a ticket and replying, and nothing is written or sent", async () => {
    const { ws, inbox, ticket } = await ticketWorkspace("susp");
    const agent = await signIn(ws.accountId, "agent");
    await setAccountStatus(ws.accountId, "suspended");
    const emailsBefore = await countOf("SELECT count(*) AS n FROM emails WHERE account_id = ?", ws.accountId);

    const list = await dashboardGet("/dashboard/tickets", agent);
    expect(list.status).toBe(403);
    expect(await list.text()).toContain("This workspace is suspended");
    expect((await dashboardGet("/dashboard", agent)).status).toBe(403);
    const created = await dashboardPost("/dashboard/tickets", agent, {
      inbox_id: inbox.id,
      customer_email: "new@example.com",
      subject: "Cannot log in",
      body_text: "Hello",
      priority: "normal",
    });
    expect(created.status).toBe(403);
    const reply = await dashboardPost(`/dashboard/tickets/${ticket.id}/reply`, agent, { body_text: "On it" });
    expect(reply.status).toBe(403);

    expect(await countOf("SELECT count(*) AS n FROM tickets WHERE account_id = ?", ws.accountId)).toBe(1);
    expect(await countOf("SELECT count(*) AS n FROM emails WHERE account_id = ?", ws.accountId)).toBe(
      emailsBefore,
    );
  });

  it("works again once the workspace is reinstated", async () => {
    const { ws } = await ticketWorkspace("back");
    const agent = await signIn(ws.accountId, "agent");
    await setAccountStatus(ws.accountId, "suspended");
    expect((await dashboardGet("/dashboard/tickets", agent)).status).toBe(403);
    await setAccountStatus(ws.accountId, "active");
    expect((await dashboardGet("/dashboard/tickets", agent)).status).toBe(200);
  });
});

describe("POST /login for a suspended workspace's user", () => {
  it("answers the page an unknown address gets, and writes and sends no link", async () => {
    const ws = await seedWorkspace({ status: "suspended" });
    const user = await seedUser(ws.accountId, { role: "owner" });
    const ip = { "CF-Connecting-IP": uniqueIp() };
    const known = await postForm("/login", { email: user.email }, ip);
    const unknown = await postForm("/login", { email: "nobody-at-all@example.com" }, ip);
    expect(known.status).toBe(200);
    expect(await known.text()).toBe(await unknown.text());
    // The link is sent after the answer: give it the time it would take.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await countOf("SELECT count(*) AS n FROM login_tokens WHERE account_id = ?", ws.accountId)).toBe(
      0,
    );
    expect(await countOf("SELECT count(*) AS n FROM emails WHERE account_id = ?", ws.accountId)).toBe(0);
  });
});

describe("inbound mail to a suspended workspace", () => {
  it("is still stored as a ticket: nothing a customer sends is lost", async () => {
    const { ws, inbox } = await inboundWorkspace();
    await setAccountStatus(ws.accountId, "suspended");
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress });
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect(await countOf("SELECT count(*) AS n FROM tickets WHERE account_id = ?", ws.accountId)).toBe(1);
    expect(
      await countOf(
        "SELECT count(*) AS n FROM messages WHERE account_id = ? AND direction = 'inbound'",
        ws.accountId,
      ),
    ).toBe(1);
  });
});
