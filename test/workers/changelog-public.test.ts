import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { parseFeed } from "@rowanmanning/feed-parser";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { publishDueChangelog } from "../../src/jobs/publish-changelog";
import { CRON } from "../../src/jobs/schedules";
import { newId } from "../../src/lib/ids";
import { call, callJson, db, seedWorkspace } from "./helpers";

type Entry = {
  id: string;
  status: string;
  published_at: string | null;
  updated_at: string;
  body_html: string;
};

async function create(token: string, body: Record<string, unknown>) {
  const { status, body: entry } = await callJson<Entry>("POST", "/v1/changelog", {
    token,
    body: { title: "An entry", category: "new", ...body },
  });
  expect(status).toBe(201);
  return entry;
}

const feedOf = (accountId: string, headers: Record<string, string> = {}) =>
  call("GET", `/changelog/${accountId}/feed.xml`, { headers });

describe("GET /changelog/{account_id}/feed.xml", () => {
  it("is valid Atom 1.0 of published entries only, newest published first, read by an independent parser", async () => {
    const { accountId, token } = await seedWorkspace();
    const older = await create(token, {
      title: "Older <b>& bold</b>",
      category: "fixed",
      status: "published",
      published_at: "2025-01-01T00:00:00.000Z",
    });
    const newer = await create(token, {
      title: "Newer",
      body_markdown: "Hello **world**, [link](https://example.com/?a=1&b=2)",
      status: "published",
    });
    await create(token, { title: "Draft" });
    await create(token, {
      title: "Scheduled",
      status: "scheduled",
      published_at: "2099-01-01T00:00:00.000Z",
    });

    const res = await feedOf(accountId);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await res.text();
    // The HTML travels escaped once, as the text of `content type="html"`.
    expect(xml).toContain(
      "&lt;p&gt;Hello &lt;strong&gt;world&lt;/strong&gt;, &lt;a href=&quot;https://example.com/?a=1&amp;#x26;b=2&quot;&gt;link&lt;/a&gt;&lt;/p&gt;",
    );
    const feed = parseFeed(xml);
    expect(feed.meta.type).toBe("atom");
    expect(feed.meta.version).toBe("1.0");
    expect(feed.title).toMatch(/ changelog$/);
    expect(feed.url).toBe(`http://127.0.0.1:8787/changelog/${accountId}`);
    expect(feed.self).toBe(`http://127.0.0.1:8787/changelog/${accountId}/feed.xml`);
    expect(feed.items.map((item) => item.title)).toEqual(["Newer", "Older <b>& bold</b>"]);
    const [first, second] = feed.items;
    expect(first?.id).toMatch(
      new RegExp(`^tag:127\\.0\\.0\\.1:8787,\\d{4}-\\d{2}-\\d{2}:changelog/${newer.id}$`),
    );
    expect(newer.body_html).toContain("&#x26;b=2");
    // The parser decodes the XML, then the HTML's own references.
    expect(first?.content).toBe(
      '<p>Hello <strong>world</strong>, <a href="https://example.com/?a=1&b=2">link</a></p>',
    );
    expect(first?.url).toBe(`http://127.0.0.1:8787/changelog/${accountId}/entries/${newer.id}`);
    expect(second?.categories.map((c) => c.term)).toEqual(["fixed"]);
    expect(new Date(second?.published ?? 0).toISOString()).toBe(older.published_at);
    expect(new Date(second?.updated ?? 0).toISOString()).toBe(older.updated_at);
    expect(new Date(feed.updated ?? 0).getTime()).toBeGreaterThanOrEqual(Date.parse(newer.updated_at));
  });

  it("answers 304 to a matching If-None-Match or a current If-Modified-Since, 200 once an entry changes", async () => {
    const { accountId, token } = await seedWorkspace();
    const entry = await create(token, { status: "published" });
    const first = await feedOf(accountId);
    const etag = first.headers.get("ETag") ?? "";
    const lastModified = first.headers.get("Last-Modified") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(lastModified)).toBe(Math.floor(Date.parse(entry.updated_at) / 1000) * 1000);

    const same = await feedOf(accountId, { "If-None-Match": `"other", W/${etag}` });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    expect(same.headers.get("ETag")).toBe(etag);
    expect((await feedOf(accountId, { "If-Modified-Since": lastModified })).status).toBe(304);
    expect(
      (await feedOf(accountId, { "If-None-Match": '"other"', "If-Modified-Since": lastModified })).status,
    ).toBe(200);
    expect((await feedOf(accountId, { "If-Modified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" })).status).toBe(
      200,
    );

    await new Promise((resolve) => setTimeout(resolve, 5));
    await callJson("PATCH", `/v1/changelog/${entry.id}`, { token, body: { title: "Edited" } });
    const changed = await feedOf(accountId, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);

    // A deleted entry changes the tag too, though no updated_at moved forward.
    const again = changed.headers.get("ETag") ?? "";
    await call("DELETE", `/v1/changelog/${entry.id}`, { token });
    expect((await feedOf(accountId, { "If-None-Match": again })).status).toBe(200);
  });

  it("is 404 for an unknown, malformed or suspended workspace", async () => {
    const suspended = await seedWorkspace({ status: "suspended" });
    for (const id of [newId("acc"), "nope", suspended.accountId]) {
      expect((await feedOf(id)).status, id).toBe(404);
      expect((await call("GET", `/changelog/${id}`)).status, id).toBe(404);
    }
  });

  it("shows the latest 20 published entries", async () => {
    const { accountId, token } = await seedWorkspace();
    for (let i = 0; i < 22; i++) {
      const publishedAt = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString();
      await create(token, { title: `Entry ${i}`, status: "published", published_at: publishedAt });
    }
    const feed = parseFeed(await (await feedOf(accountId)).text());
    expect(feed.items).toHaveLength(20);
    expect(feed.items[0]?.title).toBe("Entry 21");
    expect(feed.items[19]?.title).toBe("Entry 2");
  });
});

describe("GET /changelog/{account_id}", () => {
  it("shows published entries, newest first, the title escaped and the body sanitized, under a strict CSP", async () => {
    const { accountId, token } = await seedWorkspace();
    await create(token, {
      title: "First <script>alert(1)</script>",
      status: "published",
      published_at: "2025-03-01T00:00:00.000Z",
    });
    await create(token, {
      title: "Second",
      status: "published",
      body_markdown: "<script>alert(1)</script>\n\n[click](javascript:alert(1)) <img src=x onerror=alert(1)>",
    });
    await create(token, { title: "A draft" });

    const res = await call("GET", `/changelog/${accountId}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    const html = await res.text();
    expect(html).toContain("First &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("A draft");
    expect(html.indexOf("Second")).toBeLessThan(html.indexOf("First"));
    expect(html).toContain(`href="http://127.0.0.1:8787/changelog/${accountId}/feed.xml"`);
  });
});

describe("the minute cron publishes scheduled entries", () => {
  it("publishes what is due at the job's time, leaves later ones, and the feed shows them", async () => {
    const { accountId, token } = await seedWorkspace();
    const soon = new Date(Date.now() + 60_000).toISOString();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const due = await create(token, { title: "Due", status: "scheduled", published_at: soon });
    const notYet = await create(token, { title: "Not yet", status: "scheduled", published_at: later });
    expect(parseFeed(await (await feedOf(accountId)).text()).items).toHaveLength(0);

    const runAt = Date.parse(soon) + 30_000;
    expect(await publishDueChangelog(db(), runAt)).toBeGreaterThanOrEqual(1);
    const published = await callJson<Entry>("GET", `/v1/changelog/${due.id}`, { token });
    expect(published.body).toMatchObject({ status: "published", published_at: soon });
    expect(published.body.updated_at).toBe(new Date(runAt).toISOString());
    expect((await callJson<Entry>("GET", `/v1/changelog/${notYet.id}`, { token })).body.status).toBe(
      "scheduled",
    );

    const feed = parseFeed(await (await feedOf(accountId)).text());
    expect(feed.items.map((item) => item.title)).toEqual(["Due"]);
    // Run again at the same time: nothing more of this workspace is due.
    await publishDueChangelog(db(), runAt);
    expect((await callJson<Entry>("GET", `/v1/changelog/${notYet.id}`, { token })).body.status).toBe(
      "scheduled",
    );
  });

  it("runs in the Worker's minute cron", async () => {
    const { token } = await seedWorkspace();
    const at = new Date(Date.now() + 60_000).toISOString();
    const entry = await create(token, { status: "scheduled", published_at: at });
    const scheduledTime = Date.parse(at) + 1000;
    await worker.scheduled(
      createScheduledController({ cron: CRON.everyMinute, scheduledTime }),
      env,
      createExecutionContext(),
    );
    const published = await callJson<Entry>("GET", `/v1/changelog/${entry.id}`, { token });
    expect(published.body).toMatchObject({ status: "published", published_at: at });
  });

  it("once the cron has published a scheduled entry, moving it back to draft is refused", async () => {
    const { token } = await seedWorkspace();
    const entry = await create(token, {
      status: "scheduled",
      published_at: new Date(Date.now() + 1000).toISOString(),
    });
    await publishDueChangelog(db(), Date.now() + 2000);
    const moved = await callJson<{ code: string }>("PATCH", `/v1/changelog/${entry.id}`, {
      token,
      body: { status: "draft" },
    });
    expect([moved.status, moved.body.code]).toEqual([400, "invalid_status_transition"]);
  });
});
