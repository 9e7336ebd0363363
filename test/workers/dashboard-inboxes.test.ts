import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, type SignedIn, signIn } from "./dashboard-helpers";
import { call, callJson, eventsOf, seedWorkspace, verifiedDomain } from "./helpers";
import { postForm, uniqueIp } from "./people-helpers";
import { awaitDeliveries, endpoint, envelopesAt } from "./webhook-helpers";

type Webhook = { url: string; events: string[]; enabled: boolean; secret: string };
type Inbox = { id: string; name: string; email_address: string; webhooks: Webhook[] };

/** A workspace with a verified domain, its owner, admin and agent signed in, and one inbox made through the API. */
async function inboxDesk(webhooks: Array<Partial<Webhook>> = []) {
  const ws = await seedWorkspace();
  const domain = `inboxes-${crypto.randomUUID().slice(0, 8)}.test`;
  await verifiedDomain(ws.accountId, domain);
  const [owner, admin, agent] = await Promise.all([
    signIn(ws.accountId, "owner"),
    signIn(ws.accountId, "admin"),
    signIn(ws.accountId, "agent"),
  ]);
  const inbox = await apiInbox(ws.token, { name: "Support", email_address: `support@${domain}`, webhooks });
  return { ws, domain, owner, admin, agent, inbox };
}

async function apiInbox(token: string, body: Record<string, unknown>) {
  const res = await callJson<Inbox>("POST", "/v1/inboxes", { token, body });
  if (res.status !== 201) throw new Error(`inbox not created: ${JSON.stringify(res.body)}`);
  return res.body;
}

const inboxNow = async (token: string, id: string) =>
  (await callJson<Inbox>("GET", `/v1/inboxes/${id}`, { token })).body;

/** A form post with repeated fields (a group of checkboxes), as the browser sends it. */
function postFields(path: string, who: SignedIn, fields: Array<[string, string]>) {
  return call("POST", path, {
    rawBody: new URLSearchParams([["_csrf", who.csrf], ...fields]).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
      "CF-Connecting-IP": uniqueIp(),
      Cookie: who.cookie,
    },
  });
}

const eventFields = (names: string[]): Array<[string, string]> => names.map((name) => ["events", name]);

describe("the Inboxes list", () => {
  it("lists the workspace's inboxes with address and webhooks, escaped, paginated, never another workspace's", async () => {
    const { ws, domain, owner, agent, inbox } = await inboxDesk([
      { url: "https://hooks.example.com/a", events: ["ticket.created"] },
      { url: "https://hooks.example.com/b", events: ["ticket.created"], enabled: false },
    ]);
    await apiInbox(ws.token, { name: "<script>alert(1)</script>", email_address: `x@${domain}` });
    await apiInbox(ws.token, {
      name: "Billing",
      email_address: `billing@${domain}`,
      status_after_reply: "closed",
    });
    const elsewhere = await inboxDesk();

    const res = await dashboardGet("/dashboard/inboxes", owner);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>Inboxes</h1>");
    expect(html).toContain(`href="/dashboard/inboxes/${inbox.id}">Support</a>`);
    expect(html).toContain(`support@${domain}`);
    expect(html).toContain('2 <span class="muted">(1 enabled)</span>');
    expect(html).toContain("<td>Closed</td>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain(elsewhere.inbox.id);
    expect(html).toContain('href="/dashboard/inboxes/new"');
    // No secret on the list.
    expect(html).not.toContain("whsec_");

    // Newest first, two a page.
    const first = await (await dashboardGet("/dashboard/inboxes?limit=2", owner)).text();
    expect(first).toContain("1–2 of 3");
    expect(first).toContain('href="/dashboard/inboxes?limit=2&amp;offset=2"');
    expect(first).not.toContain(`/dashboard/inboxes/${inbox.id}"`);
    const second = await (await dashboardGet("/dashboard/inboxes?limit=2&offset=2", owner)).text();
    expect(second).toContain("3–3 of 3");
    expect(second).toContain(`/dashboard/inboxes/${inbox.id}"`);

    // An agent sees the list, without the New inbox link.
    const asAgent = await (await dashboardGet("/dashboard/inboxes", agent)).text();
    expect(asAgent).toContain(`/dashboard/inboxes/${inbox.id}"`);
    expect(asAgent).not.toContain("/dashboard/inboxes/new");
  });
});

describe("a new inbox", () => {
  it("is created from the form through the API's path: no event, then its page", async () => {
    const { ws, domain, admin, agent } = await inboxDesk();
    expect((await dashboardGet("/dashboard/inboxes/new", admin)).status).toBe(200);
    const form = await (await dashboardGet("/dashboard/inboxes/new", admin)).text();
    expect(form).toContain(domain);
    const agentForm = await dashboardGet("/dashboard/inboxes/new", agent);
    expect(agentForm.status).toBe(403);
    expect(agentForm.headers.get("Content-Type")).toContain("text/html");

    const res = await dashboardPost("/dashboard/inboxes", admin, {
      name: "Sales",
      email_address: `Sales@${domain}`,
      status_after_reply: "open",
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/dashboard\/inboxes\/inb_[0-9A-Z]{26}\?done=created$/);
    const id = location.split("/")[3]?.split("?")[0] ?? "";
    expect(await inboxNow(ws.token, id)).toMatchObject({
      name: "Sales",
      email_address: `sales@${domain}`,
      status_after_reply: "open",
      webhooks: [],
    });
    const page = await (await dashboardGet(location, admin)).text();
    expect(page).toContain("Inbox created.");
    // There is no inbox.created.
    expect(await eventsOf(ws.accountId)).toEqual([]);
  });

  it("re-renders the form with the API's reason: unverified domain (400), address taken (409), invalid (400)", async () => {
    const { ws, domain, admin, agent } = await inboxDesk();
    const unverified = await dashboardPost("/dashboard/inboxes", admin, {
      name: "Elsewhere <b>",
      email_address: "help@not-verified.test",
      status_after_reply: "pending",
    });
    expect(unverified.status).toBe(400);
    const html = await unverified.text();
    expect(html).toContain("not-verified.test is not a verified domain of this workspace");
    // The values typed are kept, escaped.
    expect(html).toContain('value="Elsewhere &lt;b&gt;"');
    expect(html).toContain('value="help@not-verified.test"');

    const taken = await dashboardPost("/dashboard/inboxes", admin, {
      name: "Again",
      email_address: `support@${domain}`,
      status_after_reply: "pending",
    });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("is already the address of an inbox");

    const invalid = await dashboardPost("/dashboard/inboxes", admin, {
      name: "",
      email_address: "nope",
      status_after_reply: "whenever",
    });
    expect(invalid.status).toBe(400);
    const problems = await invalid.text();
    for (const path of ["body.name", "body.email_address", "body.status_after_reply"]) {
      expect(problems).toContain(`<code>${path}</code>`);
    }

    const refused = await dashboardPost("/dashboard/inboxes", agent, {
      name: "Agent's",
      email_address: `agent@${domain}`,
      status_after_reply: "pending",
    });
    expect(refused.status).toBe(403);
    const list = await callJson<{ data: Inbox[] }>("GET", "/v1/inboxes", { token: ws.token });
    expect(list.body.data.map((i) => i.name)).toEqual(["Support"]);
  });
});

describe("an inbox's page", () => {
  it("shows settings and webhooks, never a secret; an agent reads it without any form", async () => {
    const { admin, agent, inbox } = await inboxDesk([
      { url: "https://hooks.example.com/support", events: ["ticket.created", "inbox.updated"] },
    ]);
    const secret = inbox.webhooks[0]?.secret ?? "";
    expect(secret).toMatch(/^whsec_/);
    const html = await (await dashboardGet(`/dashboard/inboxes/${inbox.id}`, admin)).text();
    expect(html).toContain("<h1>Support</h1>");
    expect(html).toContain("https://hooks.example.com/support");
    expect(html).toContain("<code>inbox.updated</code>");
    expect(html).toContain(">Enabled</span>");
    expect(html).toContain(`action="/dashboard/inboxes/${inbox.id}"`);
    expect(html).toContain(">Show secret</button>");
    expect(html).toContain(">Add webhook</button>");
    expect(html).toContain('data-confirm="Delete the inbox Support and all its tickets?"');
    expect(html).not.toContain(secret);
    expect(html).not.toContain("whsec_");
    expect(html).not.toContain(" style=");

    const read = await (await dashboardGet(`/dashboard/inboxes/${inbox.id}`, agent)).text();
    expect(read).toContain("https://hooks.example.com/support");
    expect(read).toContain("<dt>Email address</dt>");
    expect(read).not.toContain("whsec_");
    // Besides the top bar's ticket search (a GET form): only Sign out.
    expect(read.match(/<form(?! method="get" action="\/dashboard\/tickets")/g)).toHaveLength(1);
    expect(read).not.toContain("Show secret");
  });

  it("answers 404 for another workspace's inbox, on the page and on every action", async () => {
    const { admin } = await inboxDesk();
    const other = await inboxDesk([{ url: "https://hooks.example.com/x", events: ["ticket.created"] }]);
    const id = other.inbox.id;
    expect((await dashboardGet(`/dashboard/inboxes/${id}`, admin)).status).toBe(404);
    const which = { current_url: "https://hooks.example.com/x" };
    const posts: Array<[string, Record<string, string>]> = [
      [
        `/dashboard/inboxes/${id}`,
        { name: "Taken over", email_address: other.inbox.email_address, status_after_reply: "open" },
      ],
      [`/dashboard/inboxes/${id}/delete`, {}],
      [`/dashboard/inboxes/${id}/webhooks`, { url: "https://hooks.example.com/y", events: "ticket.created" }],
      [`/dashboard/inboxes/${id}/webhooks/0/disable`, which],
      [`/dashboard/inboxes/${id}/webhooks/0/delete`, which],
      [`/dashboard/inboxes/${id}/webhooks/0/secret`, which],
    ];
    for (const [path, fields] of posts) {
      const res = await dashboardPost(path, admin, fields);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("whsec_");
    }
    expect(await inboxNow(other.ws.token, id)).toMatchObject({
      name: "Support",
      webhooks: [{ enabled: true }],
    });
    expect(await eventsOf(other.ws.accountId)).toEqual([]);
  });

  it("saves the settings as PATCH does, firing inbox.updated with the new state", async () => {
    const { ws, domain, owner, inbox } = await inboxDesk();
    await verifiedDomain(ws.accountId, `moved-${domain}`);
    const res = await dashboardPost(`/dashboard/inboxes/${inbox.id}`, owner, {
      name: "Billing <script>x</script>",
      email_address: `billing@moved-${domain}`,
      status_after_reply: "resolved",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe(`/dashboard/inboxes/${inbox.id}?done=saved`);
    const after = await inboxNow(ws.token, inbox.id);
    expect(after).toMatchObject({
      name: "Billing <script>x</script>",
      email_address: `billing@moved-${domain}`,
      status_after_reply: "resolved",
    });
    expect(await eventsOf(ws.accountId)).toEqual([
      {
        event: "inbox.updated",
        inboxId: inbox.id,
        data: {
          inbox: {
            id: inbox.id,
            name: "Billing <script>x</script>",
            email_address: `billing@moved-${domain}`,
          },
        },
      },
    ]);
    const page = await (await dashboardGet(`/dashboard/inboxes/${inbox.id}?done=saved`, owner)).text();
    expect(page).toContain("Settings saved.");
    expect(page).toContain("<h1>Billing &lt;script&gt;x&lt;/script&gt;</h1>");
    expect(page).not.toContain("<script>x</script>");
  });

  it("re-renders the settings with the API's reason and changes nothing when refused", async () => {
    const { ws, owner, inbox } = await inboxDesk();
    const res = await dashboardPost(`/dashboard/inboxes/${inbox.id}`, owner, {
      name: "x".repeat(101),
      email_address: inbox.email_address,
      status_after_reply: "pending",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("<code>body.name</code>");
    expect(html).toContain(`value="${"x".repeat(101)}"`);
    expect((await inboxNow(ws.token, inbox.id)).name).toBe("Support");
    expect(await eventsOf(ws.accountId)).toEqual([]);
  });

  it("refuses an agent every change with a 403 page, and a form without the CSRF token", async () => {
    const { ws, owner, agent, inbox } = await inboxDesk([
      { url: "https://hooks.example.com/keep", events: ["ticket.created"] },
    ]);
    const which = { current_url: "https://hooks.example.com/keep" };
    const posts: Array<[string, Record<string, string>]> = [
      [
        `/dashboard/inboxes/${inbox.id}`,
        { name: "Agent's", email_address: inbox.email_address, status_after_reply: "open" },
      ],
      [`/dashboard/inboxes/${inbox.id}/delete`, {}],
      [
        `/dashboard/inboxes/${inbox.id}/webhooks`,
        { url: "https://hooks.example.com/new", events: "ticket.created" },
      ],
      [
        `/dashboard/inboxes/${inbox.id}/webhooks/0`,
        { ...which, url: "https://hooks.example.com/moved", events: "ticket.created" },
      ],
      [`/dashboard/inboxes/${inbox.id}/webhooks/0/disable`, which],
      [`/dashboard/inboxes/${inbox.id}/webhooks/0/delete`, which],
      [`/dashboard/inboxes/${inbox.id}/webhooks/0/secret`, which],
    ];
    for (const [path, fields] of posts) {
      const res = await dashboardPost(path, agent, fields);
      expect(res.status, path).toBe(403);
      expect(res.headers.get("Content-Type")).toContain("text/html");
      expect(await res.text()).not.toContain("whsec_");
      // Without the session's token even an owner is refused.
      const forged = await postForm(path, fields, { Cookie: owner.cookie });
      expect(forged.status, path).toBe(403);
    }
    expect(await inboxNow(ws.token, inbox.id)).toEqual(inbox);
    expect(await eventsOf(ws.accountId)).toEqual([]);
  });

  it("deletes the inbox after a confirmation, firing inbox.deleted, then lists the rest", async () => {
    const { ws, admin, inbox } = await inboxDesk();
    const res = await dashboardPost(`/dashboard/inboxes/${inbox.id}/delete`, admin);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/dashboard/inboxes?done=deleted");
    expect((await call("GET", `/v1/inboxes/${inbox.id}`, { token: ws.token })).status).toBe(404);
    expect(await eventsOf(ws.accountId)).toEqual([
      {
        event: "inbox.deleted",
        inboxId: inbox.id,
        data: { inbox: { id: inbox.id, name: "Support", email_address: inbox.email_address } },
      },
    ]);
    const list = await (await dashboardGet("/dashboard/inboxes?done=deleted", admin)).text();
    expect(list).toContain("Inbox deleted, with its tickets.");
    expect(list).toContain("No inboxes yet.");
    expect((await dashboardPost(`/dashboard/inboxes/${inbox.id}/delete`, admin)).status).toBe(404);
  });
});

describe("an inbox's webhooks", () => {
  it("adds, edits, disables, enables and deletes through PATCH's path: one inbox.updated each, secrets kept", async () => {
    const { ws, admin, inbox } = await inboxDesk([
      { url: "https://hooks.example.com/first", events: ["ticket.created"] },
    ]);
    const [first] = inbox.webhooks;
    const base = `/dashboard/inboxes/${inbox.id}/webhooks`;
    const expectDone = (res: Response, done: string) => {
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe(`/dashboard/inboxes/${inbox.id}?done=${done}`);
    };

    expectDone(
      await postFields(base, admin, [
        ["url", "https://hooks.example.com/second"],
        ...eventFields(["inbox.updated", "inbox.deleted"]),
      ]),
      "webhook_added",
    );
    let now = await inboxNow(ws.token, inbox.id);
    expect(now.webhooks).toEqual([
      first,
      {
        url: "https://hooks.example.com/second",
        events: ["inbox.updated", "inbox.deleted"],
        enabled: true,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      },
    ]);
    const second = now.webhooks[1] as Webhook;

    // One event only: a single checkbox posts a single field.
    expectDone(
      await postFields(`${base}/1`, admin, [
        ["current_url", second.url],
        ["url", "https://hooks.example.com/moved"],
        ...eventFields(["ticket.updated"]),
      ]),
      "webhook_saved",
    );
    now = await inboxNow(ws.token, inbox.id);
    expect(now.webhooks[1]).toEqual({
      ...second,
      url: "https://hooks.example.com/moved",
      events: ["ticket.updated"],
    });

    expectDone(
      await dashboardPost(`${base}/0/disable`, admin, { current_url: first?.url ?? "" }),
      "webhook_disabled",
    );
    expect((await inboxNow(ws.token, inbox.id)).webhooks[0]).toEqual({ ...first, enabled: false });
    expectDone(
      await dashboardPost(`${base}/0/enable`, admin, { current_url: first?.url ?? "" }),
      "webhook_enabled",
    );
    expect((await inboxNow(ws.token, inbox.id)).webhooks[0]).toEqual(first);

    expectDone(
      await dashboardPost(`${base}/0/delete`, admin, { current_url: first?.url ?? "" }),
      "webhook_deleted",
    );
    now = await inboxNow(ws.token, inbox.id);
    expect(now.webhooks).toEqual([
      { ...second, url: "https://hooks.example.com/moved", events: ["ticket.updated"] },
    ]);

    const events = await eventsOf(ws.accountId);
    expect(events.map((e) => e.event)).toEqual(Array(5).fill("inbox.updated"));
    for (const event of events) {
      expect(event.data).toEqual({
        inbox: { id: inbox.id, name: "Support", email_address: inbox.email_address },
      });
    }
    const page = await (
      await dashboardGet(`/dashboard/inboxes/${inbox.id}?done=webhook_deleted`, admin)
    ).text();
    expect(page).toContain("Webhook deleted.");
    expect(page).not.toContain("whsec_");
  });

  it("delivers the inbox.updated of an added webhook to it, as the spec's 'list as this write leaves it'", async () => {
    const { ws, admin, inbox } = await inboxDesk();
    const hook = endpoint();
    const added = await postFields(`/dashboard/inboxes/${inbox.id}/webhooks`, admin, [
      ["url", hook.url],
      ...eventFields(["inbox.updated"]),
    ]);
    expect(added.status).toBe(303);
    // Disabled by the next edit, it does not hear of that edit.
    await dashboardPost(`/dashboard/inboxes/${inbox.id}/webhooks/0/disable`, admin, {
      current_url: hook.url,
    });
    const received = await awaitDeliveries(hook.path, 1);
    expect(received).toHaveLength(1);
    const [envelope] = await envelopesAt(hook.path);
    expect(envelope).toMatchObject({ event: "inbox.updated", data: { inbox: { id: inbox.id } } });
    expect((await eventsOf(ws.accountId)).map((e) => e.event)).toEqual(["inbox.updated", "inbox.updated"]);
  });

  it("re-renders the page with the API's reason for a refused URL or no events, changing nothing", async () => {
    const { ws, admin, inbox } = await inboxDesk();
    const base = `/dashboard/inboxes/${inbox.id}/webhooks`;
    const privateHost = await postFields(base, admin, [
      ["url", "https://10.0.0.7/hook"],
      ...eventFields(["ticket.created"]),
    ]);
    expect(privateHost.status).toBe(400);
    const html = await privateHost.text();
    expect(html).toContain("<code>body.webhooks.0.url</code>");
    // The values typed are kept for another try.
    expect(html).toContain('value="https://10.0.0.7/hook"');
    expect(html).toMatch(/value="ticket.created" checked/);

    const noEvents = await postFields(base, admin, [["url", "https://hooks.example.com/none"]]);
    expect(noEvents.status).toBe(400);
    expect(await noEvents.text()).toContain("<code>body.webhooks.0.events</code>");
    const unknown = await postFields(base, admin, [
      ["url", "https://hooks.example.com/x"],
      ...eventFields(["ticket.exploded"]),
    ]);
    expect(unknown.status).toBe(400);

    expect((await inboxNow(ws.token, inbox.id)).webhooks).toEqual([]);
    expect(await eventsOf(ws.accountId)).toEqual([]);
  });

  it("refuses (409) an action on a webhook the page no longer shows at that index", async () => {
    const { ws, admin, inbox } = await inboxDesk([
      { url: "https://hooks.example.com/a", events: ["ticket.created"] },
      { url: "https://hooks.example.com/b", events: ["ticket.created"] },
    ]);
    // The page showed /a at 0 and /b at 1; meanwhile an API client removed /a.
    const kept = inbox.webhooks.slice(1);
    await call("PATCH", `/v1/inboxes/${inbox.id}`, { token: ws.token, body: { webhooks: kept } });
    const before = await inboxNow(ws.token, inbox.id);
    const base = `/dashboard/inboxes/${inbox.id}/webhooks`;
    const stale: Array<[string, string]> = [
      [`${base}/0/disable`, "https://hooks.example.com/a"],
      [`${base}/0/delete`, "https://hooks.example.com/a"],
      [`${base}/1/delete`, "https://hooks.example.com/b"],
      [`${base}/1/secret`, "https://hooks.example.com/b"],
    ];
    for (const [path, shown] of stale) {
      const res = await dashboardPost(path, admin, { current_url: shown });
      expect(res.status, path).toBe(409);
      expect(await res.text()).toContain("changed since this page was loaded");
    }
    expect(await inboxNow(ws.token, inbox.id)).toEqual(before);
    expect((await eventsOf(ws.accountId)).map((e) => e.event)).toEqual(["inbox.updated"]);
  });

  it("shows a secret only on request: a page without script, the value alone for htmx", async () => {
    const { ws, admin, inbox } = await inboxDesk([
      { url: "https://hooks.example.com/signed", events: ["ticket.created"] },
    ]);
    const secret = inbox.webhooks[0]?.secret ?? "";
    const path = `/dashboard/inboxes/${inbox.id}/webhooks/0/secret`;
    const page = await dashboardPost(path, admin, { current_url: "https://hooks.example.com/signed" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<h1>Webhook secret</h1>");
    expect(html).toContain(`<code class="secret">${secret}</code>`);
    expect(page.headers.get("Cache-Control")).toBe("no-store");

    const fragment = await call("POST", path, {
      rawBody: new URLSearchParams({ current_url: "https://hooks.example.com/signed" }).toString(),
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "http://localhost",
        Cookie: admin.cookie,
        "X-CSRF-Token": admin.csrf,
        "HX-Request": "true",
      },
    });
    expect(fragment.status).toBe(200);
    expect(await fragment.text()).toBe(`<code class="secret">${secret}</code>`);
    // Showing it changed nothing.
    expect(await inboxNow(ws.token, inbox.id)).toEqual(inbox);
    expect(await eventsOf(ws.accountId)).toEqual([]);
  });
});
