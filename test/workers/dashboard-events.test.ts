import { describe, expect, it } from "vitest";
import { hashToken } from "../../src/auth/token";
import { dashboardGet, type SignedIn, signIn } from "./dashboard-helpers";
import { call, eventually, seedInbox, seedWorkspace } from "./helpers";
import { endpoint, inboxWithWebhooks, openTicket, streamOf } from "./webhook-helpers";

const page = async (path: string, who: SignedIn) => {
  const res = await dashboardGet(path, who);
  return { status: res.status, html: await res.text() };
};

/** The event ids an events page lists, in order. */
const listedEvents = (html: string) =>
  [...html.matchAll(/href="\/dashboard\/events\/(evt_[0-9A-Z]+)"/g)].map((m) => m[1]);

const SECRET = "whsec_dashboard_events_test_secret_0123456789";

/** A workspace whose inbox has a webhook that answers 200 and one that answers 500, and a ticket in it. */
async function ticketWithDeliveries(subject = "Printer on fire") {
  const ok = endpoint("ok");
  const fail = endpoint("fail");
  const { ws, inbox } = await inboxWithWebhooks([
    { url: ok.url, events: ["ticket.created", "ticket.updated"], secret: SECRET },
    { url: fail.url, events: ["ticket.created"] },
  ]);
  const ticket = await openTicket(ws.token, inbox.id, subject);
  // Each delivery is attempted once, after the response: wait until both are over.
  const [created] = await eventually(async () => {
    const stream = await streamOf(ws);
    const done = stream[0]?.deliveries.every((d) => d.status === "succeeded" || d.status === "failed");
    return done && stream[0]?.deliveries.length === 2 ? stream : null;
  });
  if (!created) throw new Error("no event");
  return { ws, inbox, ticket, ok, fail, event: created };
}

describe("the events pages", { timeout: 30_000 }, () => {
  it("list the event an API action just caused, with its deliveries, to an agent", async () => {
    const { ws, event } = await ticketWithDeliveries();
    const agent = await signIn(ws.accountId, "agent");
    const { status, html } = await page("/dashboard/events", agent);
    expect(status).toBe(200);
    expect(html).toContain('aria-current="page">Events</a>');
    expect(listedEvents(html)).toEqual([event.id]);
    expect(html).toContain("<code>ticket.created</code>");
    expect(html).toContain("<td>Support</td>");
    expect(html).toContain('<span class="badge good">1 succeeded</span>');
    expect(html).toContain('<span class="badge bad">1 failed</span>');
    // The filters: the spec's event names, the workspace's inboxes.
    expect(html).toContain('<option value="inbox.deleted">inbox.deleted</option>');
  });

  it("show an event's payload and each delivery's status code, duration and error", async () => {
    const { ws, ticket, ok, fail, event } = await ticketWithDeliveries("Printer <script>alert(1)</script>");
    const agent = await signIn(ws.accountId, "agent");
    const { status, html } = await page(`/dashboard/events/${event.id}`, agent);
    expect(status).toBe(200);
    expect(html).toContain("<h1>Event ticket.created</h1>");
    const [okRow, failRow] = [ok, fail].map((hook) => {
      const start = html.indexOf(`<code>${hook.url}</code>`);
      expect(start, hook.url).toBeGreaterThan(0);
      return html.slice(start, html.indexOf("</tr>", start));
    });
    expect(okRow).toContain('<span class="badge good">succeeded</span>');
    expect(okRow).toContain('<span class="badge good">200</span>');
    expect(okRow).toMatch(/\d+ ms/);
    expect(okRow).toContain('<span class="muted">none</span>');
    expect(failRow).toContain('<span class="badge bad">failed</span>');
    expect(failRow).toContain('<span class="badge bad">500</span>');
    const failure = event.deliveries.find((d) => d.url === fail.url);
    expect(failure?.error).toBeTruthy();
    expect(failRow).toContain(failure?.error ?? "");
    expect(okRow).toContain("<time datetime=");
    // The envelope, pretty and escaped.
    expect(html).toContain(`&quot;id&quot;: &quot;${event.id}&quot;`);
    expect(html).toContain(`&quot;id&quot;: &quot;${ticket.id}&quot;`);
    expect(html).toContain("&quot;subject&quot;: &quot;Printer &lt;script&gt;alert(1)&lt;/script&gt;&quot;");
    expect(html).not.toContain("<script>alert");
    // No webhook secret, no API token.
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain(ws.token);
    expect(html).not.toContain(await hashToken(ws.token));
  });

  it("narrow by event name and inbox, and paginate keeping the filters", async () => {
    const { ws, inbox, ticket, event: created } = await ticketWithDeliveries();
    const other = await seedInbox(ws.accountId);
    await openTicket(ws.token, other.id, "Elsewhere");
    await call("PATCH", `/v1/tickets/${ticket.id}`, { token: ws.token, body: { priority: "urgent" } });
    const stream = await streamOf(ws);
    expect(stream.map((e) => e.event)).toEqual(["ticket.updated", "ticket.created", "ticket.created"]);
    const [updated, elsewhere] = stream;
    const agent = await signIn(ws.accountId, "agent");
    const listed = async (query: string) =>
      listedEvents((await page(`/dashboard/events?${query}`, agent)).html);

    expect(await listed("")).toEqual([updated?.id, elsewhere?.id, created.id]);
    expect(await listed("event=ticket.created")).toEqual([elsewhere?.id, created.id]);
    expect(await listed(`inbox_id=${inbox.id}`)).toEqual([updated?.id, created.id]);
    expect(await listed(`event=ticket.created&inbox_id=${inbox.id}`)).toEqual([created.id]);
    expect(await listed("event=inbox.deleted")).toEqual([]);
    expect(await listed("event=&inbox_id=")).toHaveLength(3);
    const filtered = (await page(`/dashboard/events?inbox_id=${inbox.id}`, agent)).html;
    expect(filtered).toContain(`<option value="${inbox.id}" selected="">`);
    expect(filtered).toContain(`<option value="${other.id}">`);
    expect((await page("/dashboard/events?event=ticket.exploded", agent)).status).toBe(400);
    // An inbox that is not among the choices (deleted, say) stays selected when a link filters by it.
    const gone = (await page("/dashboard/events?inbox_id=inb_gone", agent)).html;
    expect(gone).toContain('<option value="inb_gone" selected="">inb_gone</option>');
    expect(listedEvents(gone)).toEqual([]);

    const first = (await page("/dashboard/events?event=ticket.created&limit=1", agent)).html;
    expect(listedEvents(first)).toEqual([elsewhere?.id]);
    expect(first).toContain("1–1 of 2");
    expect(first).toContain(
      'href="/dashboard/events?event=ticket.created&amp;limit=1&amp;offset=1">Next</a>',
    );
    const second = (await page("/dashboard/events?event=ticket.created&limit=1&offset=1", agent)).html;
    expect(listedEvents(second)).toEqual([created.id]);
  });

  it("open from the Overview's links; another workspace's event is a 404", async () => {
    const { ws, event } = await ticketWithDeliveries();
    const owner = await signIn(ws.accountId, "owner");
    const overview = (await page("/dashboard", owner)).html;
    expect(listedEvents(overview)).toEqual([event.id]);
    expect((await page(`/dashboard/events/${event.id}`, owner)).status).toBe(200);

    const stranger = await seedWorkspace();
    const outsider = await signIn(stranger.accountId, "admin");
    const foreign = await page(`/dashboard/events/${event.id}`, outsider);
    expect(foreign.status).toBe(404);
    expect(foreign.html).toContain("<h1>Not found</h1>");
    expect(listedEvents((await page("/dashboard/events", outsider)).html)).toEqual([]);
    expect((await page("/dashboard/events/evt_nothing", owner)).status).toBe(404);
  });

  it("send a person without a session to sign in", async () => {
    for (const path of ["/dashboard/events", "/dashboard/request-logs", "/dashboard/smtp-logs/smtp_x"]) {
      const res = await call("GET", path);
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe("/login");
    }
  });
});
