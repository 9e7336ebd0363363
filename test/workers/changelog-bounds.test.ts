import { parseFeed } from "@rowanmanning/feed-parser";
import { describe, expect, it } from "vitest";
import { call, callJson, seedWorkspace } from "./helpers";

type Entry = { id: string; body_html: string };

/**
 * Markdown under the 100 KB cap that renders to about 1 MB: one long link definition used many
 * times is copied into every use. Its first words are text a summary can show.
 */
function hugeMarkdown(n: number) {
  const url = `https://example.com/${"x".repeat(2000)}`;
  return `Release ${n} opening words & more.\n\n${"[a] ".repeat(480)}\n\n[a]: ${url}\n`;
}

async function publish(token: string, title: string, body: string, day: number) {
  const { status, body: entry } = await callJson<Entry>("POST", "/v1/changelog", {
    token,
    body: {
      title,
      category: "new",
      status: "published",
      published_at: new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString(),
      body_markdown: body,
    },
  });
  expect(status).toBe(201);
  return entry;
}

const sizeOf = (text: string) => new TextEncoder().encode(text).byteLength;

describe("the public changelog stays small whatever its entries weigh", () => {
  it("pages 50 entries of ~1 MB into pages and a feed under 300 KB; each long entry has its own page", async () => {
    const { accountId, token } = await seedWorkspace();
    const entries: Entry[] = [];
    for (let i = 0; i < 50; i++) entries.push(await publish(token, `Huge ${i}`, hugeMarkdown(i), i));
    expect(sizeOf(entries[0]?.body_html ?? "")).toBeGreaterThan(900_000);
    const short = await publish(token, "Short one", "A *short* note.", 60);

    const first = await call("GET", `/changelog/${accountId}`);
    expect(first.status).toBe(200);
    const page = await first.text();
    expect(sizeOf(page)).toBeLessThan(300_000);
    expect(page).toContain("A <em>short</em> note.");
    expect(page).toContain("Huge 49");
    expect(page).toContain("Release 49 opening words &amp; more.");
    expect(page).toContain(`href="/changelog/${accountId}/entries/${entries[49]?.id}"`);
    expect(page).not.toContain("Huge 30");
    expect(page).toContain(`href="/changelog/${accountId}?page=2"`);

    const third = await (await call("GET", `/changelog/${accountId}?page=3`)).text();
    expect(third).toContain("Huge 0");
    expect(third).toContain(`href="/changelog/${accountId}?page=2"`);
    expect(third).not.toContain("?page=4");
    expect((await call("GET", `/changelog/${accountId}?page=0`)).status).toBe(400);

    const feedRes = await call("GET", `/changelog/${accountId}/feed.xml`);
    const xml = await feedRes.text();
    expect(sizeOf(xml)).toBeLessThan(300_000);
    const feed = parseFeed(xml);
    expect(feed.items).toHaveLength(20);
    expect(feed.items[0]?.title).toBe("Short one");
    expect(feed.items[0]?.content).toBe("<p>A <em>short</em> note.</p>");
    expect(feed.items[0]?.url).toBe(`http://127.0.0.1:8787/changelog/${accountId}/entries/${short.id}`);
    expect(feed.items[1]?.content).toContain("Release 49 opening words & more.");
    expect(feed.items[1]?.url).toBe(
      `http://127.0.0.1:8787/changelog/${accountId}/entries/${entries[49]?.id}`,
    );

    const whole = await call("GET", `/changelog/${accountId}/entries/${entries[49]?.id}`);
    expect(whole.status).toBe(200);
    expect(await whole.text()).toContain(entries[49]?.body_html);
  }, 120_000);

  it("shows an entry's own page only when it is published, of that workspace", async () => {
    const { accountId, token } = await seedWorkspace();
    const other = await seedWorkspace();
    const published = await publish(token, "Out", "Hello", 1);
    const draft = await callJson<Entry>("POST", "/v1/changelog", {
      token,
      body: { title: "Draft", category: "new", body_markdown: "Secret" },
    });
    expect((await call("GET", `/changelog/${accountId}/entries/${published.id}`)).status).toBe(200);
    expect((await call("GET", `/changelog/${accountId}/entries/${draft.body.id}`)).status).toBe(404);
    expect((await call("GET", `/changelog/${other.accountId}/entries/${published.id}`)).status).toBe(404);
    expect((await call("GET", `/changelog/${accountId}/entries/nope`)).status).toBe(404);
  });
});
