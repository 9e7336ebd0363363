import { describe, expect, it } from "vitest";
import { shardOf } from "../../src/db/directory/workspaces";
import { call, callJson, directory, seedInbox, sendingWorkspace } from "./helpers";
import { deliver, FIXTURES, fill } from "./inbound-helpers";
import { apiView, runMove, talliesOn, wholeOn } from "./workspace-move-helpers";

/** A workspace with mail both ways: tickets from inbound mail, emails sent, customers. */
async function busyWorkspace() {
  const ws = await sendingWorkspace("acme.test");
  const inbox = await seedInbox(ws.accountId);
  for (let i = 0; i < 3; i++) {
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress }).replace(
      "Printer on fire",
      `Printer ${i}`,
    );
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
  }
  for (let i = 0; i < 5; i++) {
    const { status } = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `a@${ws.domain}`,
        to: [`b${i}@example.com`, "c@example.com"],
        subject: `Hello ${i}`,
        text: "x",
        tags: [{ name: "n", value: `${i}` }],
      },
    });
    expect(status).toBe(200);
  }
  const entry = await callJson("POST", "/v1/changelog", {
    token: ws.token,
    body: { title: "Faster printers", body_markdown: "**Yes**", category: "new" },
  });
  expect(entry.status).toBe(201);
  const group = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
    token: ws.token,
    body: { name: "VIP" },
  });
  expect(group.status).toBe(201);
  const added = await callJson("POST", `/v1/contact-groups/${group.body.id}/members`, {
    token: ws.token,
    body: { members: [{ email: "vip1@example.com" }, { email: "vip2@example.com" }] },
  });
  expect(added.status).toBe(200);
  return { ws, inbox };
}

/**
 * A move copies, checks and deletes every row of a busy workspace: about 13 s of its own on a quiet
 * machine, more beside the long server files that share the Workers files' group.
 */
describe("moving a workspace between shards", { timeout: 60_000 }, () => {
  it("copies every row, checks them, switches the directory and deletes the old rows", async () => {
    const { ws } = await busyWorkspace();
    const before = await talliesOn("DB_2", ws.accountId);
    expect(before.tickets?.count).toBe(3);
    expect(before.emails?.count).toBe(5);
    expect(before.email_recipients?.count).toBe(10);
    expect(before.changelog_entries?.count).toBe(1);
    expect(before.contact_group_members?.count).toBe(2);
    const view = await apiView(ws.token);

    const reports = await runMove(ws.accountId, "DB");
    expect(reports.at(-1)?.step).toBe("done");
    expect(await shardOf(directory(), ws.accountId, Date.now() + 60_000)).toBe("DB");
    await wholeOn("DB", "DB_2", ws.accountId, before);
    expect(await apiView(ws.token)).toEqual(view);
  });
});

describe("the freeze", { timeout: 60_000 }, () => {
  it("refuses writes with 503 and Retry-After while reads go on; the retried write succeeds after the switch", async () => {
    const { ws, inbox } = await busyWorkspace();
    const view = await apiView(ws.token);
    const reports = await runMove(ws.accountId, "DB", {
      between: async (report) => {
        if (report.step !== "copying" && report.step !== "verifying") return;
        expect(await apiView(ws.token)).toEqual(view);
        const refused = await call("POST", "/v1/customers", {
          token: ws.token,
          body: { email: "new@example.com" },
        });
        expect(refused.status).toBe(503);
        expect(refused.headers.get("Retry-After")).toBe("10");
        expect(await refused.json()).toMatchObject({ code: "workspace_moving" });
        // Mail to the workspace's inbox is a temporary failure: the sending server tries again.
        const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress }).replace("Printer on fire", "During");
        expect((await deliver(raw, { to: inbox.emailAddress })).outcome).toBe("failed");
      },
    });
    expect(reports.at(-1)?.step).toBe("done");
    const created = await call("POST", "/v1/customers", {
      token: ws.token,
      body: { email: "new@example.com" },
    });
    expect(created.status).toBe(201);
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress }).replace("Printer on fire", "After");
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    const { body } = await callJson<{ data: Array<{ subject: string }> }>("GET", "/v1/tickets?limit=100", {
      token: ws.token,
    });
    expect(body.data.map((t) => t.subject)).toContain("After");
    expect((await talliesOn("DB", ws.accountId)).tickets?.count).toBe(4);
    expect((await talliesOn("DB_2", ws.accountId)).tickets?.count).toBe(0);
  });
});
