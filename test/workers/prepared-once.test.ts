import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createSessionDb } from "../../src/db/client";
import { preparedOnce } from "../../src/db/prepared";
import { accounts } from "../../src/db/schema";
import { seedWorkspace } from "./helpers";

describe("preparedOnce", () => {
  it("builds the query once and runs each call on the caller's own D1 session", async () => {
    const { accountId } = await seedWorkspace();
    let builds = 0;
    const byId = preparedOnce((db) => {
      builds++;
      return db
        .select({ id: accounts.id, name: accounts.name })
        .from(accounts)
        .where(eq(accounts.id, sql.placeholder("id")))
        .prepare();
    });

    const first = env.DB_2.withSession("first-primary");
    const second = env.DB_2.withSession("first-primary");
    expect(await byId(createSessionDb(first)).all({ id: accountId })).toEqual([
      { id: accountId, name: expect.any(String) },
    ]);
    // The second session has run nothing yet: no bookmark of its own until its query runs on it.
    expect(second.getBookmark()).toBeNull();
    const rows = await byId(createSessionDb(second)).all({ id: accountId });
    expect(rows.map((r) => r.id)).toEqual([accountId]);
    expect(second.getBookmark()).toEqual(expect.any(String));
    expect(builds).toBe(1);
    // The mapping (column names to fields) comes from the one built.
    expect(await byId(createSessionDb(second)).get({ id: "acc_none" })).toBeUndefined();
  });
});
