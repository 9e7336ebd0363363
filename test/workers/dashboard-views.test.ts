import { describe, expect, it } from "vitest";
import { signIn } from "./dashboard-helpers";
import { html, sidebar } from "./dashboard-views-helpers";
import { callJson, ticketWorkspace } from "./helpers";

const listedIds = (page: string) =>
  [...page.matchAll(/<td class="ticket-id"><a [^>]*>([^<]+)<\/a>/g)].map((m) => m[1]);

describe("the ticket list's views", () => {
  it("lists the built-in views first with live counts, Mine being the signed-in user's, each a link to its list", async () => {
    const { ws, inbox, ticket } = await ticketWorkspace("views");
    const ann = await signIn(ws.accountId, "agent");
    const bob = await signIn(ws.accountId, "agent");
    const post = (body: Record<string, unknown>) =>
      callJson<{ id: string; client_id: string }>("POST", "/v1/tickets", {
        token: ws.token,
        body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Help", ...body },
      });
    const mine = (await post({ assignee_id: ann.user.id })).body;
    await post({ assignee_id: bob.user.id });
    const urgent = await callJson<{ id: string }>("POST", "/v1/views", {
      token: ws.token,
      body: { name: "Urgent", filters: { priority: "urgent" } },
    });
    await callJson("POST", "/v1/views", {
      token: ws.token,
      body: { name: "Bob only", filters: {}, owner_user_id: bob.user.id },
    });

    const annPage = await html("/dashboard/tickets", ann);
    expect(sidebar(annPage)).toEqual([
      ["Unassigned", "1", "/dashboard/tickets?assignee_id=none&status=open", false],
      ["Mine", "1", "/dashboard/tickets?assignee_id=me&status=open", false],
      ["All open", "3", "/dashboard/tickets?status=open", false],
      // A saved view's link also opens it, for the forms that change it.
      ["Urgent", "0", `/dashboard/tickets?priority=urgent&view=${urgent.body.id}`, false],
    ]);
    expect(sidebar(await html("/dashboard/tickets", bob)).map((v) => v[0])).toContain("Bob only");

    const minePage = await html("/dashboard/tickets?assignee_id=me&status=open", ann);
    expect(listedIds(minePage)).toEqual([mine.client_id]);
    expect(sidebar(minePage).find((v) => v[0] === "Mine")?.[3]).toBe(true);
    const unassigned = await html("/dashboard/tickets?status=open&assignee_id=none", ann);
    expect(listedIds(unassigned)).toEqual([(ticket as unknown as { client_id: string }).client_id]);
  });
});
