import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, type SignedIn, signIn } from "./dashboard-helpers";
import { call, callJson, eventsOf, seedUser, seedWorkspace, ticketWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

type ApiTicket = {
  id: string;
  subject: string;
  status: string;
  priority: string;
  assignee_id: string | null;
  tags: string[];
  message_count: number;
};
type ApiMessage = {
  id: string;
  type: string;
  author: { type: string; id: string | null };
  email_id: string | null;
  body_text: string | null;
  direction: string;
};

const getTicket = async (token: string, id: string) =>
  (await callJson<ApiTicket>("GET", `/v1/tickets/${id}`, { token })).body;

const messagesOf = async (token: string, id: string) =>
  (await callJson<{ data: ApiMessage[] }>("GET", `/v1/tickets/${id}/messages`, { token })).body.data;

/** The events recorded after `before` of them. */
const eventsSince = async (accountId: string, before: number) => (await eventsOf(accountId)).slice(before);

const editFields = (
  fields: Partial<Record<"subject" | "status" | "priority" | "assignee_id" | "tags", string>>,
) => ({
  subject: "Help",
  status: "open",
  priority: "normal",
  assignee_id: "",
  tags: "",
  ...fields,
});

async function desk() {
  const setup = await ticketWorkspace("desk-actions");
  const agent = await signIn(setup.ws.accountId, "agent");
  return { ...setup, agent, path: `/dashboard/tickets/${setup.ticket.id}` };
}

describe("Save on the ticket page", () => {
  it("fires exactly one ticket.updated, equal to the one PATCH fires for the same change", async () => {
    const { ws, ticket, agent, path } = await desk();
    const before = (await eventsOf(ws.accountId)).length;
    const change = {
      subject: "Printer still on fire",
      status: "on_hold",
      priority: "high",
      assignee_id: agent.user.id,
    };
    const res = await dashboardPost(`${path}/edit`, agent, editFields(change));
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${path}?done=saved`);
    expect(await getTicket(ws.token, ticket.id)).toMatchObject(change);
    const fromDashboard = await eventsSince(ws.accountId, before);
    expect(fromDashboard.map((e) => e.event)).toEqual(["ticket.updated"]);

    // The same change through PATCH fires the same event, but for the moment it happened.
    const patched = await callJson("PATCH", `/v1/tickets/${ticket.id}`, { token: ws.token, body: change });
    expect(patched.status).toBe(200);
    const [dashboardEvent] = fromDashboard;
    const fromApi = await eventsSince(ws.accountId, before + 1);
    expect(fromApi.map((e) => e.event)).toEqual(["ticket.updated"]);
    const apiEvent = fromApi[0];
    expect(dashboardEvent?.inboxId).toBe(apiEvent?.inboxId);
    expect(dashboardEvent?.data).toEqual({
      ...apiEvent?.data,
      ticket: { ...apiEvent?.data.ticket, updated_at: dashboardEvent?.data.ticket?.updated_at },
    });
    expect((await dashboardGet(`${path}?done=saved`, agent).then((r) => r.text())).includes("Saved.")).toBe(
      true,
    );
  });

  it("changes tags as the API's tag actions do (no ticket.updated), and a Save of nothing changes nothing", async () => {
    const { ws, ticket, agent, path } = await desk();
    const before = (await eventsOf(ws.accountId)).length;
    const tagged = await dashboardPost(`${path}/edit`, agent, editFields({ tags: " vip, Billing ,, " }));
    expect(tagged.headers.get("Location")).toBe(`${path}?done=saved`);
    expect((await getTicket(ws.token, ticket.id)).tags).toEqual(["Billing", "vip"]);
    const untagged = await dashboardPost(`${path}/edit`, agent, editFields({ tags: "BILLING" }));
    expect(untagged.status).toBe(303);
    expect((await getTicket(ws.token, ticket.id)).tags).toEqual(["Billing"]);
    const unchanged = await dashboardPost(`${path}/edit`, agent, editFields({ tags: "billing" }));
    expect(unchanged.headers.get("Location")).toBe(`${path}?done=unchanged`);
    expect(await eventsSince(ws.accountId, before)).toEqual([]);
  });

  it("answers a 400 page with the reason for bad input, and changes nothing", async () => {
    const { ws, ticket, agent, path } = await desk();
    const before = await eventsOf(ws.accountId);
    const disabled = await seedUser(ws.accountId, { status: "disabled" });
    const cases: Array<[Record<string, string>, string]> = [
      [
        editFields({ subject: "New subject", assignee_id: "usr_nobody", tags: "x" }),
        "names no user of this workspace",
      ],
      [editFields({ assignee_id: disabled.id }), "names a disabled user"],
      [editFields({ status: "sleeping" }), "status"],
      [editFields({ subject: "" }), "subject"],
      [editFields({ tags: "a".repeat(51) }), "tags.0"],
    ];
    for (const [fields, reason] of cases) {
      const res = await dashboardPost(`${path}/edit`, agent, fields);
      expect(res.status, reason).toBe(400);
      expect(res.headers.get("Content-Type")).toContain("text/html");
      expect(await res.text()).toContain(reason);
    }
    expect(await getTicket(ws.token, ticket.id)).toMatchObject({
      subject: "Help",
      assignee_id: null,
      tags: [],
    });
    expect(await eventsOf(ws.accountId)).toEqual(before);
  });
});

describe("Send reply and Add note", () => {
  it("emails a reply as POST /v1/tickets/{id}/messages does, authored by the signed-in user, with message.created", async () => {
    const { ws, ticket, agent, path } = await desk();
    const before = (await eventsOf(ws.accountId)).length;
    const res = await dashboardPost(`${path}/reply`, agent, { body_text: "On our way <script>x</script>" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${path}?done=replied`);
    const [reply] = (await messagesOf(ws.token, ticket.id)).filter((m) => m.type === "reply");
    expect(reply).toMatchObject({ direction: "outbound", author: { type: "user", id: agent.user.id } });
    // GET /v1/messages/{id} names the same author.
    const shown = await callJson<ApiMessage>("GET", `/v1/messages/${reply?.id}`, { token: ws.token });
    expect(shown.body.author).toEqual({ type: "user", id: agent.user.id });
    // The customer is emailed.
    const emails = await callJson<{ data: Array<{ id: string; to: string[] }> }>("GET", "/v1/emails", {
      token: ws.token,
    });
    expect(emails.body.data.find((e) => e.id === reply?.email_id)?.to).toEqual(["ada@example.com"]);
    const events = await eventsSince(ws.accountId, before);
    expect(events.map((e) => e.event)).toEqual(["message.created"]);
    expect(events[0]?.data.message).toMatchObject({
      id: reply?.id,
      author: { type: "user", id: agent.user.id },
    });
    // As an API reply would, the ticket took the inbox's status after reply.
    expect((await getTicket(ws.token, ticket.id)).status).toBe("pending");
    const html = await (await dashboardGet(path, agent)).text();
    expect(html).toContain("On our way &lt;script&gt;x&lt;/script&gt;");
    expect(html).toContain("Test Person");
  });

  it("adds a note authored by the user that fires no message.created, while the API's notes still do", async () => {
    const { ws, ticket, agent, path } = await desk();
    const before = (await eventsOf(ws.accountId)).length;
    const res = await dashboardPost(`${path}/note`, agent, { body_text: "Called them, all fine." });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`${path}?done=noted`);
    const notes = (await messagesOf(ws.token, ticket.id)).filter((m) => m.type === "note");
    expect(notes).toEqual([
      expect.objectContaining({
        direction: "internal",
        body_text: "Called them, all fine.",
        author: { type: "user", id: agent.user.id },
        email_id: null,
      }),
    ]);
    // The note counts on the ticket as any note does; only the event is left out.
    expect((await getTicket(ws.token, ticket.id)).message_count).toBe(1);
    expect(await eventsSince(ws.accountId, before)).toEqual([]);

    // The API's own path is untouched: author `api`, and message.created fires.
    const apiNote = await callJson<ApiMessage>("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "note", body_text: "From the API" },
    });
    expect(apiNote.body.author).toEqual({ type: "api", id: null });
    const after = await eventsSince(ws.accountId, before);
    expect(after.map((e) => [e.event, e.data.message?.id])).toEqual([["message.created", apiNote.body.id]]);
  });

  it("refuses an empty message with a 400 page", async () => {
    const { ws, agent, path } = await desk();
    const before = await eventsOf(ws.accountId);
    for (const action of ["reply", "note"]) {
      const res = await dashboardPost(`${path}/${action}`, agent, { body_text: "  \n " });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("write something first");
    }
    expect(await eventsOf(ws.accountId)).toEqual(before);
  });
});

describe("Delete, other workspaces and CSRF", () => {
  it("deletes the ticket as DELETE does, firing ticket.deleted, and goes back to the list", async () => {
    const { ws, ticket, agent, path } = await desk();
    const page = await (await dashboardGet(path, agent)).text();
    expect(page).toContain(`action="${path}/delete"`);
    expect(page).toContain('data-confirm="Delete');
    const before = (await eventsOf(ws.accountId)).length;
    const res = await dashboardPost(`${path}/delete`, agent);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/dashboard/tickets?done=deleted");
    const events = await eventsSince(ws.accountId, before);
    expect(events.map((e) => [e.event, e.data.ticket?.id])).toEqual([["ticket.deleted", ticket.id]]);
    expect((await call("GET", `/v1/tickets/${ticket.id}`, { token: ws.token })).status).toBe(404);
    expect(await (await dashboardGet("/dashboard/tickets?done=deleted", agent)).text()).toContain(
      "The ticket was deleted.",
    );
    expect((await dashboardGet(path, agent)).status).toBe(404);
  });

  it("answers 404 pages for another workspace's ticket, and changes nothing", async () => {
    const { ws, ticket, path } = await desk();
    const stranger = await signIn((await seedWorkspace()).accountId, "owner");
    const before = await eventsOf(ws.accountId);
    const shown = await dashboardGet(path, stranger);
    expect(shown.status).toBe(404);
    expect(await shown.text()).toContain("<h1>Not found</h1>");
    const posts: Array<[string, Record<string, string>]> = [
      ["edit", editFields({ subject: "Taken over" })],
      ["reply", { body_text: "Hi" }],
      ["note", { body_text: "Hi" }],
      ["delete", {}],
    ];
    for (const [action, fields] of posts) {
      const res = await dashboardPost(`${path}/${action}`, stranger, fields);
      expect(res.status, action).toBe(404);
      expect(res.headers.get("Content-Type")).toContain("text/html");
    }
    expect(await getTicket(ws.token, ticket.id)).toMatchObject({ subject: "Help", message_count: 0 });
    expect(await eventsOf(ws.accountId)).toEqual(before);
  });

  it("refuses every form without the session's CSRF token with a 403 page", async () => {
    const { ws, ticket, agent, path } = await desk();
    const before = await eventsOf(ws.accountId);
    const withoutToken = (target: string, fields: Record<string, string>, who: SignedIn = agent) =>
      postForm(target, fields, { Cookie: who.cookie });
    const posts: Array<[string, Record<string, string>]> = [
      [`${path}/edit`, editFields({ subject: "No token" })],
      [`${path}/reply`, { body_text: "Hi" }],
      [`${path}/note`, { body_text: "Hi" }],
      [`${path}/delete`, {}],
      ["/dashboard/tickets", { inbox_id: ticket.id, customer_email: "a@example.com", subject: "x" }],
    ];
    for (const [target, fields] of posts) {
      const res = await withoutToken(target, fields);
      expect(res.status, target).toBe(403);
      expect(await res.text()).toContain("Reload the page");
    }
    expect(await getTicket(ws.token, ticket.id)).toMatchObject({ subject: "Help", message_count: 0 });
    expect(await eventsOf(ws.accountId)).toEqual(before);
  });
});
