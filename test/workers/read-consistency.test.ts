import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { d1RoundTrips } from "../../src/db/counting-d1";
import { parseSimulatedRtt } from "../../src/db/simulated-rtt";
import { BOOKMARK_HEADER } from "../../src/lib/read-consistency";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { call, callJson, errorBody, seedWorkspace, ticketWorkspace } from "./helpers";
import { bookmarkOf, d1Part, fetchWith, namedBookmark, recordingSessions } from "./read-consistency-helpers";

const BOOKMARK = namedBookmark("DB_2");

describe("X-Service-Bookmark on /v1", () => {
  it("comes with every /v1 response that reached the database, successes and errors alike", async () => {
    const { ws, ticket } = await ticketWorkspace("bm");
    const auth = { Authorization: `Bearer ${ws.token}` };
    const answers = [
      await call("GET", "/v1/accounts", { token: ws.token }),
      await call("GET", `/v1/tickets/${ticket.id}`, { token: ws.token }),
      await call("PATCH", `/v1/tickets/${ticket.id}`, { token: ws.token, body: { priority: "high" } }),
      await call("GET", "/v1/tickets/tkt_01HZZZZZZZZZZZZZZZZZZZZZZZ", { token: ws.token }),
      await fetchWith("/v1/customers", { headers: auth }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 404, 200]);
    for (const res of answers) expect(bookmarkOf(res)).toMatch(BOOKMARK);
  });

  it("reads the write it follows when sent back (read-your-writes), and answers a bookmark at least as fresh", async () => {
    const { ws, ticket } = await ticketWorkspace("ryw");
    const patched = await call("PATCH", `/v1/tickets/${ticket.id}`, {
      token: ws.token,
      body: { priority: "urgent" },
    });
    expect(patched.status).toBe(200);
    const written = bookmarkOf(patched);
    expect(written).toMatch(BOOKMARK);

    const read = await callJson<{ priority: string }>("GET", `/v1/tickets/${ticket.id}`, {
      token: ws.token,
      headers: { [BOOKMARK_HEADER]: written },
    });
    expect(read.status).toBe(200);
    expect(read.body.priority).toBe("urgent");
    // D1 orders bookmarks as strings: the session keeps the greatest it has seen.
    expect(d1Part(bookmarkOf(read.res)).localeCompare(d1Part(written))).toBeGreaterThanOrEqual(0);
  });

  it("starts a read's session from the bookmark sent, `any` from any replica, and everything else on the primary", async () => {
    const { ws, ticket } = await ticketWorkspace("start");
    const auth = { Authorization: `Bearer ${ws.token}` };
    const first = await fetchWith(`/v1/tickets/${ticket.id}`, { headers: auth });
    const bookmark = bookmarkOf(first);
    const { binding, starts } = recordingSessions(env.DB_2);
    const over = { DB_2: binding };

    const plain = await fetchWith(`/v1/tickets/${ticket.id}`, { headers: auth }, over);
    const followed = await fetchWith(
      `/v1/tickets/${ticket.id}`,
      { headers: { ...auth, [BOOKMARK_HEADER]: bookmark } },
      over,
    );
    const anyReplica = await fetchWith(
      "/v1/tickets",
      { headers: { ...auth, [BOOKMARK_HEADER]: "any" } },
      over,
    );
    const write = await fetchWith(
      `/v1/tickets/${ticket.id}`,
      { method: "PATCH", headers: { ...auth, [BOOKMARK_HEADER]: bookmark }, body: { priority: "low" } },
      over,
    );
    expect([plain, followed, anyReplica, write].map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(starts).toEqual(["first-primary", d1Part(bookmark), "first-unconstrained", "first-primary"]);
    for (const res of [plain, followed, anyReplica, write]) expect(bookmarkOf(res)).toMatch(BOOKMARK);
  });

  it("echoes the bookmark sent on an answer that reached no database", async () => {
    const ws = await seedWorkspace();
    const bookmark = bookmarkOf(await call("GET", "/v1/accounts", { token: ws.token }));
    const refused = await call("POST", "/v1/tickets", {
      token: ws.token,
      body: { subject: 42 },
      headers: { [BOOKMARK_HEADER]: bookmark },
    });
    expect(refused.status).toBe(400);
    expect(bookmarkOf(refused)).toBe(bookmark);
  });

  it("refuses a malformed bookmark with 400 before any work, on reads and writes", async () => {
    const ws = await seedWorkspace();
    const bookmark = bookmarkOf(await call("GET", "/v1/accounts", { token: ws.token }));
    const malformed = [
      "garbage",
      "ANY",
      `DB_2:A${d1Part(bookmark).slice(1)}`,
      `${bookmark}0`,
      bookmark.replaceAll("-", ""),
      d1Part(bookmark).replaceAll("-", ""),
      "zzzzzzzz-00000001-00000000-00000000000000000000000000000000",
    ];
    for (const value of malformed) {
      for (const method of ["GET", "POST"]) {
        const res = await call(method, "/v1/tickets", {
          token: ws.token,
          headers: { [BOOKMARK_HEADER]: value },
          ...(method === "POST" ? { body: {} } : {}),
        });
        expect(res.status, `${method} with ${value}`).toBe(400);
        expect(await res.json()).toEqual({
          ...errorBody(`Invalid ${BOOKMARK_HEADER}`, "invalid_bookmark"),
          message: expect.stringContaining("unchanged"),
        });
        expect(res.headers.has(BOOKMARK_HEADER)).toBe(false);
      }
    }
  });

  it("counts a read with a bookmark as replica round trips only, and one without as primary", async () => {
    const { ws, ticket } = await ticketWorkspace("copies");
    const auth = { Authorization: `Bearer ${ws.token}` };
    const counting = { ENVIRONMENT: "development", D1_ROUND_TRIPS: "count" };
    const bookmark = bookmarkOf(await fetchWith(`/v1/tickets/${ticket.id}`, { headers: auth }, counting));

    const before = d1RoundTrips().by_copy;
    const read = await fetchWith(
      `/v1/tickets/${ticket.id}`,
      { headers: { ...auth, [BOOKMARK_HEADER]: bookmark } },
      counting,
    );
    expect(read.status).toBe(200);
    const afterRead = d1RoundTrips().by_copy;
    expect(afterRead.replica.fetch).toBeGreaterThan(before.replica.fetch);
    expect(afterRead.primary.fetch).toBe(before.primary.fetch);

    const plain = await fetchWith(`/v1/tickets/${ticket.id}`, { headers: auth }, counting);
    expect(plain.status).toBe(200);
    const afterPlain = d1RoundTrips().by_copy;
    expect(afterPlain.primary.fetch).toBeGreaterThan(afterRead.primary.fetch);
    expect(afterPlain.replica.fetch).toBe(afterRead.replica.fetch);
  });
});

describe("the dashboard's bookmark", () => {
  it("is kept in a cookie of its own, and the next page reads from it", async () => {
    const ws = await seedWorkspace();
    const who = await signIn(ws.accountId);
    const first = await dashboardGet("/dashboard/tickets", who);
    expect(first.status).toBe(200);
    const kept = /(?:^|, )__Secure-bookmark=([^;]+);([^,]*)/.exec(first.headers.get("Set-Cookie") ?? "");
    // Its colon travels percent-encoded in the cookie; the browser sends the value back as set.
    expect(decodeURIComponent(kept?.[1] ?? "")).toMatch(BOOKMARK);
    expect(kept?.[2]).toContain("Path=/dashboard");
    expect(kept?.[2]).toContain("HttpOnly");
    const bookmark = kept?.[1] ?? "";

    const { binding, starts } = recordingSessions(env.DB_2);
    const cookie = `${who.cookie}; __Secure-bookmark=${bookmark}`;
    const page = await fetchWith("/dashboard/tickets", { headers: { Cookie: cookie } }, { DB_2: binding });
    expect(page.status).toBe(200);
    const unreadable = await fetchWith(
      "/dashboard/tickets",
      { headers: { Cookie: `${who.cookie}; __Secure-bookmark=nonsense` } },
      { DB_2: binding },
    );
    expect(unreadable.status).toBe(200);
    expect(starts).toEqual([d1Part(decodeURIComponent(bookmark)), "first-primary"]);
  });

  it("starts a form post on the primary, whatever the cookie says, and keeps the bookmark after its write", async () => {
    const ws = await seedWorkspace();
    const who = await signIn(ws.accountId);
    const bookmark =
      /__Secure-bookmark=([^;]+)/.exec(
        (await dashboardGet("/dashboard", who)).headers.get("Set-Cookie") ?? "",
      )?.[1] ?? "";
    const bookmarkText = decodeURIComponent(bookmark);
    expect(bookmarkText).toMatch(BOOKMARK);
    const { binding, starts } = recordingSessions(env.DB_2);
    const posted = await fetchWith(
      "/dashboard/keys",
      {
        method: "POST",
        headers: {
          Cookie: `${who.cookie}; __Secure-bookmark=${bookmark}`,
          Origin: "http://127.0.0.1:8787",
          "Content-Type": "application/x-www-form-urlencoded",
        },
        form: { _csrf: who.csrf, name: "from the page", permission: "read" },
      },
      { DB_2: binding },
    );
    expect(posted.status).toBe(200);
    expect(starts).toEqual(["first-primary"]);
    const after = decodeURIComponent(
      /__Secure-bookmark=([^;]+)/.exec(posted.headers.get("Set-Cookie") ?? "")?.[1] ?? "",
    );
    expect(after).toMatch(BOOKMARK);
    expect(d1Part(after).localeCompare(d1Part(bookmarkText))).toBeGreaterThan(0);
  });
});

describe("simulated round-trip times", () => {
  it("reads D1_SIMULATED_RTT and refuses anything else", () => {
    expect(parseSimulatedRtt("primary:80,replica:5")).toEqual({ primary_ms: 80, replica_ms: 5 });
    expect(parseSimulatedRtt(" replica : 3 ")).toEqual({ primary_ms: 0, replica_ms: 3 });
    for (const bad of ["", "primary=80", "primary:-1", "primary:80;replica:5", "edge:5"])
      expect(() => parseSimulatedRtt(bad), bad).toThrow(/D1_SIMULATED_RTT must look like/);
  });

  it("has no setting route outside development or when counting is off", async () => {
    const body = { primary_ms: 80, replica_ms: 5 };
    const put = (vars: Record<string, string>) =>
      fetchWith("/_dev/d1-simulated-rtt", { method: "PUT", body }, vars);
    expect((await put({ ENVIRONMENT: "development" })).status).toBe(404);
    expect((await put({ ENVIRONMENT: "production", D1_ROUND_TRIPS: "count" })).status).toBe(404);
  });
});
