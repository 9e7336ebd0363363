import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { archivedPartsQuery, archiveListQueries } from "../../src/features/email-archives/archives.repo";
import { DAY_MS } from "../../src/lib/email-retention";
import {
  addPart,
  concat,
  gunzip,
  gunzipMembers,
  line,
  objectBytes,
  partsOf,
  randomHex,
  seedDay,
} from "./email-archives-helpers";
import { addKey, call, callJson, db, errorBody, seedWorkspace, sendingWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

interface ArchiveBody {
  object: string;
  date: string;
  emails: number;
  size: number;
  parts: number;
  created_at: string;
  updated_at: string;
  download_url: string;
}

interface ListBody {
  data: ArchiveBody[];
  pagination: { limit: number; offset: number; total: number };
}

const list = (token: string, query = "") =>
  callJson<ListBody>("GET", `/v1/emails/archives${query}`, { token });
const download = (token: string | null, date: string, headers: Record<string, string> = {}) =>
  call("GET", `/v1/emails/archives/${date}`, { token, headers });

describe("GET /v1/emails/archives", () => {
  it("lists the workspace's archived days newest first, with their totals and download path", async () => {
    const ws = await seedWorkspace();
    const at = Date.UTC(2026, 10, 2, 3, 4, 5, 6);
    const oct1 = await seedDay(ws.accountId, "2026-10-01", [{ part: 1, lines: [line(1), line(2)] }], at);
    await seedDay(ws.accountId, "2026-09-30", [{ part: 1, lines: [line(3)] }], at);
    const oct2 = await seedDay(
      ws.accountId,
      "2026-10-02",
      [
        { part: 1, lines: [line(4)] },
        { part: 2, lines: [line(5), line(6)] },
        { part: 3, lines: [line(7)], state: "writing" },
      ],
      at + DAY_MS,
    );
    const { status, body } = await list(ws.token);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    expect(body.data.map((a) => a.date)).toEqual(["2026-10-02", "2026-10-01", "2026-09-30"]);
    expect(body.data[0]).toEqual({
      object: "email_archive",
      date: "2026-10-02",
      emails: 3,
      size: oct2.bytes,
      parts: 2,
      created_at: "2026-11-03T03:04:05.006Z",
      updated_at: "2026-11-03T03:04:05.006Z",
      download_url: "/v1/emails/archives/2026-10-02",
    });
    expect(body.data[1]).toMatchObject({ emails: 2, size: oct1.bytes, parts: 1 });
  });

  it("pages by offset and by date, with exact totals; bad parameters are a 400", async () => {
    const ws = await seedWorkspace();
    const dates = ["2026-01-28", "2026-01-29", "2026-01-30", "2026-01-31", "2026-02-01"];
    for (const date of dates) await seedDay(ws.accountId, date, [{ part: 1, lines: [line(1)] }]);
    const page = async (query: string) => {
      const { status, body } = await list(ws.token, query);
      expect(status, query).toBe(200);
      return [body.data.map((a) => a.date), body.pagination];
    };
    expect(await page("?limit=2")).toEqual([["2026-02-01", "2026-01-31"], { limit: 2, offset: 0, total: 5 }]);
    expect(await page("?limit=2&offset=2")).toEqual([
      ["2026-01-30", "2026-01-29"],
      { limit: 2, offset: 2, total: 5 },
    ]);
    expect(await page("?limit=2&offset=4")).toEqual([["2026-01-28"], { limit: 2, offset: 4, total: 5 }]);
    expect(await page("?limit=2&before=2026-01-31")).toEqual([
      ["2026-01-30", "2026-01-29"],
      { limit: 2, offset: 0, total: 3 },
    ]);
    expect(await page("?before=2026-01-28")).toEqual([[], { limit: 50, offset: 0, total: 0 }]);
    for (const [query, path] of [
      ["?limit=101", "query.limit"],
      ["?offset=-1", "query.offset"],
      ["?before=2026-02-30", "query.before"],
      ["?before=yesterday", "query.before"],
    ] as const) {
      const { status, body } = await callJson<{ code: string; details: Array<{ path: string }> }>(
        "GET",
        `/v1/emails/archives${query}`,
        { token: ws.token },
      );
      expect(status, query).toBe(400);
      expect(body.code).toBe("validation_error");
      expect(body.details.map((d) => d.path)).toEqual([path]);
    }
  });

  it("reads a range of the primary key: no scan, no sort", async () => {
    const ws = await seedWorkspace();
    for (const before of [undefined, 20_000]) {
      const { page, total } = archiveListQueries(db(), ws.accountId, before, 50, 0);
      expectIndexed(await planOf(page), "email_archives");
      expectIndexed(await planOf(total), "email_archives");
    }
    expectIndexed(await planOf(archivedPartsQuery(db(), ws.accountId, 20_000)), "email_archive_parts");
  });

  it("shows another workspace nothing, and its days are 404 here", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    await seedDay(ws.accountId, "2026-10-01", [{ part: 1, lines: [line(1)] }]);
    expect((await list(other.token)).body).toEqual({
      data: [],
      pagination: { limit: 50, offset: 0, total: 0 },
    });
    const foreign = await callJson("GET", "/v1/emails/archives/2026-10-01", { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "archive_not_found" });
    expect((await download(ws.token, "2026-10-01")).status).toBe(200);
  });

  it("is readable with a read key, and refused without a key", async () => {
    const ws = await seedWorkspace();
    await seedDay(ws.accountId, "2026-10-01", [{ part: 1, lines: [line(1)] }]);
    const reader = await addKey(ws.accountId, "read");
    expect((await list(reader.token)).body.pagination.total).toBe(1);
    const file = await download(reader.token, "2026-10-01");
    expect(file.status).toBe(200);
    await file.arrayBuffer();
    for (const path of ["/v1/emails/archives", "/v1/emails/archives/2026-10-01"]) {
      const { status, body } = await callJson("GET", path);
      expect(status, path).toBe(401);
      expect(body, path).toMatchObject({ code: "invalid_api_key" });
    }
  });

  it("is not taken for an email id, and the email routes still answer beside it", async () => {
    const ws = await sendingWorkspace("archives.test");
    const sent = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "hello@archives.test",
        to: "ada@example.com",
        subject: "Later",
        text: "Hi",
        scheduled_at: new Date(Date.now() + 7_200_000).toISOString(),
      },
    });
    expect(sent.status).toBe(200);
    const email = await callJson<{ id: string; status: string }>("GET", `/v1/emails/${sent.body.id}`, {
      token: ws.token,
    });
    expect([email.status, email.body.id, email.body.status]).toEqual([200, sent.body.id, "scheduled"]);
    expect((await list(ws.token)).body).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
    const content = await call("GET", `/v1/emails/${sent.body.id}/content`, { token: ws.token });
    expect(content.status).toBe(404);
    expect(await content.json()).toMatchObject({ code: "content_not_built" });
  });
});

describe("GET /v1/emails/archives/{date}", () => {
  it("streams the day's archived parts in order as one gzip file, leaving out parts still being written", async () => {
    const ws = await seedWorkspace();
    // Hardly compressible, so the last part is read from R2 in several chunks.
    const big = Array.from({ length: 3000 }, (_, n) => `${JSON.stringify({ id: n, r: randomHex(32) })}\n`);
    const day = await seedDay(ws.accountId, "2026-10-01", [
      { part: 2, lines: [line(3), line(4)] },
      { part: 1, lines: [line(1), line(2)] },
      { part: 3, lines: [line(5)], state: "writing" },
      { part: 4, lines: big },
    ]);
    const res = await download(ws.token, "2026-10-01");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="emails-2026-10-01.ndjson.gz"');
    expect(res.headers.get("content-length")).toBe(String(day.bytes));
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    const file = new Uint8Array(await res.arrayBuffer());
    const parts = await partsOf(ws.accountId, "2026-10-01");
    expect(parts.map((p) => p.part)).toEqual([1, 2, 3, 4]);
    const archived = parts.filter((p) => p.state === "archived");
    const objects = await Promise.all(archived.map((p) => objectBytes(ws.accountId, "2026-10-01", p)));
    expect(file).toEqual(concat(objects));
    expect(file.length).toBe(day.bytes);
    const sizes = archived.map((p) => p.bytes);
    expect(sizes[2]).toBeGreaterThan(100_000);
    const expected = [line(1), line(2), line(3), line(4), ...big].join("");
    expect(await gunzipMembers(file, sizes)).toBe(expected);
    // What a client's gunzip does: one read of the whole multi-member file.
    expect(gunzipSync(file).toString()).toBe(expected);
    // As the description warns: the WHATWG reader of Workers stops after the first member.
    await expect(gunzip(file)).rejects.toThrow(/Trailing bytes/);
  });

  it("answers 304 to If-None-Match with its ETag; a new part changes the ETag", async () => {
    const ws = await seedWorkspace();
    await seedDay(ws.accountId, "2026-10-01", [{ part: 1, lines: [line(1)] }]);
    const first = await download(ws.token, "2026-10-01");
    const etag = first.headers.get("etag") as string;
    const before = new Uint8Array(await first.arrayBuffer());
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await download(ws.token, "2026-10-01", { "If-None-Match": ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe("");
    }
    const stale = await download(ws.token, "2026-10-01", { "If-None-Match": '"other"' });
    expect(stale.status).toBe(200);
    expect(new Uint8Array(await stale.arrayBuffer())).toEqual(before);

    const added = await addPart(ws.accountId, "2026-10-01", 2, [line(2)]);
    const grown = await download(ws.token, "2026-10-01", { "If-None-Match": etag });
    expect(grown.status).toBe(200);
    expect(grown.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
    expect(grown.headers.get("etag")).not.toBe(etag);
    const file = new Uint8Array(await grown.arrayBuffer());
    expect(file).toEqual(concat([before, added]));
    expect(grown.headers.get("content-length")).toBe(String(file.length));
    expect(await gunzipMembers(file, [before.length, added.length])).toBe(line(1) + line(2));
  });

  it("answers 400 for a date that is not a real YYYY-MM-DD day", async () => {
    const ws = await seedWorkspace();
    for (const date of ["2026-1-01", "2026-13-01", "2026-02-30", "20261001", "yesterday", "2026-10-01x"]) {
      const { status, body } = await callJson<{ code: string; details: Array<{ path: string }> }>(
        "GET",
        `/v1/emails/archives/${date}`,
        { token: ws.token },
      );
      expect(status, date).toBe(400);
      expect(body.code, date).toBe("validation_error");
      expect(body.details.map((d) => d.path)).toEqual(["param.date"]);
    }
  });

  it("answers 404 for a day with no archive, saying when days are archived", async () => {
    const ws = await seedWorkspace();
    await seedDay(ws.accountId, "2026-10-02", [{ part: 1, lines: [line(1)], state: "writing" }]);
    for (const date of ["2026-10-01", "2026-10-02"]) {
      const { status, body } = await callJson("GET", `/v1/emails/archives/${date}`, { token: ws.token });
      expect(status, date).toBe(404);
      expect(body).toEqual({
        ...errorBody("No archive for this day", "archive_not_found"),
        message: `No emails of ${date} were archived (yet). A day is archived once it is past the workspace's email retention, and its archive is kept 730 days.`,
      });
    }
  });

  it("answers 503 before any byte when the first part's object is gone; a later one breaks the transfer", async () => {
    const ws = await seedWorkspace();
    await seedDay(ws.accountId, "2026-10-01", [
      { part: 1, lines: [line(1)], missing: true },
      { part: 2, lines: [line(2)] },
    ]);
    const { status, body } = await callJson("GET", "/v1/emails/archives/2026-10-01", { token: ws.token });
    expect(status).toBe(503);
    expect(body).toMatchObject({ code: "archive_unavailable" });

    await seedDay(ws.accountId, "2026-10-02", [
      { part: 1, lines: [line(1)] },
      { part: 2, lines: [line(2)], missing: true },
    ]);
    const broken = await download(ws.token, "2026-10-02");
    expect(broken.status).toBe(200);
    await expect(broken.arrayBuffer()).rejects.toThrow();
  });
});
