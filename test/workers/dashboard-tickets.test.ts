import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, eventsOf, seedInbox, seedWorkspace, ticketWorkspace } from "./helpers";

type Ticket = { id: string; client_id: string; subject: string; customer_id: string };

async function newTicket(token: string, body: Record<string, unknown>) {
  const res = await callJson<Ticket>("POST", "/v1/tickets", { token, body });
  expect(res.status).toBe(201);
  return res.body;
}

const page = async (path: string, who: Awaited<ReturnType<typeof signIn>>) => {
  const res = await dashboardGet(path, who);
  return { status: res.status, html: await res.text() };
};

/** The client ids listed on a tickets page, in order. */
const listedIds = (html: string) =>
  [...html.matchAll(/<td class="ticket-id"><a [^>]*>([^<]+)<\/a>/g)].map((m) => m[1]);

describe("the tickets list", () => {
  it("lists the workspace's tickets newest first with their facts, and links to each", async () => {
    const { ws, inbox, ticket } = await ticketWorkspace("list");
    const agent = await signIn(ws.accountId, "agent");
    const urgent = await newTicket(ws.token, {
      inbox_id: inbox.id,
      customer: { email: "grace@example.com", name: "Grace Hopper" },
      subject: "Invoice <script>alert(1)</script> missing",
      priority: "urgent",
      status: "pending",
      assignee_id: agent.user.id,
      tags: ["billing"],
    });
    const { status, html } = await page("/dashboard/tickets", agent);
    expect(status).toBe(200);
    expect(html).toContain("<h1>Tickets</h1>");
    expect(html).toContain('aria-current="page">Tickets</a>');
    const row = html.slice(
      html.indexOf(urgent.client_id),
      html.indexOf("</tr>", html.indexOf(urgent.client_id)),
    );
    expect(row).toMatch(/^[A-Z]+-\d{5}/);
    expect(row).toContain("Invoice &lt;script&gt;alert(1)&lt;/script&gt; missing");
    expect(row).toContain("Grace Hopper");
    expect(row).toContain("grace@example.com");
    expect(row).toContain(">Pending</span>");
    expect(row).toContain(">Urgent</span>");
    expect(row).toContain("Test Person");
    expect(row).toContain(">billing</span>");
    expect(row).toContain("<time datetime=");
    expect(html).toContain(`href="/dashboard/tickets/${urgent.id}"`);
    expect(html).not.toContain("<script>alert(1)");
    expect(listedIds(html)).toEqual([urgent.client_id, expect.stringMatching(/-00001$/)]);
    expect(html).toContain(`href="/dashboard/tickets/${ticket.id}"`);
    expect(html).toContain('href="/dashboard/tickets/new"');
    // Another workspace's tickets are not listed.
    const other = await ticketWorkspace("elsewhere");
    expect((await page("/dashboard/tickets", await signIn(other.ws.accountId))).html).not.toContain(
      urgent.id,
    );
  });

  it("filters as GET /v1/tickets does, each filter alone, and an empty value means any", async () => {
    const { ws, inbox } = await ticketWorkspace("filters");
    const owner = await signIn(ws.accountId, "owner");
    const second = await seedInbox(ws.accountId);
    const make = (subject: string, extra: Record<string, unknown> = {}) =>
      newTicket(ws.token, {
        inbox_id: inbox.id,
        customer: { email: "lin@example.com" },
        subject,
        ...extra,
      });
    const closed = await make("Closed one", { status: "closed" });
    const high = await make("High one", { priority: "high" });
    const other = await newTicket(ws.token, {
      inbox_id: second.id,
      customer: { email: "other@example.com" },
      subject: "Second inbox",
    });
    const mine = await make("Mine", { assignee_id: owner.user.id });
    const tagged = await make("Tagged", { tags: ["Refund"] });
    const words = await make("Printer jammed again");

    const ids = async (query: string) => listedIds((await page(`/dashboard/tickets?${query}`, owner)).html);
    const apiIds = async (query: string) =>
      (await callJson<{ data: Ticket[] }>("GET", `/v1/tickets?${query}`, { token: ws.token })).body.data.map(
        (t) => t.client_id,
      );
    const cases: Array<[string, string, Ticket]> = [
      ["status=closed", "status=closed", closed],
      ["priority=high", "priority=high", high],
      [`inbox_id=${second.id}`, `inbox_id=${second.id}`, other],
      [`assignee_id=${owner.user.id}`, `assignee_id=${owner.user.id}`, mine],
      ["tag=refund", "tag=refund", tagged],
      ["q=jammed", "q=jammed", words],
      [`customer_id=${other.customer_id}`, `customer_id=${other.customer_id}`, other],
    ];
    for (const [dashboard, api, expected] of cases) {
      expect(await ids(dashboard), dashboard).toEqual([expected.client_id]);
      expect(await ids(dashboard)).toEqual(await apiIds(api));
    }
    // Filters combine; the form's empty "Any" values filter nothing.
    expect(await ids("status=open&priority=high")).toEqual([high.client_id]);
    expect(await ids("status=&priority=&inbox_id=&assignee_id=&tag=&q=")).toEqual(await apiIds(""));
    expect(await ids("status=&priority=&inbox_id=&assignee_id=&tag=&q=")).toHaveLength(7);
    // The form shows the filters in force, and names the customer filtered on.
    const filtered = await page(
      `/dashboard/tickets?status=closed&q=one&customer_id=${other.customer_id}`,
      owner,
    );
    expect(filtered.html).toMatch(/<option value="closed" selected="">Closed<\/option>/);
    expect(filtered.html).toContain('name="q" value="one"');
    expect(filtered.html).toContain("Customer: other@example.com");
    expect(filtered.html).toContain("No tickets match these filters.");
    // Values the API would refuse are a 400 page.
    expect((await page("/dashboard/tickets?status=nope", owner)).status).toBe(400);
  });

  it("pages through the list keeping the filters, with a plain form that htmx may enhance", async () => {
    const { ws, inbox } = await ticketWorkspace("pages");
    const owner = await signIn(ws.accountId);
    for (const n of [1, 2, 3, 4]) {
      await newTicket(ws.token, {
        inbox_id: inbox.id,
        customer: { email: "p@example.com" },
        subject: `Page ${n}`,
      });
    }
    const first = await page("/dashboard/tickets?q=Page&limit=3", owner);
    expect(listedIds(first.html)).toHaveLength(3);
    expect(first.html).toContain("1–3 of 4");
    expect(first.html).toContain('href="/dashboard/tickets?q=Page&amp;limit=3&amp;offset=3">Next</a>');
    const second = await page("/dashboard/tickets?q=Page&limit=3&offset=3", owner);
    expect(listedIds(second.html)).toHaveLength(1);
    expect(second.html).toContain("4–4 of 4");
    expect(second.html).toContain('href="/dashboard/tickets?q=Page&amp;limit=3">Previous</a>');
    expect(new Set([...listedIds(first.html), ...listedIds(second.html)]).size).toBe(4);
    // A GET form to the same page: it works without script; htmx swaps only the results in.
    expect(first.html).toMatch(/<form method="get" action="\/dashboard\/tickets"/);
    expect(first.html).toContain('hx-select="#ticket-results"');
    expect(first.html).toContain('hx-push-url="true"');
    expect(first.html).toContain('<section id="ticket-results"');
  });
});

describe("New ticket", () => {
  it("creates a ticket as POST /v1/tickets does, firing ticket.created, and opens it", async () => {
    const { ws, inbox } = await ticketWorkspace("create");
    const agent = await signIn(ws.accountId, "agent");
    const form = await page("/dashboard/tickets/new", agent);
    expect(form.status).toBe(200);
    expect(form.html).toContain("<h1>New ticket</h1>");
    expect(form.html).toContain(`<option value="${inbox.id}"`);
    for (const name of ["inbox_id", "customer_email", "customer_name", "subject", "body_text", "priority"]) {
      expect(form.html).toContain(`name="${name}"`);
    }
    const before = (await eventsOf(ws.accountId)).length;
    const res = await dashboardPost("/dashboard/tickets", agent, {
      inbox_id: inbox.id,
      customer_email: "  New.Person@Example.com ",
      customer_name: "New Person",
      subject: "Cannot log in",
      body_text: "It says my password expired.",
      priority: "high",
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/dashboard\/tickets\/tkv_[0-9A-Z]+\?done=created$/);
    const id = location.split("/")[3]?.split("?")[0] ?? "";
    const api = (await callJson<Record<string, unknown>>("GET", `/v1/tickets/${id}`, { token: ws.token }))
      .body;
    expect(api).toMatchObject({
      subject: "Cannot log in",
      priority: "high",
      status: "open",
      inbox_id: inbox.id,
      message_count: 1,
      customer: { email: "new.person@example.com", name: "New Person" },
    });
    const events = (await eventsOf(ws.accountId)).slice(before);
    expect(events.map((e) => e.event)).toEqual(["ticket.created"]);
    expect(events[0]?.data.ticket).toMatchObject({ id, subject: "Cannot log in", priority: "high" });
    const messages = await callJson<{ data: Array<Record<string, unknown>> }>(
      "GET",
      `/v1/tickets/${id}/messages`,
      {
        token: ws.token,
      },
    );
    expect(messages.body.data).toEqual([
      expect.objectContaining({ type: "customer", body_text: "It says my password expired." }),
    ]);
    const opened = await page(location, agent);
    expect(opened.html).toContain("Ticket created.");
  });

  it("shows the form again with the API's complaints and the text typed, creating nothing", async () => {
    const { ws, inbox } = await ticketWorkspace("create-bad");
    const owner = await signIn(ws.accountId);
    const before = await eventsOf(ws.accountId);
    const res = await dashboardPost("/dashboard/tickets", owner, {
      inbox_id: inbox.id,
      customer_email: "not-an-address",
      subject: "   ",
      body_text: "Kept <b>text</b>",
      priority: "low",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The ticket was not created");
    expect(html).toContain("<strong>Subject: </strong>");
    expect(html).toContain("Kept &lt;b&gt;text&lt;/b&gt;");
    expect(html).toContain('value="not-an-address"');
    // The address itself is the service's check, answered on the form too.
    const address = await dashboardPost("/dashboard/tickets", owner, {
      inbox_id: inbox.id,
      customer_email: "not-an-address",
      subject: "Fine",
    });
    expect(address.status).toBe(400);
    expect(await address.text()).toContain("is not an email address");
    expect(await eventsOf(ws.accountId)).toEqual(before);
    // Another workspace's inbox is not found.
    const other = await seedWorkspace();
    const stranger = await signIn(other.accountId);
    const res404 = await dashboardPost("/dashboard/tickets", stranger, {
      inbox_id: inbox.id,
      customer_email: "x@example.com",
      subject: "Sneaky",
    });
    expect(res404.status).toBe(404);
    expect(await eventsOf(ws.accountId)).toEqual(before);
  });
});

describe("the ticket page", () => {
  it("shows the facts and the messages oldest first, drafts and notes marked, HTML only as text", async () => {
    const { ws, inbox, domain } = await ticketWorkspace("page");
    const agent = await signIn(ws.accountId, "agent");
    const ticket = await newTicket(ws.token, {
      inbox_id: inbox.id,
      customer: { email: "mallory@example.com", name: "Mallory <img src=x>" },
      subject: "Order <script>alert('s')</script> late",
      message: {
        body_html: "<p>Hello <b>there</b></p><script>alert('m')</script><p>Order &amp; invoice</p>",
      },
      priority: "high",
      assignee_id: agent.user.id,
      tags: ["shipping", "vip"],
    });
    const post = (body: Record<string, unknown>) =>
      callJson("POST", `/v1/tickets/${ticket.id}/messages`, { token: ws.token, body });
    await post({ type: "note", body_text: "Checked the warehouse <script>n</script>" });
    await post({ type: "reply", body_text: "Draft answer", draft: true });

    const { status, html } = await page(`/dashboard/tickets/${ticket.id}`, agent);
    expect(status).toBe(200);
    expect(html).toContain("<h1>Order &lt;script&gt;alert(&#39;s&#39;)&lt;/script&gt; late</h1>");
    expect(html).not.toMatch(/<script>alert|<b>there|<img src=x>/);
    expect(html).toContain(ticket.client_id);
    // The facts.
    const facts = html.slice(html.indexOf('<dl class="facts">'), html.indexOf("</dl>"));
    expect(facts).toContain(">High</span>");
    expect(facts).toContain(">Open</span>");
    expect(facts).toContain(`support@${domain}`);
    expect(facts).toContain("Mallory &lt;img src=x&gt;");
    expect(facts).toContain("mallory@example.com");
    expect(facts).toContain("Test Person");
    expect(facts).toContain(">shipping</span>");
    expect(facts.match(/<time datetime=/g)).toHaveLength(2);
    // The thread, oldest first: the customer's HTML as text, then the note, then the draft, each marked.
    const thread = html.slice(html.indexOf('<div class="thread">'));
    const at = (text: string) => thread.indexOf(text);
    expect(at("Hello there")).toBeGreaterThan(0);
    expect(thread).toContain("Order &amp; invoice");
    expect(at("Checked the warehouse &lt;script&gt;n&lt;/script&gt;")).toBeGreaterThan(at("Hello there"));
    expect(at("Draft answer")).toBeGreaterThan(at("Checked the warehouse"));
    const noteArticle = thread.slice(
      thread.lastIndexOf("<article", at("Checked the warehouse")),
      at("Checked the warehouse"),
    );
    expect(noteArticle).toContain("message-note");
    expect(noteArticle).toContain(">Internal note</span>");
    const draftArticle = thread.slice(thread.lastIndexOf("<article", at("Draft answer")), at("Draft answer"));
    expect(draftArticle).toContain("message-draft");
    expect(draftArticle).toContain(">Draft</span>");
    expect(draftArticle).not.toContain("Internal note");
    // The forms: Save (with the current values), Send reply, Add note, Delete.
    expect(html).toContain(`action="/dashboard/tickets/${ticket.id}/edit"`);
    expect(html).toMatch(new RegExp(`<option value="${agent.user.id}" selected="">Test Person</option>`));
    expect(html).toContain('<option value="">Unassigned</option>');
    expect(html).toContain('name="tags" value="shipping, vip"');
    for (const button of ["Save", "Send reply", "Add note", "Delete"])
      expect(html).toContain(`>${button}</button>`);
    expect(html).toContain(`formaction="/dashboard/tickets/${ticket.id}/note"`);
    expect(html).not.toContain(" style=");
  });

  it("pages through a long thread", async () => {
    const { ws, ticket } = await ticketWorkspace("thread");
    const owner = await signIn(ws.accountId);
    for (const n of [1, 2, 3]) {
      await callJson("POST", `/v1/tickets/${ticket.id}/messages`, {
        token: ws.token,
        body: { type: "note", body_text: `Note number ${n}` },
      });
    }
    const first = await page(`/dashboard/tickets/${ticket.id}?limit=2`, owner);
    expect(first.html).toContain("Note number 1");
    expect(first.html).toContain("Note number 2");
    expect(first.html).not.toContain("Note number 3");
    expect(first.html).toContain(`href="/dashboard/tickets/${ticket.id}?limit=2&amp;offset=2">Next</a>`);
    const second = await page(`/dashboard/tickets/${ticket.id}?limit=2&offset=2`, owner);
    expect(second.html).toContain("Note number 3");
    expect(second.html).not.toContain("Note number 1");
  });

  it("is a 404 page for another workspace's ticket or an unknown id", async () => {
    const { ticket } = await ticketWorkspace("tenancy");
    const stranger = await signIn((await seedWorkspace()).accountId, "agent");
    for (const id of [ticket.id, "tkv_unknown"]) {
      const res = await page(`/dashboard/tickets/${id}`, stranger);
      expect(res.status).toBe(404);
      expect(res.html).toContain("<h1>Not found</h1>");
      expect(res.html).not.toContain("Help");
    }
  });
});
