import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, seedWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

type Entry = {
  id: string;
  title: string;
  body_markdown: string;
  body_html: string;
  category: string;
  status: string;
  published_at: string | null;
};

const HOUR = 3_600_000;
/** A datetime-local value (UTC, to the minute) `ms` from now. */
const minuteFromNow = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 16);

const fields = (overrides: Record<string, string> = {}) => ({
  title: "Faster search",
  category: "improved",
  status: "draft",
  published_at: "",
  body_markdown: "Now **twice** as fast.",
  ...overrides,
});

const entryOf = (token: string, id: string) => callJson<Entry>("GET", `/v1/changelog/${id}`, { token });

const createdId = (res: Response) =>
  /^\/dashboard\/changelog\/(chg_[0-9A-Z]+)\?done=created$/.exec(
    res.headers.get("Location") ?? "",
  )?.[1] as string;

async function apiEntry(token: string, body: Record<string, unknown> = {}) {
  const res = await callJson<Entry>("POST", "/v1/changelog", {
    token,
    body: { title: "Via the API", category: "new", ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("dashboard: changelog", () => {
  it("lists entries with status, category and time, filtered, escaped, with the public links", async () => {
    const ws = await seedWorkspace();
    const draft = await apiEntry(ws.token, { title: "<script>alert(1)</script> soon" });
    const live = await apiEntry(ws.token, { title: "Live one", category: "fixed", status: "published" });
    const agent = await signIn(ws.accountId, "agent");
    const page = await (await dashboardGet("/dashboard/changelog", agent)).text();
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt; soon");
    expect(page).not.toContain("<script>alert(1)");
    expect(page).toContain(`href="/dashboard/changelog/${draft.id}"`);
    expect(page).toContain(`href="/changelog/${ws.accountId}"`);
    expect(page).toContain(`href="/changelog/${ws.accountId}/feed.xml"`);
    expect(page).toContain('aria-current="page">Changelog');
    expect(page).not.toContain("New entry");

    const published = await (await dashboardGet("/dashboard/changelog?status=published", agent)).text();
    expect(published).toContain(live.id);
    expect(published).not.toContain(draft.id);
    const improved = await (await dashboardGet("/dashboard/changelog?category=improved", agent)).text();
    expect(improved).not.toContain(live.id);
    expect(improved).toContain("No changelog entries here yet.");
  });

  it("paginates the list", async () => {
    const ws = await seedWorkspace();
    for (let i = 0; i < 3; i++) await apiEntry(ws.token, { title: `Entry ${i}` });
    const owner = await signIn(ws.accountId, "owner");
    const first = await (await dashboardGet("/dashboard/changelog?limit=2", owner)).text();
    expect(first).toContain("1–2 of 3");
    expect(first).toContain('href="/dashboard/changelog?limit=2&amp;offset=2"');
    const second = await (await dashboardGet("/dashboard/changelog?limit=2&offset=2", owner)).text();
    expect(second).toContain("Entry 0");
    expect(second).not.toContain("Entry 2");
  });

  it("creates through the API's rules, shows refusals beside the form, and refuses a post without the token", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    expect((await dashboardGet("/dashboard/changelog/new", admin)).status).toBe(200);

    const refused = await dashboardPost(
      "/dashboard/changelog",
      admin,
      fields({ title: "   ", body_markdown: "kept <b>" }),
    );
    expect(refused.status).toBe(400);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain('role="alert"');
    expect(refusedPage).toContain("kept &lt;b&gt;");

    const unscheduled = await dashboardPost("/dashboard/changelog", admin, fields({ status: "scheduled" }));
    expect(unscheduled.status).toBe(400);
    expect(await unscheduled.text()).toContain("A scheduled entry needs published_at");

    const noToken = await postForm("/dashboard/changelog", fields(), { Cookie: admin.cookie });
    expect(noToken.status).toBe(403);

    // A time left in the field of a draft is dropped, not refused.
    const created = await dashboardPost(
      "/dashboard/changelog",
      admin,
      fields({ published_at: minuteFromNow(HOUR) }),
    );
    expect(created.status).toBe(303);
    const id = createdId(created);
    const entry = await entryOf(ws.token, id);
    expect(entry.body).toMatchObject({
      title: "Faster search",
      category: "improved",
      status: "draft",
      published_at: null,
      body_html: "<p>Now <strong>twice</strong> as fast.</p>",
    });
    const list = await callJson<{ pagination: { total: number } }>("GET", "/v1/changelog", {
      token: ws.token,
    });
    expect(list.body.pagination.total).toBe(1);
  });

  it("schedules, publishes now, and keeps the exact publication time on later saves", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const id = createdId(await dashboardPost("/dashboard/changelog", owner, fields()));
    const at = minuteFromNow(2 * HOUR);

    const scheduled = await dashboardPost(
      `/dashboard/changelog/${id}`,
      owner,
      fields({ status: "scheduled", published_at: at }),
    );
    expect(scheduled.status).toBe(303);
    expect(scheduled.headers.get("Location")).toBe(`/dashboard/changelog/${id}?done=saved`);
    expect((await entryOf(ws.token, id)).body).toMatchObject({
      status: "scheduled",
      published_at: `${at}:00.000Z`,
    });

    // The page shows the scheduled time; choosing published with it still there publishes now.
    const page = await (await dashboardGet(`/dashboard/changelog/${id}?done=saved`, owner)).text();
    expect(page).toContain(`value="${at}"`);
    expect(page).toContain("Entry saved.");
    const before = Date.now();
    const published = await dashboardPost(
      `/dashboard/changelog/${id}`,
      owner,
      fields({ status: "published", published_at: at }),
    );
    expect(published.status).toBe(303);
    const live = (await entryOf(ws.token, id)).body;
    expect(live.status).toBe("published");
    expect(Date.parse(live.published_at as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(live.published_at as string)).toBeLessThanOrEqual(Date.now());

    // Saving the shown (minute) time again keeps the exact one; the status offers published only.
    const editor = await (await dashboardGet(`/dashboard/changelog/${id}`, owner)).text();
    expect(editor).not.toContain('<option value="draft"');
    expect(editor).toContain(`href="/changelog/${ws.accountId}#${id}"`);
    const shown = (live.published_at as string).slice(0, 16);
    const saved = await dashboardPost(
      `/dashboard/changelog/${id}`,
      owner,
      fields({ title: "Renamed", status: "published", published_at: shown }),
    );
    expect(saved.status).toBe(303);
    expect((await entryOf(ws.token, id)).body).toMatchObject({
      title: "Renamed",
      published_at: live.published_at,
    });

    // A published entry stays published: the API's refusal shows beside the form.
    const back = await dashboardPost(`/dashboard/changelog/${id}`, owner, fields({ status: "draft" }));
    expect(back.status).toBe(400);
    expect(await back.text()).toContain("A published entry stays published");
  });

  it("previews the body with the API's renderer: a script tag and a javascript: link come out harmless, nothing saved", async () => {
    const ws = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const body =
      '<script>alert("x")</script>\n\n**Bold** and [a link](javascript:alert(1)) <img src=x onerror=alert(2)>';
    const res = await dashboardPost("/dashboard/changelog/preview", admin, fields({ body_markdown: body }));
    expect(res.status).toBe(200);
    const page = await res.text();
    const preview = page.slice(page.indexOf('id="changelog-preview"'));
    expect(preview).toContain("<strong>Bold</strong>");
    expect(preview).toContain("Not saved yet");
    expect(preview).not.toContain("<script>alert");
    expect(preview).not.toContain("javascript:");
    expect(preview).not.toContain("onerror");
    // The editor keeps what was typed, escaped.
    expect(page).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    const list = await callJson<{ pagination: { total: number } }>("GET", "/v1/changelog", {
      token: ws.token,
    });
    expect(list.body.pagination.total).toBe(0);

    // An entry's preview renders the unsaved text and leaves the entry as it was.
    const entry = await apiEntry(ws.token, { body_markdown: "Saved text" });
    const changed = await dashboardPost(
      `/dashboard/changelog/${entry.id}/preview`,
      admin,
      fields({ body_markdown: "# Unsaved" }),
    );
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("<h1>Unsaved</h1>");
    expect((await entryOf(ws.token, entry.id)).body.body_markdown).toBe("Saved text");

    // Over the API's size cap: the preview says so instead of rendering.
    const huge = await dashboardPost(
      "/dashboard/changelog/preview",
      admin,
      fields({ body_markdown: "a".repeat(100_001) }),
    );
    expect(await huge.text()).toContain("must be at most 100000 bytes");
  });

  it("deletes after confirmation, in any status", async () => {
    const ws = await seedWorkspace();
    const owner = await signIn(ws.accountId, "owner");
    const entry = await apiEntry(ws.token, { status: "published" });
    const page = await (await dashboardGet(`/dashboard/changelog/${entry.id}`, owner)).text();
    expect(page).toContain(`action="/dashboard/changelog/${entry.id}/delete"`);
    expect(page).toContain('data-confirm="Delete this entry?');
    const res = await dashboardPost(`/dashboard/changelog/${entry.id}/delete`, owner);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/dashboard/changelog?done=deleted");
    expect((await entryOf(ws.token, entry.id)).status).toBe(404);
    expect(await (await dashboardGet("/dashboard/changelog?done=deleted", owner)).text()).toContain(
      "Entry deleted.",
    );
  });

  it("lets agents read an entry but not write: every write is the 403 page", async () => {
    const ws = await seedWorkspace();
    const entry = await apiEntry(ws.token, { body_markdown: "Read **me**" });
    const agent = await signIn(ws.accountId, "agent");
    const page = await (await dashboardGet(`/dashboard/changelog/${entry.id}`, agent)).text();
    expect(page).toContain("Read <strong>me</strong>");
    expect(page).not.toContain('name="title"');
    expect(page).not.toContain("/delete");
    for (const path of [
      "/dashboard/changelog",
      "/dashboard/changelog/preview",
      `/dashboard/changelog/${entry.id}`,
      `/dashboard/changelog/${entry.id}/preview`,
      `/dashboard/changelog/${entry.id}/delete`,
    ]) {
      expect((await dashboardPost(path, agent, fields())).status, path).toBe(403);
    }
    expect((await entryOf(ws.token, entry.id)).body.title).toBe("Via the API");
  });

  it("answers 404 for another workspace's entry, on every route", async () => {
    const mine = await seedWorkspace();
    const theirs = await seedWorkspace();
    const entry = await apiEntry(theirs.token);
    const owner = await signIn(mine.accountId, "owner");
    expect((await dashboardGet(`/dashboard/changelog/${entry.id}`, owner)).status).toBe(404);
    for (const path of [
      `/dashboard/changelog/${entry.id}`,
      `/dashboard/changelog/${entry.id}/preview`,
      `/dashboard/changelog/${entry.id}/delete`,
    ]) {
      expect((await dashboardPost(path, owner, fields({ title: "Taken" }))).status, path).toBe(404);
    }
    expect((await entryOf(theirs.token, entry.id)).body.title).toBe("Via the API");
  });
});
