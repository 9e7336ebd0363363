import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { customers, inboxes, tickets, ticketTags } from "../../src/db/schema";
import { findTagsByIds, updateTag } from "../../src/features/tags/tags.repo";
import { tagNameKey } from "../../src/features/tags/tags.service";
import { newId } from "../../src/lib/ids";
import { isUniqueViolation } from "../../src/lib/unique-violation";
import { addKey, call, callJson, db, errorBody, seedWorkspace } from "./helpers";

type Tag = { id: string; inbox_id: string; name: string; color: string | null; created_at: string };
type TagList = { data: Tag[]; count: number };

async function addInbox(accountId: string) {
  const id = newId("inb");
  const now = Date.now();
  await db()
    .insert(inboxes)
    .values({
      id,
      accountId,
      name: "Support",
      emailAddress: `${id.toLowerCase()}@support.test`,
      createdAt: now,
      updatedAt: now,
    });
  return id;
}

async function createTag(token: string, body: Record<string, unknown>) {
  const { status, body: tag } = await callJson<Tag>("POST", "/v1/tags", { token, body });
  expect(status).toBe(201);
  return tag;
}

describe("tags API", () => {
  it("creates, gets, and lists a tag with the documented shape", async () => {
    const ws = await seedWorkspace();
    const inboxId = await addInbox(ws.accountId);
    const tag = await createTag(ws.token, { inbox_id: inboxId, name: "  Billing ", color: "#3B82F6" });
    expect(tag).toEqual({
      id: expect.stringMatching(/^tag_[0-9A-HJKMNP-TV-Z]{26}$/),
      inbox_id: inboxId,
      name: "Billing",
      color: "#3b82f6",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const plain = await createTag(ws.token, { inbox_id: inboxId, name: "Plain" });
    expect(plain.color).toBeNull();
    expect((await callJson("GET", `/v1/tags/${tag.id}`, { token: ws.token })).body).toEqual(tag);
    const list = await callJson<TagList>("GET", "/v1/tags", { token: ws.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [plain, tag], count: 2 });
  });

  it("refuses a duplicate name in the same inbox in any case, but not in another inbox", async () => {
    const ws = await seedWorkspace();
    const inboxA = await addInbox(ws.accountId);
    const inboxB = await addInbox(ws.accountId);
    await createTag(ws.token, { inbox_id: inboxA, name: "Urgent" });
    const dup = await callJson("POST", "/v1/tags", {
      token: ws.token,
      body: { inbox_id: inboxA, name: "uRGENT " },
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      ...errorBody("Tag already exists", "tag_exists"),
      message: expect.any(String),
    });
    await createTag(ws.token, { inbox_id: inboxB, name: "urgent" });
  });

  it("filters the list by inbox, newest first, and keeps other workspaces out", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const inboxA = await addInbox(ws.accountId);
    const inboxB = await addInbox(ws.accountId);
    const a1 = await createTag(ws.token, { inbox_id: inboxA, name: "one" });
    const b1 = await createTag(ws.token, { inbox_id: inboxB, name: "two" });
    const a2 = await createTag(ws.token, { inbox_id: inboxA, name: "three" });
    await createTag(other.token, { inbox_id: await addInbox(other.accountId), name: "theirs" });
    const ids = async (query: string) => {
      const { body } = await callJson<TagList>("GET", `/v1/tags${query}`, { token: ws.token });
      expect(body.count).toBe(body.data.length);
      return body.data.map((t) => t.id);
    };
    expect(await ids("")).toEqual([a2.id, b1.id, a1.id]);
    expect(await ids(`?inbox_id=${inboxA}`)).toEqual([a2.id, a1.id]);
    expect(await ids(`?inbox_id=${inboxB}`)).toEqual([b1.id]);
    expect(await ids("?inbox_id=inb_unknown")).toEqual([]);
  });

  it.each([
    ["a bad color", { name: "x", color: "blue" }],
    ["a short color", { name: "x", color: "#fff" }],
    ["an empty name", { name: "   " }],
    ["a 51-character name", { name: "x".repeat(51) }],
    ["an unknown field", { name: "x", emoji: "🔥" }],
  ])("refuses %s with 400", async (_name, body) => {
    const ws = await seedWorkspace();
    const inboxId = await addInbox(ws.accountId);
    const res = await callJson("POST", "/v1/tags", { token: ws.token, body: { inbox_id: inboxId, ...body } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error" });
  });

  it("accepts a 50-character name and refuses a missing inbox_id with 400", async () => {
    const ws = await seedWorkspace();
    const inboxId = await addInbox(ws.accountId);
    await createTag(ws.token, { inbox_id: inboxId, name: "x".repeat(50) });
    expect((await call("POST", "/v1/tags", { token: ws.token, body: { name: "x" } })).status).toBe(400);
  });

  it("answers 404 for an inbox that is not the workspace's", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const theirInbox = await addInbox(other.accountId);
    for (const inboxId of [theirInbox, "inb_missing"]) {
      const res = await callJson("POST", "/v1/tags", {
        token: ws.token,
        body: { inbox_id: inboxId, name: "x" },
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "Not found", code: "not_found" });
    }
  });

  it("renames and recolors, keeps the 409 rule, and allows a change of case of its own name", async () => {
    const ws = await seedWorkspace();
    const inboxId = await addInbox(ws.accountId);
    const tag = await createTag(ws.token, { inbox_id: inboxId, name: "bug", color: "#ff0000" });
    await createTag(ws.token, { inbox_id: inboxId, name: "Feature" });
    const patch = (body: unknown) => callJson<Tag>("PATCH", `/v1/tags/${tag.id}`, { token: ws.token, body });

    expect((await patch({ name: "Bug" })).body).toMatchObject({ name: "Bug", color: "#ff0000" });
    expect((await patch({ color: null })).body).toEqual({ ...tag, name: "Bug", color: null });
    expect((await patch({ name: "Defect", color: "#00FF00" })).body).toMatchObject({
      name: "Defect",
      color: "#00ff00",
    });
    const dup = await patch({ name: "FEATURE" });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: "Tag already exists", code: "tag_exists" });
    for (const body of [{}, { color: "red" }, { inbox_id: inboxId }]) {
      expect((await patch(body)).status).toBe(400);
    }
  });

  it("answers a unique violation that slips past the check as a recognisable error", async () => {
    const ws = await seedWorkspace();
    const inboxId = await addInbox(ws.accountId);
    const tag = await createTag(ws.token, { inbox_id: inboxId, name: "a" });
    await createTag(ws.token, { inbox_id: inboxId, name: "b" });
    const error = await updateTag(db(), ws.accountId, tag.id, { name: "B", nameKey: tagNameKey("B") }).catch(
      (e: unknown) => e,
    );
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("deletes a tag and its ticket links, keeping the ticket", async () => {
    const ws = await seedWorkspace();
    const inboxId = await addInbox(ws.accountId);
    const tag = await createTag(ws.token, { inbox_id: inboxId, name: "gone" });
    const now = Date.now();
    const customerId = newId("cus");
    const ticketId = newId("tkv");
    await db().insert(customers).values({
      id: customerId,
      accountId: ws.accountId,
      email: "t@example.com",
      createdAt: now,
      updatedAt: now,
    });
    await db()
      .insert(tickets)
      .values({
        id: ticketId,
        accountId: ws.accountId,
        inboxId,
        customerId,
        number: 1,
        clientId: "SUP-00001",
        subject: "Tagged",
        sharedUuid: newId("shr"),
        createdAt: now,
        updatedAt: now,
      });
    await db()
      .insert(ticketTags)
      .values({ ticketId, tagId: tag.id, accountId: ws.accountId, createdAt: now });

    expect((await callJson("DELETE", `/v1/tags/${tag.id}`, { token: ws.token })).body).toEqual({
      id: tag.id,
      deleted: true,
    });
    expect((await call("GET", `/v1/tags/${tag.id}`, { token: ws.token })).status).toBe(404);
    expect((await call("DELETE", `/v1/tags/${tag.id}`, { token: ws.token })).status).toBe(404);
    const links = await env.DB_2.prepare("SELECT count(*) AS n FROM ticket_tags WHERE tag_id = ?")
      .bind(tag.id)
      .first<{ n: number }>();
    expect(links?.n).toBe(0);
    const ticket = await env.DB_2.prepare("SELECT id FROM tickets WHERE id = ?").bind(ticketId).first();
    expect(ticket).not.toBeNull();
  });

  it("answers 404 for another workspace's tag on every route", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    const theirs = await createTag(b.token, { inbox_id: await addInbox(b.accountId), name: "theirs" });
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "mine" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await callJson(method, `/v1/tags/${theirs.id}`, { token: a.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body).toMatchObject({ code: "not_found" });
    }
    expect((await callJson<Tag>("GET", `/v1/tags/${theirs.id}`, { token: b.token })).body.name).toBe(
      "theirs",
    );
  });

  it("lets read keys read and refuses them every write with 403", async () => {
    const ws = await seedWorkspace();
    const read = await addKey(ws.accountId, "read");
    const write = await addKey(ws.accountId, "write");
    const inboxId = await addInbox(ws.accountId);
    const tag = await createTag(write.token, { inbox_id: inboxId, name: "w" });
    expect((await call("GET", "/v1/tags", { token: read.token })).status).toBe(200);
    expect((await call("GET", `/v1/tags/${tag.id}`, { token: read.token })).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", "/v1/tags", { inbox_id: inboxId, name: "r" }],
      ["PATCH", `/v1/tags/${tag.id}`, { name: "r" }],
      ["DELETE", `/v1/tags/${tag.id}`, undefined],
    ] as const) {
      expect((await call(method, path, { token: read.token, body })).status, method).toBe(403);
    }
  });
});

describe("findTagsByIds", () => {
  it("answers the workspace's tags among the ids and leaves out the rest", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    const inboxId = await addInbox(a.accountId);
    const one = await createTag(a.token, { inbox_id: inboxId, name: "one" });
    const two = await createTag(a.token, { inbox_id: inboxId, name: "two" });
    const theirs = await createTag(b.token, { inbox_id: await addInbox(b.accountId), name: "x" });
    const found = await findTagsByIds(db(), a.accountId, [one.id, two.id, theirs.id, "tag_missing"]);
    expect(found.map((t) => t.id)).toEqual([two.id, one.id]);
    expect(await findTagsByIds(db(), a.accountId, [])).toEqual([]);
    // Far more ids than D1's 100 bound parameters.
    const many = [...Array.from({ length: 500 }, (_, i) => `tag_${i}`), one.id];
    expect((await findTagsByIds(db(), a.accountId, many)).map((t) => t.id)).toEqual([one.id]);
  });
});
