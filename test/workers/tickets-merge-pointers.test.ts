import { describe, expect, it } from "vitest";
import { call, callJson, errorBody, seedInbox, seedWorkspace } from "./helpers";
import { postForm } from "./people-helpers";

type Ticket = {
  id: string;
  status: string;
  shared_uuid: string;
  merged_into_id: string | null;
  message_count: number;
  customer_id: string;
};

/** Two tickets of one customer in one inbox, the first (snoozed first, if asked) merged into the second. */
async function mergedPair(options: { snoozed?: boolean } = {}) {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  const open = async (subject: string) =>
    (
      await callJson<Ticket>("POST", "/v1/tickets", {
        token: ws.token,
        body: {
          inbox_id: inbox.id,
          customer: { email: "ada@example.com" },
          subject,
          message: { body_text: subject },
        },
      })
    ).body;
  const merged = await open("Duplicate");
  const survivor = await open("Original");
  if (options.snoozed) {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await callJson("POST", `/v1/tickets/${merged.id}/manage`, {
      token: ws.token,
      body: { action: "snooze", until },
    });
  }
  const res = await callJson<Ticket>("POST", `/v1/tickets/${merged.id}/manage`, {
    token: ws.token,
    body: { action: "merge", into_ticket_id: survivor.id },
  });
  expect(res.status).toBe(200);
  return { ws, inbox, merged, survivor, answer: res.body };
}

const ticketOf = async (token: string, id: string) =>
  (await callJson<Ticket>("GET", `/v1/tickets/${id}`, { token })).body;

describe("a merged ticket points at its survivor", () => {
  it("shows merged_into_id on GET and in the merge's answer; other tickets show null", async () => {
    const { ws, merged, survivor, answer } = await mergedPair();
    expect(answer).toMatchObject({ status: "closed", merged_into_id: survivor.id });
    expect(await ticketOf(ws.token, merged.id)).toMatchObject({ merged_into_id: survivor.id });
    expect(await ticketOf(ws.token, survivor.id)).toMatchObject({ merged_into_id: null, message_count: 2 });
    expect(merged.merged_into_id).toBeNull();
  });

  it("a merge ends the merged ticket's snooze, so no wake ever reopens it", async () => {
    const { ws, merged } = await mergedPair({ snoozed: true });
    expect(await ticketOf(ws.token, merged.id)).toMatchObject({ status: "closed", snoozed_until: null });
  });

  it("its public page redirects to the survivor's, which shows both conversations", async () => {
    const { ws, merged, survivor } = await mergedPair();
    const res = await call("GET", `/portal/tickets/${merged.shared_uuid}?w=${ws.accountId}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/portal/tickets/${survivor.shared_uuid}?w=${ws.accountId}`);
    const page = await call("GET", `/portal/tickets/${survivor.shared_uuid}`);
    const html = await page.text();
    expect(html).toContain("Duplicate");
    expect(html).toContain("Original");
    // A link without the workspace (as made before) leads there too.
    const bare = await call("GET", `/portal/tickets/${merged.shared_uuid}`);
    expect(bare.headers.get("Location")).toBe(`/portal/tickets/${survivor.shared_uuid}?w=${ws.accountId}`);
  });

  it("a reply posted from its public page lands on the survivor", async () => {
    const { ws, merged, survivor } = await mergedPair();
    const res = await postForm(`/portal/tickets/${merged.shared_uuid}/messages?w=${ws.accountId}`, {
      message: "Any news?",
      website: "",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toMatch(
      new RegExp(`^/portal/tickets/${survivor.shared_uuid}\\?w=${ws.accountId}#msg_`),
    );
    expect(await ticketOf(ws.token, survivor.id)).toMatchObject({ message_count: 3 });
    expect(await ticketOf(ws.token, merged.id)).toMatchObject({ message_count: 0 });
  });

  it("refuses writes to the merged ticket with 409 ticket_merged naming the survivor, and changes nothing", async () => {
    const { ws, merged, survivor } = await mergedPair();
    const before = await ticketOf(ws.token, merged.id);
    const writes: Array<[string, string, unknown]> = [
      ["POST", `/v1/tickets/${merged.id}/messages`, { type: "note", body_text: "x" }],
      ["PATCH", `/v1/tickets/${merged.id}`, { subject: "Renamed" }],
      ["POST", `/v1/tickets/${merged.id}/manage`, { action: "reopen" }],
      ["POST", `/v1/tickets/${merged.id}/manage`, { action: "merge", into_ticket_id: survivor.id }],
      ["POST", `/v1/tickets/${merged.id}/tags`, { name: "vip" }],
    ];
    for (const [method, path, body] of writes) {
      const res = await callJson(method, path, { token: ws.token, body });
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body).toEqual({
        ...errorBody("Ticket merged", "ticket_merged"),
        message: `${merged.id} was merged into ${survivor.id}; write to that ticket instead.`,
      });
    }
    expect(await ticketOf(ws.token, merged.id)).toEqual(before);
    expect((await call("DELETE", `/v1/tickets/${merged.id}`, { token: ws.token })).status).toBe(200);
  });

  it("refuses to merge tickets of two customers with 400, and moves nothing", async () => {
    const ws = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const open = async (email: string) =>
      (
        await callJson<Ticket>("POST", "/v1/tickets", {
          token: ws.token,
          body: { inbox_id: inbox.id, customer: { email }, subject: email, message: { body_text: email } },
        })
      ).body;
    const source = await open("ada@example.com");
    const target = await open("bob@example.com");
    const res = await callJson("POST", `/v1/tickets/${source.id}/manage`, {
      token: ws.token,
      body: { action: "merge", into_ticket_id: target.id },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      ...errorBody("Ticket of another customer", "merge_other_customer"),
      message: `${source.id} is ${source.customer_id}'s and ${target.id} is ${target.customer_id}'s; tickets merge only within one customer's.`,
    });
    expect(await ticketOf(ws.token, source.id)).toMatchObject({
      status: "open",
      message_count: 1,
      merged_into_id: null,
    });
  });
});
