import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, seedInbox, ticketWorkspace } from "./helpers";

type Message = { body_text: string | null; body_html: string | null; author: { type: string } };

async function deskWithReply(body: string, extra: Record<string, unknown> = {}) {
  const { ws, inbox } = await ticketWorkspace("srp-dash");
  const ticket = (
    await callJson<{ id: string }>("POST", "/v1/tickets", {
      token: ws.token,
      body: {
        inbox_id: inbox.id,
        customer: { email: "lovelace@example.com", name: "Ada Lovelace" },
        subject: "Refund",
      },
    })
  ).body;
  const reply = (
    await callJson<{ id: string }>("POST", "/v1/saved-replies", {
      token: ws.token,
      body: { name: "Refund sent", body, ...extra },
    })
  ).body;
  const agent = await signIn(ws.accountId, "agent");
  const messages = async () =>
    (await callJson<{ data: Message[] }>("GET", `/v1/tickets/${ticket.id}/messages`, { token: ws.token }))
      .body.data;
  return { ws, inbox, ticket, reply, agent, messages };
}

describe("dashboard: the saved reply picker in the ticket's message box", () => {
  it("lists the inbox's replies in a list and inserts the chosen one rendered, with its preview", async () => {
    const d = await deskWithReply("Hi **{{ customer.first_name }}**, {{ user.name }} here.", {
      actions: { add_tags: ["refund"] },
    });
    const page = await (await dashboardGet(`/dashboard/tickets/${d.ticket.id}`, d.agent)).text();
    // A native list (a select with a size), which the keyboard and the form use without script.
    expect(page).toContain(
      '<select id="saved-reply-list" name="saved_reply" size="2" required="" data-enter-submits="true">',
    );
    expect(page).toContain(`<option value="${d.reply.id}">Refund sent</option>`);
    // The filter box is labelled, tied to the list, and hidden until app.js makes it work.
    expect(page).toMatch(
      /<label hidden="">Find a saved reply<input type="search"[^>]* aria-controls="saved-reply-list" data-filters="saved-reply-list"\/>/,
    );
    expect(page).toContain('<small class="muted" aria-live="polite" data-filter-count="saved-reply-list">');
    expect(page).not.toMatch(/<textarea[^>]*autofocus/);
    const res = await dashboardGet(`/dashboard/tickets/${d.ticket.id}?saved_reply=${d.reply.id}`, d.agent);
    expect(res.status).toBe(200);
    const inserted = await res.text();
    expect(inserted).toContain(`<option value="${d.reply.id}" selected="">Refund sent</option>`);
    // The keyboard goes on from the inserted text.
    expect(inserted).toMatch(/<textarea[^>]*autofocus=""[^>]*>Hi \*\*Ada\*\*, Test Person here.<\/textarea>/);
    expect(inserted).toContain(`<input type="hidden" name="saved_reply_id" value="${d.reply.id}"`);
    expect(inserted).toContain("<p>Hi <strong>Ada</strong>, Test Person here.</p>");
    expect(inserted).toContain("Also sets: tags refund.");
  });

  it("sends the inserted reply rendered (HTML included) and applies its actions; an edited one as written", async () => {
    const d = await deskWithReply("Hi **{{ customer.first_name }}**.", { actions: { add_tags: ["refund"] } });
    const sent = await dashboardPost(`/dashboard/tickets/${d.ticket.id}/reply`, d.agent, {
      body_text: "Hi **Ada**.\r\n",
      saved_reply_id: d.reply.id,
    });
    expect(sent.status).toBe(303);
    const edited = await dashboardPost(`/dashboard/tickets/${d.ticket.id}/note`, d.agent, {
      body_text: "Hi Ada, edited.",
      saved_reply_id: d.reply.id,
    });
    expect(edited.status).toBe(303);
    const [first, second] = await d.messages();
    expect(first).toMatchObject({ body_text: "Hi **Ada**.", body_html: "<p>Hi <strong>Ada</strong>.</p>" });
    expect(first?.author.type).toBe("user");
    expect(second).toMatchObject({ body_text: "Hi Ada, edited.", body_html: null });
    const ticket = await callJson<{ tags: string[] }>("GET", `/v1/tickets/${d.ticket.id}`, {
      token: d.ws.token,
    });
    expect(ticket.body.tags).toEqual(["refund"]);
  });

  it("says why a reply cannot be used on this ticket and inserts nothing", async () => {
    const d = await deskWithReply("Hi");
    const elsewhere = await seedInbox(d.ws.accountId);
    const scoped = (
      await callJson<{ id: string }>("POST", "/v1/saved-replies", {
        token: d.ws.token,
        body: { name: "Elsewhere", body: "Hi", inbox_id: elsewhere.id },
      })
    ).body;
    const page = await (await dashboardGet(`/dashboard/tickets/${d.ticket.id}`, d.agent)).text();
    expect(page).not.toContain("Elsewhere");
    const res = await dashboardGet(`/dashboard/tickets/${d.ticket.id}?saved_reply=${scoped.id}`, d.agent);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain(`belongs to inbox ${elsewhere.id}`);
    expect(text).not.toContain('name="saved_reply_id"');
  });
});
