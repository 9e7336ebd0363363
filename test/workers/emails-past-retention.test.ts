import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { ulid } from "ulid";
import { describe, expect, it } from "vitest";
import { d1RoundTrips } from "../../src/db/counting-d1";
import worker from "../../src/index";
import { DAY_MS, dayLabel, keptFrom } from "../../src/lib/email-retention";
import { call, callJson, errorBody, sendingWorkspace, shardD1Of } from "./helpers";

const emailIdAt = (time: number) => `eml_${ulid(time)}`;
const labelOf = (time: number) => dayLabel(Math.floor(time / DAY_MS));

/** The per-email endpoints that share the lookup, each asked about `id`. */
const perEmail = (token: string, id: string) => [
  callJson("GET", `/v1/emails/${id}`, { token }),
  callJson("GET", `/v1/emails/${id}/content`, { token }),
  callJson("PATCH", `/v1/emails/${id}`, { token, body: { scheduled_at: new Date().toISOString() } }),
  callJson("POST", `/v1/emails/${id}/cancel`, { token }),
];

async function sendOne(ws: { token: string; domain: string }) {
  const sent = await callJson<{ id: string }>("POST", "/v1/emails", {
    token: ws.token,
    body: { from: `a@${ws.domain}`, to: "b@example.com", subject: "x", text: "x" },
  });
  expect(sent.status).toBe(200);
  return sent.body.id;
}

describe("an email past the workspace's retention", () => {
  it("answers 404 naming the day, the retention and that day's archive", async () => {
    const ws = await sendingWorkspace("gone.test", { plan: "free" });
    const acceptedAt = Date.now() - 40 * DAY_MS;
    const id = emailIdAt(acceptedAt);
    const day = labelOf(acceptedAt);
    for (const answer of await Promise.all(perEmail(ws.token, id))) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ ...errorBody("Not found", "not_found"), message: expect.any(String) });
      const message = answer.body.message as string;
      expect(message).toContain(`accepted on ${day}`);
      expect(message).toContain("30-day email retention");
      expect(message).toContain(`GET /v1/emails/archives/${day}`);
    }
  });

  it("follows a lowered retention, to the whole UTC day", async () => {
    const ws = await sendingWorkspace("lowered.test", { plan: "pro" });
    await callJson("PATCH", `/v1/accounts/${ws.accountId}`, {
      token: ws.token,
      body: { email_retention: "2d" },
    });
    // The last instant before the cutoff is gone (the cutoff only moves later as the clock runs).
    const justBefore = keptFrom(Date.now(), 2) - 1;
    const { body } = await callJson("GET", `/v1/emails/${emailIdAt(justBefore)}`, { token: ws.token });
    expect(body.message).toContain(
      `accepted on ${labelOf(justBefore)}, past this workspace's 2-day email retention`,
    );
    expect(body.message).toContain(`GET /v1/emails/archives/${labelOf(justBefore)}`);
  });

  it("keeps the usual 404 for an id dated within retention, and for ids that date nothing", async () => {
    const ws = await sendingWorkspace("within.test", { plan: "free" });
    const ids = [
      emailIdAt(Date.now() - 5 * DAY_MS),
      emailIdAt(Date.now() + DAY_MS),
      "eml_nope",
      `eml_${ulid(Date.now() - 40 * DAY_MS).toLowerCase()}`,
      "eml_ZZZZZZZZZZZZZZZZZZZZZZZZZZ",
      `acc_${ulid(Date.now() - 40 * DAY_MS)}`,
    ];
    for (const id of ids) {
      for (const answer of await Promise.all(perEmail(ws.token, id))) {
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({
          ...errorBody("Not found", "not_found"),
          message: `Email ${id} does not exist in this workspace.`,
        });
      }
    }
  });

  it("shows an old email still there as it is, reading no retention for a found email", async () => {
    const ws = await sendingWorkspace("found.test", { plan: "free" });
    const recent = await sendOne(ws);
    const old = emailIdAt(Date.now() - 40 * DAY_MS);
    const moved = await sendOne(ws);
    await shardD1Of().prepare("UPDATE emails SET id = ? WHERE id = ?").bind(old, moved).run();
    const shown = await callJson<{ id: string }>("GET", `/v1/emails/${old}`, { token: ws.token });
    expect(shown.status).toBe(200);
    expect(shown.body.id).toBe(old);

    const auth = { Authorization: `Bearer ${ws.token}` };
    const roundTrips = async (id: string) => {
      const before = d1RoundTrips().by_entry.fetch;
      const ctx = createExecutionContext();
      const request = new Request(`http://127.0.0.1:8787/v1/emails/${id}`, { headers: auth });
      const vars = { ENVIRONMENT: "development", D1_ROUND_TRIPS: "count" };
      const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx);
      await waitOnExecutionContext(ctx);
      await res.arrayBuffer();
      return { status: res.status, trips: d1RoundTrips().by_entry.fetch - before };
    };
    const found = await roundTrips(recent);
    expect(found.status).toBe(200);
    expect(await roundTrips(old)).toEqual(found);
    // A 404 reads the retention only for an id old enough to be past some retention.
    const today = await roundTrips(emailIdAt(Date.now()));
    const gone = await roundTrips(emailIdAt(Date.now() - 40 * DAY_MS));
    expect(today).toEqual({ status: 404, trips: found.trips });
    expect(gone).toEqual({ status: 404, trips: found.trips + 1 });
  });

  it("answers another workspace's old email as it answers an unknown id of the same day", async () => {
    const owner = await sendingWorkspace("theirs.test", { plan: "free" });
    const other = await sendingWorkspace("mine.test", { plan: "free" });
    const at = Date.now() - 40 * DAY_MS;
    const theirs = emailIdAt(at);
    const unknown = emailIdAt(at);
    await shardD1Of()
      .prepare("UPDATE emails SET id = ? WHERE id = ?")
      .bind(theirs, await sendOne(owner))
      .run();
    expect((await call("GET", `/v1/emails/${theirs}`, { token: owner.token })).status).toBe(200);
    const asked = await callJson("GET", `/v1/emails/${theirs}`, { token: other.token });
    const guessed = await callJson("GET", `/v1/emails/${unknown}`, { token: other.token });
    expect([asked.status, guessed.status]).toEqual([404, 404]);
    expect(asked.body.message).toContain("30-day email retention");
    expect((asked.body.message as string).replace(theirs, "ID")).toBe(
      (guessed.body.message as string).replace(unknown, "ID"),
    );
  });
});
