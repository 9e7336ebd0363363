import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, type SignedIn, signIn } from "./dashboard-helpers";
import { createEndpoint, deliveriesOf, type EndpointBody } from "./email-webhooks-helpers";
import { call, callJson, seedWorkspace } from "./helpers";
import { postForm, uniqueIp } from "./people-helpers";
import { awaitDeliveries, endpoint } from "./webhook-helpers";

/** A workspace with its owner, admin and agent signed in. */
async function desk() {
  const ws = await seedWorkspace();
  const [owner, admin, agent] = await Promise.all([
    signIn(ws.accountId, "owner"),
    signIn(ws.accountId, "admin"),
    signIn(ws.accountId, "agent"),
  ]);
  return { ws, owner, admin, agent };
}

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

const endpointNow = async (token: string, id: string) =>
  callJson<EndpointBody>("GET", `/v1/webhooks/${id}`, { token });

describe("the dashboard's Webhooks pages", { timeout: 60_000 }, () => {
  it("lists the workspace's endpoints with events, state and disabled reason, never another workspace's", async () => {
    const { ws, admin, agent } = await desk();
    const on = await createEndpoint(ws.token, {
      url: endpoint().url,
      events: ["email.bounced", "email.opened"],
    });
    const off = await createEndpoint(ws.token, {
      url: endpoint().url,
      events: ["email.sent"],
      enabled: false,
    });
    const { env } = await import("cloudflare:workers");
    await env.DB_2.prepare("UPDATE webhook_endpoints SET disabled_reason = ? WHERE id = ?")
      .bind("every delivery failed <for days>", off.id)
      .run();
    const other = await seedWorkspace();
    const theirs = await createEndpoint(other.token, { url: endpoint().url, events: ["email.sent"] });

    const res = await dashboardGet("/dashboard/webhooks", agent);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('aria-current="page">Webhooks</a>');
    expect(html).toContain(`href="/dashboard/webhooks/${on.id}"`);
    expect(html).toContain(`<code>${on.url}</code>`);
    expect(html).toContain("<code>email.opened</code>");
    expect(html).toContain("every delivery failed &lt;for days&gt;");
    expect(html).toContain(">Disabled<");
    expect(html).not.toContain(theirs.id);
    expect(html).not.toContain("whsec_");
    // Agents read; only admins and owners get the form.
    expect(html).not.toContain('aria-label="Add a webhook"');
    expect(await (await dashboardGet("/dashboard/webhooks", admin)).text()).toContain(
      'aria-label="Add a webhook"',
    );

    const paged = await (await dashboardGet("/dashboard/webhooks?limit=1", agent)).text();
    expect(paged).toContain("1–1 of 2");
    expect(paged).toContain(off.id);
    expect(paged).not.toContain(on.id);
    expect(paged).toContain('href="/dashboard/webhooks?limit=1&amp;offset=1"');
  });

  it("adds an endpoint through the API's rules, and shows a refusal beside the form with the values kept", async () => {
    const { ws, admin } = await desk();
    const hook = endpoint();
    const added = await postFields("/dashboard/webhooks", admin, [
      ["url", hook.url],
      ["events", "email.delivered"],
      ["events", "email.bounced"],
    ]);
    expect(added.status).toBe(303);
    const id = /\/dashboard\/webhooks\/(whk_[0-9A-Z]{26})\?done=created$/.exec(
      added.headers.get("Location") ?? "",
    )?.[1];
    if (!id) throw new Error(`unexpected redirect ${added.headers.get("Location")}`);
    const stored = await endpointNow(ws.token, id);
    expect(stored.body).toMatchObject({
      url: hook.url,
      events: ["email.delivered", "email.bounced"],
      enabled: true,
    });

    const noEvents = await postFields("/dashboard/webhooks", admin, [["url", hook.url]]);
    expect(noEvents.status).toBe(400);
    expect(await noEvents.text()).toContain("<code>body.events</code> name at least one event");

    const privateHost = await postFields("/dashboard/webhooks", admin, [
      ["url", "https://10.0.0.1/hook"],
      ["events", "email.opened"],
    ]);
    expect(privateHost.status).toBe(400);
    const html = await privateHost.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain("<code>body.url</code>");
    expect(html).toContain('value="https://10.0.0.1/hook"');
    expect(html).toContain('value="email.opened" checked=""');
    const list = await callJson<{ pagination: { total: number } }>("GET", "/v1/webhooks", {
      token: ws.token,
    });
    expect(list.body.pagination.total).toBe(1);
  });

  it("edits, disables, enables and deletes an endpoint as the API would", async () => {
    const { ws, owner } = await desk();
    const created = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const page = `/dashboard/webhooks/${created.id}`;
    const moved = endpoint().url;
    const edited = await postFields(page, owner, [
      ["url", moved],
      ["events", "email.clicked"],
    ]);
    expect(edited.status).toBe(303);
    expect(edited.headers.get("Location")).toBe(`${page}?done=saved`);
    expect((await endpointNow(ws.token, created.id)).body).toMatchObject({
      url: moved,
      events: ["email.clicked"],
      secret: created.secret,
    });

    const badEdit = await postFields(page, owner, [["url", moved]]);
    expect(badEdit.status).toBe(400);
    expect(await badEdit.text()).toContain("<code>body.events</code>");

    expect((await dashboardPost(`${page}/disable`, owner)).headers.get("Location")).toBe(
      `${page}?done=disabled`,
    );
    expect((await endpointNow(ws.token, created.id)).body.enabled).toBe(false);
    expect(await (await dashboardGet(page, owner)).text()).toContain(">Enable</button>");
    await dashboardPost(`${page}/enable`, owner);
    expect((await endpointNow(ws.token, created.id)).body.enabled).toBe(true);

    const deleted = await dashboardPost(`${page}/delete`, owner);
    expect(deleted.headers.get("Location")).toBe("/dashboard/webhooks?done=deleted");
    expect((await endpointNow(ws.token, created.id)).status).toBe(404);
  });

  it("shows the secret only to a POST: the whole page without script, the value alone to htmx", async () => {
    const { ws, admin } = await desk();
    const created = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const path = `/dashboard/webhooks/${created.id}/secret`;
    expect(await (await dashboardGet(`/dashboard/webhooks/${created.id}`, admin)).text()).not.toContain(
      "whsec_",
    );
    const page = await dashboardPost(path, admin);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<code class="secret">${created.secret}</code>`);
    const fragment = await call("POST", path, {
      rawBody: "",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "http://localhost",
        Cookie: admin.cookie,
        "X-CSRF-Token": admin.csrf,
        "HX-Request": "true",
      },
    });
    expect(fragment.status).toBe(200);
    expect(await fragment.text()).toBe(`<code class="secret">${created.secret}</code>`);
  });

  it("sends a test event, lists the delivery with its exact body, and resends it with the same event id", async () => {
    const { ws, admin, agent } = await desk();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const page = `/dashboard/webhooks/${created.id}`;
    const tested = await dashboardPost(`${page}/test`, admin);
    expect(tested.status).toBe(303);
    expect(tested.headers.get("Location")).toBe(`${page}?done=tested`);
    const [first] = await awaitDeliveries(hook.path, 1, 0);
    if (!first) throw new Error("nothing arrived");
    const eventId = first.headers["x-webhook-id"] ?? "";

    const listed = await (await dashboardGet(page, agent)).text();
    expect(listed).toContain("<code>webhook.test</code>");
    expect(listed).toContain(`<code class="muted">${eventId}</code>`);
    expect(listed).toContain(">200</span>");
    // The exact bytes the receiver got, HTML-escaped.
    expect(listed).toContain(`<pre class="payload">${first.body.replaceAll('"', "&quot;")}</pre>`);
    expect(listed).not.toContain("/resend"); // agents read only

    const resend = `${page}/deliveries/${eventId}/resend`;
    expect((await dashboardPost(resend, agent)).status).toBe(403);
    const resent = await dashboardPost(resend, admin);
    expect(resent.status).toBe(303);
    expect(resent.headers.get("Location")).toBe(`${page}?done=resent`);
    const [, again] = await awaitDeliveries(hook.path, 2, 0);
    expect(again?.headers["x-webhook-id"]).toBe(eventId);
    expect(again?.body).toBe(first.body);
    expect((await deliveriesOf(ws.token, created.id)).body.pagination.total).toBe(2);

    const adminPage = await (await dashboardGet(`${page}?limit=1`, admin)).text();
    expect(adminPage).toContain(`action="${resend}"`);
    expect(adminPage).toContain("1–1 of 2");
    expect(adminPage).toContain(`href="${page}?limit=1&amp;offset=1"`);
  });

  it("shows why a resend is refused for a disabled endpoint", async () => {
    const { ws, admin } = await desk();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, { url: hook.url, events: ["email.sent"] });
    const page = `/dashboard/webhooks/${created.id}`;
    await dashboardPost(`${page}/test`, admin);
    const [first] = await awaitDeliveries(hook.path, 1, 0);
    await dashboardPost(`${page}/disable`, admin);
    const refused = await dashboardPost(`${page}/deliveries/${first?.headers["x-webhook-id"]}/resend`, admin);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("is disabled, so it takes no events");
  });

  it("answers 404 for another workspace's endpoint or delivery, and 403 to agents and forged forms", async () => {
    const { ws, owner, agent } = await desk();
    const other = await desk();
    const hook = endpoint();
    const theirs = await createEndpoint(other.ws.token, { url: hook.url, events: ["email.sent"] });
    await dashboardPost(`/dashboard/webhooks/${theirs.id}/test`, other.admin);
    const [delivered] = await awaitDeliveries(hook.path, 1, 0);
    const theirEvent = delivered?.headers["x-webhook-id"] ?? "";
    const base = `/dashboard/webhooks/${theirs.id}`;

    expect((await dashboardGet(base, owner)).status).toBe(404);
    const posts: Array<[string, Record<string, string>]> = [
      [base, { url: endpoint().url, events: "email.sent" }],
      [`${base}/enable`, {}],
      [`${base}/disable`, {}],
      [`${base}/delete`, {}],
      [`${base}/test`, {}],
      [`${base}/secret`, {}],
      [`${base}/deliveries/${theirEvent}/resend`, {}],
    ];
    for (const [path, fields] of posts) {
      const res = await dashboardPost(path, owner, fields);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("whsec_");
    }
    // Their delivery through our own endpoint is not ours either.
    const mine = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    expect(
      (await dashboardPost(`/dashboard/webhooks/${mine.id}/deliveries/${theirEvent}/resend`, owner)).status,
    ).toBe(404);
    expect(await awaitDeliveries(hook.path, 1, 500)).toHaveLength(1);
    expect((await endpointNow(other.ws.token, theirs.id)).body).toEqual(theirs);

    const ours = `/dashboard/webhooks/${mine.id}`;
    for (const path of [
      "/dashboard/webhooks",
      ours,
      `${ours}/disable`,
      `${ours}/delete`,
      `${ours}/test`,
      `${ours}/secret`,
    ]) {
      const res = await dashboardPost(
        path,
        agent,
        path === "/dashboard/webhooks" || path === ours ? { url: endpoint().url, events: "email.sent" } : {},
      );
      expect(res.status, path).toBe(403);
      expect(await res.text()).not.toContain("whsec_");
      const forged = await postForm(path, {}, { Cookie: owner.cookie });
      expect(forged.status, path).toBe(403);
    }
    expect((await endpointNow(ws.token, mine.id)).body).toEqual(mine);
  });
});
