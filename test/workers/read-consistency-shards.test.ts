import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BOOKMARK_HEADER } from "../../src/lib/read-consistency";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { errorBody, seedWorkspace } from "./helpers";
import {
  bookmarkOf,
  D1_BOOKMARK,
  d1Part,
  fetchWith,
  namedBookmark,
  recordingSessions,
} from "./read-consistency-helpers";

/** A bookmark of `d1` as D1 itself hands it out: the unnamed form the service answered before shards. */
async function unnamedBookmarkOf(d1: D1Database) {
  const session = d1.withSession("first-primary");
  await session.prepare("SELECT 1").run();
  const bookmark = session.getBookmark() ?? "";
  expect(bookmark).toMatch(D1_BOOKMARK);
  return bookmark;
}

/** A read of a workspace's tickets, with the bookmark header when one is given. */
const readTickets = (token: string, bookmark?: string, over: Record<string, unknown> = {}) =>
  fetchWith(
    "/v1/tickets",
    { headers: { Authorization: `Bearer ${token}`, ...(bookmark ? { [BOOKMARK_HEADER]: bookmark } : {}) } },
    over,
  );

describe("X-Service-Bookmark with several shards", () => {
  it("names the shard it came from, and sent back starts that shard's session from it", async () => {
    const onDb2 = await seedWorkspace();
    const onDb = await seedWorkspace({ shard: "DB" });
    const fromDb2 = bookmarkOf(await readTickets(onDb2.token));
    expect(fromDb2).toMatch(namedBookmark("DB_2"));
    expect(bookmarkOf(await readTickets(onDb.token))).toMatch(namedBookmark("DB"));

    const { binding, starts } = recordingSessions(env.DB_2);
    const followed = await readTickets(onDb2.token, fromDb2, { DB_2: binding });
    expect(followed.status).toBe(200);
    expect(starts).toEqual([d1Part(fromDb2)]);
    expect(bookmarkOf(followed)).toMatch(namedBookmark("DB_2"));
    // D1 orders bookmarks as strings: the session keeps the greatest it has seen.
    expect(d1Part(bookmarkOf(followed)).localeCompare(d1Part(fromDb2))).toBeGreaterThanOrEqual(0);
  });

  it("starts on the primary, never a 400, for a bookmark of another shard or of a shard no longer configured", async () => {
    const onDb2 = await seedWorkspace();
    const onDb = await seedWorkspace({ shard: "DB" });
    const fromDb2 = bookmarkOf(await readTickets(onDb2.token));
    const fromDb = bookmarkOf(await readTickets(onDb.token));
    const db = recordingSessions(env.DB);
    const db2 = recordingSessions(env.DB_2);
    const over = { DB: db.binding, DB_2: db2.binding };

    const answers = [
      await readTickets(onDb.token, fromDb2, over),
      await readTickets(onDb.token, `GONE:${d1Part(fromDb)}`, over),
      await readTickets(onDb2.token, fromDb, over),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(db.starts).toEqual(["first-primary", "first-primary"]);
    expect(db2.starts).toEqual(["first-primary"]);
    // Each answers the bookmark of the shard it read.
    expect(answers.map((res) => bookmarkOf(res).split(":")[0])).toEqual(["DB", "DB", "DB_2"]);
  });

  it("counts an unnamed bookmark (sent by a client holding one across the deploy) as DB's", async () => {
    const onDb = await seedWorkspace({ shard: "DB" });
    const onDb2 = await seedWorkspace();
    const unnamed = await unnamedBookmarkOf(env.DB);
    const db = recordingSessions(env.DB);
    const db2 = recordingSessions(env.DB_2);
    const over = { DB: db.binding, DB_2: db2.binding };

    const onItsShard = await readTickets(onDb.token, unnamed, over);
    const elsewhere = await readTickets(onDb2.token, unnamed, over);
    expect([onItsShard.status, elsewhere.status]).toEqual([200, 200]);
    expect(db.starts).toEqual([unnamed]);
    expect(db2.starts).toEqual(["first-primary"]);
    expect(bookmarkOf(onItsShard)).toMatch(namedBookmark("DB"));
    expect(bookmarkOf(elsewhere)).toMatch(namedBookmark("DB_2"));
  });

  it("reads any replica of every shard with `any`", async () => {
    const onDb = await seedWorkspace({ shard: "DB" });
    const onDb2 = await seedWorkspace();
    const db = recordingSessions(env.DB);
    const db2 = recordingSessions(env.DB_2);
    const over = { DB: db.binding, DB_2: db2.binding };

    const answers = [await readTickets(onDb.token, "any", over), await readTickets(onDb2.token, "any", over)];
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    expect([db.starts, db2.starts]).toEqual([["first-unconstrained"], ["first-unconstrained"]]);
    expect(bookmarkOf(answers[0] as Response)).toMatch(namedBookmark("DB"));
    expect(bookmarkOf(answers[1] as Response)).toMatch(namedBookmark("DB_2"));
  });

  it("refuses a malformed bookmark, named or not, with 400, and takes any well-formed shard name", async () => {
    const ws = await seedWorkspace();
    const d1 = d1Part(bookmarkOf(await readTickets(ws.token)));
    expect(d1).toMatch(D1_BOOKMARK);
    const malformed = [
      "DB_2:garbage",
      `:${d1}`,
      `DB_2:`,
      `DB-2:${d1}`,
      `2DB:${d1}`,
      `DB 2:${d1}`,
      "DB_2:any",
      `DB_2:DB_2:${d1}`,
      `${d1}:DB_2`,
      `DB_2:${d1}0`,
    ];
    for (const value of malformed) {
      const res = await readTickets(ws.token, value);
      expect(res.status, value).toBe(400);
      expect(await res.json()).toEqual({
        ...errorBody(`Invalid ${BOOKMARK_HEADER}`, "invalid_bookmark"),
        message: expect.stringContaining("unchanged"),
      });
    }
    // A name no shard has is not malformed: a shard removed from the configuration.
    for (const shard of ["DB_9", "db", "_old", "Shard$1"])
      expect((await readTickets(ws.token, `${shard}:${d1}`)).status, shard).toBe(200);
  });
});

describe("the dashboard's bookmark cookie with several shards", () => {
  it("names its shard; another shard's, or an unnamed one (DB's), starts the workspace's shard on the primary", async () => {
    const ws = await seedWorkspace();
    const who = await signIn(ws.accountId);
    const cookieOf = (res: Response) =>
      /__Secure-bookmark=([^;]+)/.exec(res.headers.get("Set-Cookie") ?? "")?.[1];
    const kept = cookieOf(await dashboardGet("/dashboard/tickets", who)) ?? "";
    expect(decodeURIComponent(kept)).toMatch(namedBookmark("DB_2"));
    const d1 = d1Part(decodeURIComponent(kept));

    const { binding, starts } = recordingSessions(env.DB_2);
    const page = (bookmark: string) =>
      fetchWith(
        "/dashboard/tickets",
        { headers: { Cookie: `${who.cookie}; __Secure-bookmark=${bookmark}` } },
        { DB_2: binding },
      );
    const pages = [await page(kept), await page(`DB:${d1}`), await page(d1)];
    expect(pages.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(starts).toEqual([d1, "first-primary", "first-primary"]);
    // The page read from another shard's or an unnamed cookie keeps a named one of its own shard.
    for (const res of pages.slice(1))
      expect(decodeURIComponent(cookieOf(res) ?? "")).toMatch(namedBookmark("DB_2"));
  });
});
