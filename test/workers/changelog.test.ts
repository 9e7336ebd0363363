import { describe, expect, it } from "vitest";
import { addKey, call, callJson, seedWorkspace } from "./helpers";

type Entry = {
  id: string;
  title: string;
  body_markdown: string;
  body_html: string;
  category: string;
  status: string;
  published_at: string | null;
  created_at: string;
  updated_at: string;
};
type EntryList = { data: Entry[]; pagination: { limit: number; offset: number; total: number } };

const HOUR = 3_600_000;
const inAnHour = () => new Date(Date.now() + HOUR).toISOString();
const anHourAgo = () => new Date(Date.now() - HOUR).toISOString();

async function create(token: string, body: Record<string, unknown>) {
  return callJson<Entry>("POST", "/v1/changelog", {
    token,
    body: { title: "An entry", category: "new", ...body },
  });
}

async function patch(token: string, id: string, body: Record<string, unknown>) {
  return callJson<Entry & { code?: string }>("PATCH", `/v1/changelog/${id}`, { token, body });
}

describe("changelog CRUD", () => {
  it("creates a draft with rendered HTML, reads, updates and deletes it", async () => {
    const { token } = await seedWorkspace();
    const created = await create(token, {
      title: "  Faster search  ",
      body_markdown: "Now **twice** as fast.",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: "Faster search",
      body_markdown: "Now **twice** as fast.",
      body_html: "<p>Now <strong>twice</strong> as fast.</p>",
      category: "new",
      status: "draft",
      published_at: null,
    });
    expect(created.body.id).toMatch(/^chg_[0-9A-Z]{26}$/);
    expect(created.body.updated_at).toBe(created.body.created_at);

    const id = created.body.id;
    expect((await callJson<Entry>("GET", `/v1/changelog/${id}`, { token })).body).toEqual(created.body);

    const updated = await patch(token, id, { body_markdown: "~~slow~~ fast", category: "improved" });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ category: "improved", body_html: "<p><del>slow</del> fast</p>" });
    expect(updated.body.title).toBe("Faster search");

    expect((await callJson("DELETE", `/v1/changelog/${id}`, { token })).body).toEqual({ id, deleted: true });
    expect((await call("GET", `/v1/changelog/${id}`, { token })).status).toBe(404);
    expect((await call("DELETE", `/v1/changelog/${id}`, { token })).status).toBe(404);
  });

  it("refuses a title over 200 characters or of two lines, a body over 100 KB, an unknown category", async () => {
    const { token } = await seedWorkspace();
    for (const body of [
      { title: "x".repeat(201) },
      { title: "two\nlines" },
      { title: "" },
      { body_markdown: "é".repeat(50_001) },
      { category: "security" },
      { status: "archived" },
    ]) {
      const { status, body: error } = await create(token, body);
      expect(status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((error as unknown as { code: string }).code).toBe("validation_error");
    }
    expect((await create(token, { title: "x".repeat(200), body_markdown: "a".repeat(100_000) })).status).toBe(
      201,
    );
  });

  it("needs write permission to change, read to list", async () => {
    const { accountId } = await seedWorkspace();
    const read = await addKey(accountId, "read");
    expect((await create(read.token, {})).status).toBe(403);
    expect((await call("GET", "/v1/changelog", { token: read.token })).status).toBe(200);
    const write = await addKey(accountId, "write");
    expect((await create(write.token, {})).status).toBe(201);
  });
});

describe("GET /v1/changelog", () => {
  it("is a standard list: default limit 20, newest created first, total, offset and filters", async () => {
    const { token } = await seedWorkspace();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const category = i % 2 === 0 ? "new" : "fixed";
      ids.push((await create(token, { title: `Entry ${i}`, category })).body.id);
    }
    await patch(token, ids[0] as string, { status: "published" });

    const first = await callJson<EntryList>("GET", "/v1/changelog", { token });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(["data", "pagination"]);
    expect(first.body.pagination).toEqual({ limit: 20, offset: 0, total: 23 });
    expect(first.body.data.map((e) => e.id)).toEqual(ids.toReversed().slice(0, 20));

    const rest = await callJson<EntryList>("GET", "/v1/changelog?limit=5&offset=20", { token });
    expect(rest.body.pagination).toEqual({ limit: 5, offset: 20, total: 23 });
    expect(rest.body.data.map((e) => e.id)).toEqual(ids.slice(0, 3).toReversed());

    const fixed = await callJson<EntryList>("GET", "/v1/changelog?category=fixed&limit=100", { token });
    expect(fixed.body.pagination.total).toBe(11);
    expect(fixed.body.data.every((e) => e.category === "fixed")).toBe(true);

    const published = await callJson<EntryList>("GET", "/v1/changelog?status=published", { token });
    expect(published.body.data.map((e) => e.id)).toEqual([ids[0]]);
    expect(published.body.pagination.total).toBe(1);

    for (const query of ["limit=0", "limit=101", "offset=-1", "status=live", "category=other"]) {
      expect((await call("GET", `/v1/changelog?${query}`, { token })).status, query).toBe(400);
    }
  });
});

describe("tenancy", () => {
  it("another workspace's entries are 404 and never listed", async () => {
    const mine = await seedWorkspace();
    const theirs = await seedWorkspace();
    const { body: entry } = await create(theirs.token, {});
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { title: "Mine now" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await call(method, `/v1/changelog/${entry.id}`, { token: mine.token, body });
      expect(res.status, method).toBe(404);
    }
    const list = await callJson<EntryList>("GET", "/v1/changelog", { token: mine.token });
    expect(list.body.pagination.total).toBe(0);
    expect(
      (await callJson<Entry>("GET", `/v1/changelog/${entry.id}`, { token: theirs.token })).body.title,
    ).toBe("An entry");
  });
});

describe("state moves", () => {
  it("draft → scheduled needs a future published_at; scheduled → draft clears it", async () => {
    const { token } = await seedWorkspace();
    const { body: entry } = await create(token, {});
    const noTime = await patch(token, entry.id, { status: "scheduled" });
    expect([noTime.status, noTime.body.code]).toEqual([400, "invalid_published_at"]);
    const past = await patch(token, entry.id, { status: "scheduled", published_at: anHourAgo() });
    expect([past.status, past.body.code]).toEqual([400, "invalid_published_at"]);

    const at = inAnHour();
    const scheduled = await patch(token, entry.id, { status: "scheduled", published_at: at });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({ status: "scheduled", published_at: at });
    // A scheduled entry keeps its time through other edits.
    expect((await patch(token, entry.id, { title: "Renamed" })).body.published_at).toBe(at);

    const back = await patch(token, entry.id, { status: "draft" });
    expect(back.body).toMatchObject({ status: "draft", published_at: null });
  });

  it("draft → published takes now, or a past time; a future time must be scheduled instead", async () => {
    const { token } = await seedWorkspace();
    const { body: entry } = await create(token, {});
    const future = await patch(token, entry.id, { status: "published", published_at: inAnHour() });
    expect([future.status, future.body.code]).toEqual([400, "invalid_published_at"]);

    const before = Date.now();
    const published = await patch(token, entry.id, { status: "published" });
    expect(published.status).toBe(200);
    expect(Date.parse(published.body.published_at ?? "")).toBeGreaterThanOrEqual(before - 1000);

    const backdated = await create(token, { status: "published", published_at: "2024-01-02T03:04:05.000Z" });
    expect(backdated.body).toMatchObject({ status: "published", published_at: "2024-01-02T03:04:05.000Z" });
  });

  it("scheduled → published publishes at once", async () => {
    const { token } = await seedWorkspace();
    const { body: entry } = await create(token, { status: "scheduled", published_at: inAnHour() });
    const now = await patch(token, entry.id, { status: "published" });
    expect(now.body.status).toBe("published");
    expect(Date.parse(now.body.published_at ?? "")).toBeLessThanOrEqual(Date.now());
  });

  it("a published entry stays published, keeps its time through edits, and a draft takes no published_at", async () => {
    const { token } = await seedWorkspace();
    const { body: entry } = await create(token, { status: "published" });
    for (const status of ["draft", "scheduled"]) {
      const moved = await patch(token, entry.id, { status, published_at: inAnHour() });
      expect([moved.status, moved.body.code], status).toEqual([400, "invalid_status_transition"]);
    }
    const edited = await patch(token, entry.id, { title: "Typo fixed" });
    expect(edited.body).toMatchObject({
      status: "published",
      published_at: entry.published_at,
      title: "Typo fixed",
    });

    const draft = await create(token, { published_at: inAnHour() });
    expect([draft.status, (draft.body as unknown as { code: string }).code]).toEqual([
      400,
      "invalid_published_at",
    ]);
    const scheduledOnCreate = await create(token, { status: "scheduled" });
    expect(scheduledOnCreate.status).toBe(400);
  });
});
