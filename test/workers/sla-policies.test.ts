import { describe, expect, it } from "vitest";
import { addKey, callJson, seedInbox, seedWorkspace } from "./helpers";

const office = {
  timezone: "Europe/Paris",
  schedule: {
    mon: [["09:00", "17:00"]],
    fri: [
      ["09:00", "12:00"],
      ["13:00", "17:00"],
    ],
  },
  holidays: ["2026-12-25"],
};
const targets = {
  urgent: { first_response: 30, next_response: 60, resolution: 480 },
  normal: { resolution: 2880 },
};

async function desk() {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  return { ws, inbox };
}

describe("SLA policies", () => {
  it("are created by admins with their defaults, read with a read key, updated and deleted", async () => {
    const { ws, inbox } = await desk();
    const created = await callJson<Record<string, unknown>>("POST", "/v1/sla-policies", {
      token: ws.token,
      body: { name: "Standard", inbox_ids: [inbox.id], targets, hours: office },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      name: "Standard",
      inbox_ids: [inbox.id],
      hours: office,
      pause_statuses: ["pending", "on_hold"],
      warning_before: 30,
      enabled: true,
      targets: {
        urgent: { first_response: 30, next_response: 60, resolution: 480 },
        normal: { first_response: null, next_response: null, resolution: 2880 },
        low: { first_response: null, next_response: null, resolution: null },
      },
    });
    expect(created.body.id).toMatch(/^sla_/);
    const id = created.body.id as string;

    const reader = await addKey(ws.accountId, "read");
    const list = await callJson<{ data: Array<{ id: string }>; count: number }>("GET", "/v1/sla-policies", {
      token: reader.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p) => p.id)).toEqual([id]);
    const writer = await addKey(ws.accountId, "write");
    const refused = await callJson("POST", "/v1/sla-policies", {
      token: writer.token,
      body: { name: "Nope", targets: {} },
    });
    expect(refused.status).toBe(403);

    const patched = await callJson("PATCH", `/v1/sla-policies/${id}`, {
      token: ws.token,
      body: { hours: "calendar", warning_before: 10, inbox_ids: [], enabled: false },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      hours: "calendar",
      warning_before: 10,
      inbox_ids: [],
      enabled: false,
    });
    const deleted = await callJson("DELETE", `/v1/sla-policies/${id}`, { token: ws.token });
    expect(deleted.body).toEqual({ id, deleted: true });
    expect((await callJson("GET", `/v1/sla-policies/${id}`, { token: ws.token })).status).toBe(404);
  });

  it("refuses bad input with a clear 400, and a schedule with no working hours", async () => {
    const { ws } = await desk();
    const bad = [
      { name: "x", targets: { urgent: { first_response: 0 } } },
      { name: "x", targets: { asap: {} } },
      {
        name: "x",
        targets: {},
        hours: { timezone: "Mars/Olympus", schedule: { mon: [["09:00", "17:00"]] } },
      },
      { name: "x", targets: {}, hours: { timezone: "UTC", schedule: {} } },
      { name: "x", targets: {}, hours: { timezone: "UTC", schedule: { mon: [["17:00", "09:00"]] } } },
      { name: "x", targets: {}, hours: { timezone: "UTC", schedule: { mon: [["09:00", "25:00"]] } } },
      {
        name: "x",
        targets: {},
        hours: {
          timezone: "UTC",
          schedule: {
            mon: [
              ["09:00", "13:00"],
              ["12:00", "17:00"],
            ],
          },
        },
      },
      {
        name: "x",
        targets: {},
        hours: { timezone: "UTC", schedule: { mon: [["09:00", "17:00"]] }, holidays: ["2026-02-30"] },
      },
      { name: "x", targets: {}, pause_statuses: ["open"] },
      { name: "x", targets: {}, warning_before: -1 },
    ];
    for (const body of bad) {
      const res = await callJson<{ code: string; message: string }>("POST", "/v1/sla-policies", {
        token: ws.token,
        body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("validation_error");
    }
  });

  it("keeps an inbox under one policy (409) and another workspace's ids are 404", async () => {
    const { ws, inbox } = await desk();
    const first = await callJson<{ id: string }>("POST", "/v1/sla-policies", {
      token: ws.token,
      body: { name: "A", inbox_ids: [inbox.id], targets },
    });
    expect(first.status).toBe(201);
    const second = await callJson<{ code: string }>("POST", "/v1/sla-policies", {
      token: ws.token,
      body: { name: "B", inbox_ids: [inbox.id], targets },
    });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("inbox_has_sla_policy");
    // Two at once for a free inbox: one wins, the other is a 409, never a 500.
    const free = await seedInbox(ws.accountId);
    const raced = await Promise.all(
      ["C", "D"].map((name) =>
        callJson("POST", "/v1/sla-policies", {
          token: ws.token,
          body: { name, inbox_ids: [free.id], targets },
        }),
      ),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409]);

    const other = await desk();
    expect(
      (await callJson("GET", `/v1/sla-policies/${first.body.id}`, { token: other.ws.token })).status,
    ).toBe(404);
    expect(
      (
        await callJson("PATCH", `/v1/sla-policies/${first.body.id}`, {
          token: other.ws.token,
          body: { name: "Z" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await callJson("DELETE", `/v1/sla-policies/${first.body.id}`, { token: other.ws.token })).status,
    ).toBe(404);
    const foreignInbox = await callJson("POST", "/v1/sla-policies", {
      token: other.ws.token,
      body: { name: "E", inbox_ids: [inbox.id], targets },
    });
    expect(foreignInbox.status).toBe(404);
  });
});
