import { describe, expect, it } from "vitest";
import { MAX_VIEWS } from "../../src/features/views/views.schemas";
import { dashboardGet, dashboardPost, type SignedIn, signIn } from "./dashboard-helpers";
import { html, sidebar } from "./dashboard-views-helpers";
import { callJson, shardD1Of, ticketWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

type View = {
  id: string;
  name: string;
  filters: Record<string, string>;
  owner_user_id: string | null;
  builtin: boolean;
};

/** A workspace with two agents and tickets: two urgent open ones (one Ann's), one low. */
async function desk() {
  const { ws, inbox } = await ticketWorkspace("view-forms");
  const ann = await signIn(ws.accountId, "agent");
  const bob = await signIn(ws.accountId, "agent");
  const post = (body: Record<string, unknown>) =>
    callJson("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Help", ...body },
    });
  await post({ priority: "urgent", assignee_id: ann.user.id });
  await post({ priority: "urgent" });
  await post({ priority: "low" });
  const views = async (who?: SignedIn) =>
    (
      await callJson<{ data: View[] }>("GET", `/v1/views${who ? `?user_id=${who.user.id}` : ""}`, {
        token: ws.token,
      })
    ).body.data.filter((v) => !v.builtin);
  const apiView = (body: Record<string, unknown>) =>
    callJson<View>("POST", "/v1/views", { token: ws.token, body }).then((r) => r.body);
  return { ws, ann, bob, views, apiView };
}

const located = (res: Response) => res.headers.get("Location") ?? "";

describe("dashboard: saving the ticket list's filters as a view", () => {
  it("offers Save as view only with filters applied, and the saved view is in the sidebar with its count", async () => {
    const d = await desk();
    expect(await html("/dashboard/tickets", d.ann)).not.toContain('aria-label="Save as view"');
    const page = await html("/dashboard/tickets?status=open&priority=urgent&tag=", d.ann);
    const form = page.slice(page.indexOf('aria-label="Save as view"'));
    expect(form).toContain('<input type="hidden" name="status" value="open"/>');
    expect(form).toContain('<input type="hidden" name="priority" value="urgent"/>');
    expect(form.slice(0, form.indexOf("</form>"))).not.toContain('name="tag"');

    const res = await dashboardPost("/dashboard/tickets/views", d.ann, {
      status: "open",
      priority: "urgent",
      tag: "",
      name: "  Urgent queue ",
      sharing: "workspace",
    });
    expect(res.status).toBe(303);
    const [saved] = await d.views();
    expect(saved).toMatchObject({
      name: "Urgent queue",
      filters: { status: "open", priority: "urgent" },
      owner_user_id: null,
    });
    const id = saved?.id ?? "";
    expect(located(res)).toBe(`/dashboard/tickets?priority=urgent&status=open&view=${id}&done=view_created`);
    const after = await html(located(res), d.ann);
    expect(after).toContain("View saved: it is in the sidebar.");
    const entry = ["Urgent queue", "2", `/dashboard/tickets?priority=urgent&status=open&view=${id}`, true];
    expect(sidebar(after)).toContainEqual(entry);
    // Shared: Bob sees it too, with the same count.
    expect(sidebar(await html("/dashboard/tickets", d.bob))).toContainEqual([...entry.slice(0, 3), false]);
  });

  it("saves a view for only me: its owner sees it marked personal, another agent does not", async () => {
    const d = await desk();
    const res = await dashboardPost("/dashboard/tickets/views", d.ann, {
      assignee_id: "me",
      name: "My urgent",
      priority: "urgent",
      sharing: "me",
    });
    expect(res.status).toBe(303);
    const [saved] = await d.views(d.ann);
    expect(saved).toMatchObject({
      filters: { assignee_id: "me", priority: "urgent" },
      owner_user_id: d.ann.user.id,
    });
    expect(await html("/dashboard/tickets", d.ann)).toContain(
      '<span class="view-name">My urgent</span><small class="muted"> (personal)</small><span class="count">1</span>',
    );
    expect(sidebar(await html("/dashboard/tickets", d.bob)).map((v) => v[0])).not.toContain("My urgent");
  });

  it("shows a refused name beside the form with what was typed (400), and creates nothing", async () => {
    const d = await desk();
    for (const name of ["   ", "x".repeat(101)]) {
      const res = await dashboardPost("/dashboard/tickets/views", d.ann, {
        priority: "low",
        name,
        sharing: "me",
      });
      expect(res.status).toBe(400);
      const page = await res.text();
      expect(page).toContain('<details class="view-save" open="">');
      expect(page).toMatch(
        /<div class="notice error" role="alert"><p>Invalid request<\/p><ul><li><code>body.name<\/code>/,
      );
      expect(page).toContain(`name="name" value="${name}"`);
      expect(page).toContain('<input type="radio" name="sharing" value="me" checked=""/>');
      // The list is the one the form was sent from.
      expect(page).toContain('<option value="low" selected="">Low</option>');
    }
    expect(await d.views(d.ann)).toEqual([]);
  });

  it("shows the view limit beside the form (409)", async () => {
    const d = await desk();
    await shardD1Of()
      .prepare(
        `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${MAX_VIEWS})
         INSERT INTO ticket_views (id, account_id, name, created_at, updated_at)
         SELECT 'vw_limit' || n || ?1, ?1, 'View ' || n, ?2, ?2 FROM seq`,
      )
      .bind(d.ws.accountId, Date.now())
      .run();
    const res = await dashboardPost("/dashboard/tickets/views", d.ann, {
      priority: "low",
      name: "One more",
      sharing: "workspace",
    });
    expect(res.status).toBe(409);
    const page = await res.text();
    expect(page).toContain(`A workspace holds at most ${MAX_VIEWS} views besides the built-in ones.`);
    expect(page).toContain('name="name" value="One more"');
  });

  it("refuses a form without the session's CSRF token (403), as every dashboard form", async () => {
    const d = await desk();
    const res = await postForm(
      "/dashboard/tickets/views",
      { priority: "low", name: "Sneaky", sharing: "workspace" },
      { Cookie: d.ann.cookie },
    );
    expect(res.status).toBe(403);
    expect(await d.views()).toEqual([]);
  });
});

describe("dashboard: changing a saved view", () => {
  it("opens a saved view from the sidebar with forms to change it; a built-in view has none", async () => {
    const d = await desk();
    const view = await d.apiView({ name: "Urgent", filters: { priority: "urgent" } });
    const page = await html(`/dashboard/tickets?priority=urgent&view=${view.id}`, d.ann);
    expect(page).toContain(`action="/dashboard/tickets/views/${view.id}/edit"`);
    expect(page).toContain(`action="/dashboard/tickets/views/${view.id}/delete"`);
    expect(page).toContain("The list shows this view&#39;s filters.");
    // The filter form keeps the view open when a filter changes.
    expect(page).toContain(`<input type="hidden" name="view" value="${view.id}"/>`);
    const mine = await html("/dashboard/tickets?status=open&assignee_id=me&view=vw_mine", d.ann);
    expect(mine).not.toContain("/dashboard/tickets/views/vw_mine");
    expect(mine).toContain('aria-label="Save as view"');
  });

  it("renames a view and changes its sharing", async () => {
    const d = await desk();
    const view = await d.apiView({ name: "Urgent", filters: { priority: "urgent" } });
    const res = await dashboardPost(`/dashboard/tickets/views/${view.id}/edit`, d.ann, {
      priority: "urgent",
      name: "Fires",
      sharing: "me",
    });
    expect(res.status).toBe(303);
    expect(located(res)).toBe(`/dashboard/tickets?priority=urgent&view=${view.id}&done=view_saved`);
    const [changed] = await d.views(d.ann);
    expect(changed).toMatchObject({ id: view.id, name: "Fires", owner_user_id: d.ann.user.id });
    const after = await html(located(res), d.ann);
    expect(sidebar(after)).toContainEqual([
      "Fires",
      "2",
      `/dashboard/tickets?priority=urgent&view=${view.id}`,
      true,
    ]);
    expect(after).toContain('<input type="radio" name="sharing" value="me" checked=""/>');
    // Now Ann's alone: Bob no longer sees it, and shared again he does.
    expect(sidebar(await html("/dashboard/tickets", d.bob)).map((v) => v[0])).not.toContain("Fires");
    await dashboardPost(`/dashboard/tickets/views/${view.id}/edit`, d.ann, {
      name: "Fires",
      sharing: "workspace",
    });
    expect(sidebar(await html("/dashboard/tickets", d.bob)).map((v) => v[0])).toContain("Fires");
  });

  it("shows a refused rename beside the view's form (400) and changes nothing", async () => {
    const d = await desk();
    const view = await d.apiView({ name: "Urgent", filters: { priority: "urgent" } });
    const res = await dashboardPost(`/dashboard/tickets/views/${view.id}/edit`, d.ann, {
      priority: "urgent",
      name: "two\u0007lines",
      sharing: "workspace",
    });
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain("<code>body.name</code> must be one line, without control characters");
    expect(page).toContain(`action="/dashboard/tickets/views/${view.id}/edit"`);
    expect((await d.views())[0]).toMatchObject({ name: "Urgent", owner_user_id: null });
  });

  it("saves the list's current filters to the view, keeping a saved updated_after", async () => {
    const d = await desk();
    const since = "2020-01-01T00:00:00.000Z";
    const view = await d.apiView({ name: "Urgent", filters: { priority: "urgent", updated_after: since } });
    const page = await html(`/dashboard/tickets?priority=low&status=open&view=${view.id}`, d.ann);
    const form = page.slice(page.indexOf(`action="/dashboard/tickets/views/${view.id}/filters"`));
    expect(form.slice(0, form.indexOf("</form>"))).toContain(
      '<input type="hidden" name="priority" value="low"/>',
    );
    const res = await dashboardPost(`/dashboard/tickets/views/${view.id}/filters`, d.ann, {
      priority: "low",
      status: "open",
      inbox_id: "",
    });
    expect(res.status).toBe(303);
    expect(located(res)).toBe(
      `/dashboard/tickets?priority=low&status=open&view=${view.id}&done=view_filters`,
    );
    expect((await d.views())[0]?.filters).toEqual({ priority: "low", status: "open", updated_after: since });
    const after = await html(located(res), d.ann);
    expect(after).toContain("The view now saves these filters.");
    expect(sidebar(after).find((v) => v[0] === "Urgent")?.[1]).toBe("1");
  });

  it("deletes a view: gone from the sidebar and the API", async () => {
    const d = await desk();
    const view = await d.apiView({ name: "Urgent", filters: { priority: "urgent" } });
    const res = await dashboardPost(`/dashboard/tickets/views/${view.id}/delete`, d.ann);
    expect(res.status).toBe(303);
    expect(located(res)).toBe("/dashboard/tickets?done=view_deleted");
    const after = await html(located(res), d.ann);
    expect(after).toContain("The view was deleted.");
    expect(sidebar(after).map((v) => v[0])).toEqual(["Unassigned", "Mine", "All open"]);
    expect((await callJson("GET", `/v1/views/${view.id}`, { token: d.ws.token })).status).toBe(404);
  });

  it("answers 404 for another user's personal view, open or changed, and 409 for a built-in one", async () => {
    const d = await desk();
    const bobs = await d.apiView({
      name: "Bob's",
      filters: { priority: "low" },
      owner_user_id: d.bob.user.id,
    });
    expect((await dashboardGet(`/dashboard/tickets?priority=low&view=${bobs.id}`, d.ann)).status).toBe(404);
    const forms = { name: "Mine now", sharing: "me", priority: "urgent" };
    for (const action of ["edit", "filters", "delete"]) {
      const res = await dashboardPost(`/dashboard/tickets/views/${bobs.id}/${action}`, d.ann, forms);
      expect(res.status, action).toBe(404);
    }
    // A bad name does not reveal it either.
    const bad = await dashboardPost(`/dashboard/tickets/views/${bobs.id}/edit`, d.ann, {
      name: "",
      sharing: "me",
    });
    expect(bad.status).toBe(404);
    expect((await d.views(d.bob))[0]).toMatchObject({ name: "Bob's", filters: { priority: "low" } });
    expect((await dashboardGet(`/dashboard/tickets?priority=low&view=${bobs.id}`, d.bob)).status).toBe(200);
    for (const action of ["edit", "filters", "delete"]) {
      const res = await dashboardPost(`/dashboard/tickets/views/vw_mine/${action}`, d.ann, forms);
      expect(res.status, action).toBe(409);
    }
  });
});
