import { describe, expect, it } from "vitest";
import { shardOf } from "../../src/db/directory/workspaces";
import { callJson, directory, seedInbox, sendingWorkspace } from "./helpers";
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
  return { ws, inbox };
}

describe("moving a workspace between shards", () => {
  it("copies every row, checks them, switches the directory and deletes the old rows", async () => {
    const { ws } = await busyWorkspace();
    const before = await talliesOn("DB_2", ws.accountId);
    expect(before.tickets?.count).toBe(3);
    expect(before.emails?.count).toBe(5);
    expect(before.email_recipients?.count).toBe(10);
    const view = await apiView(ws.token);

    const reports = await runMove(ws.accountId, "DB");
    expect(reports.at(-1)?.step).toBe("done");
    expect(await shardOf(directory(), ws.accountId, Date.now() + 60_000)).toBe("DB");
    await wholeOn("DB", "DB_2", ws.accountId, before);
    expect(await apiView(ws.token)).toEqual(view);
  });
});
