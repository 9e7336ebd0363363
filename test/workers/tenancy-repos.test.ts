import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/client";
import { inboxesUsing, updateConnection } from "../../src/features/connections/connections.repo";
import { createConnection } from "../../src/features/connections/connections.service";
import {
  attachmentKeysUnder,
  attachmentsOf,
  messageQueries,
  threadMessageIds,
} from "../../src/features/messages/messages.repo";
import { bumpTicketStatement } from "../../src/features/messages/ticket-activity";
import { ticketTagsQuery, unlinkTagStatement } from "../../src/features/tickets/ticket-tags.repo";
import { deleteTicketStatement, updateTicketStatement } from "../../src/features/tickets/tickets.repo";
import { callJson, db, seedInbox, seedWorkspace } from "./helpers";

/**
 * The repos are called after the service has checked ownership; they also carry the account id,
 * so that a missed check cannot reach another workspace's rows. Each case calls a repo function as
 * a stranger with the owner's row id (nothing may change or be seen), then as the owner (it works).
 */

async function ownedTicket() {
  const owner = await seedWorkspace();
  const stranger = await seedWorkspace();
  const inbox = await seedInbox(owner.accountId);
  const ticket = (
    await callJson<{ id: string }>("POST", "/v1/tickets", {
      token: owner.token,
      body: {
        inbox_id: inbox.id,
        customer: { email: "ada@example.com" },
        subject: "Mine",
        tags: ["vip"],
        message: { body_text: "hello" },
      },
    })
  ).body;
  const message = (
    await callJson<{ id: string }>("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: owner.token,
      body: { type: "note", body_text: "log", attachments: [{ filename: "a.txt", content: btoa("abc") }] },
    })
  ).body;
  const tagId = (
    await env.DB_2.prepare("SELECT tag_id FROM ticket_tags WHERE ticket_id = ?").bind(ticket.id).first<{
      tag_id: string;
    }>()
  )?.tag_id as string;
  return {
    owner: owner.accountId,
    stranger: stranger.accountId,
    inbox,
    ticketId: ticket.id,
    messageId: message.id,
    tagId,
  };
}

const subjectOf = async (ticketId: string) =>
  (
    await env.DB_2.prepare("SELECT subject FROM tickets WHERE id = ?")
      .bind(ticketId)
      .first<{ subject: string }>()
  )?.subject;
const tagLinks = async (ticketId: string) =>
  (
    await env.DB_2.prepare("SELECT count(*) AS n FROM ticket_tags WHERE ticket_id = ?")
      .bind(ticketId)
      .first<{ n: number }>()
  )?.n;

describe("ticket writes carry the account id", () => {
  it("updateTicketStatement", async () => {
    const t = await ownedTicket();
    await updateTicketStatement(db(), t.stranger, t.ticketId, { subject: "hijacked" });
    expect(await subjectOf(t.ticketId)).toBe("Mine");
    await updateTicketStatement(db(), t.owner, t.ticketId, { subject: "renamed" });
    expect(await subjectOf(t.ticketId)).toBe("renamed");
  });

  it("bumpTicketStatement", async () => {
    const t = await ownedTicket();
    const count = async () =>
      (
        await env.DB_2.prepare("SELECT message_count AS n FROM tickets WHERE id = ?")
          .bind(t.ticketId)
          .first<{ n: number }>()
      )?.n;
    const before = await count();
    await runBatch(db(), [bumpTicketStatement(t.stranger, t.ticketId, "reply", "closed", Date.now())]);
    expect(await count()).toBe(before);
    await runBatch(db(), [bumpTicketStatement(t.owner, t.ticketId, "reply", "closed", Date.now())]);
    expect(await count()).toBe((before ?? 0) + 1);
  });

  it("deleteTicketStatement", async () => {
    const t = await ownedTicket();
    await deleteTicketStatement(db(), t.stranger, t.ticketId);
    expect(await subjectOf(t.ticketId)).toBe("Mine");
    await deleteTicketStatement(db(), t.owner, t.ticketId);
    expect(await subjectOf(t.ticketId)).toBeUndefined();
  });

  it("unlinkTagStatement", async () => {
    const t = await ownedTicket();
    await unlinkTagStatement(db(), t.stranger, t.ticketId, t.tagId);
    expect(await tagLinks(t.ticketId)).toBe(1);
    await unlinkTagStatement(db(), t.owner, t.ticketId, t.tagId);
    expect(await tagLinks(t.ticketId)).toBe(0);
  });
});

describe("ticket and message reads carry the account id", () => {
  it("ticketTagsQuery", async () => {
    const t = await ownedTicket();
    expect(await ticketTagsQuery(db(), t.stranger, t.ticketId)).toEqual([]);
    expect(await ticketTagsQuery(db(), t.owner, t.ticketId)).toHaveLength(1);
  });

  it("messageQueries", async () => {
    const t = await ownedTicket();
    const as = (accountId: string) => messageQueries(db(), accountId, t.ticketId, undefined, 10, 0);
    expect(await as(t.stranger).page).toEqual([]);
    expect(await as(t.stranger).total).toEqual([{ total: 0 }]);
    expect(await as(t.owner).page).toHaveLength(2);
  });

  it("attachmentsOf and attachmentKeysUnder", async () => {
    const t = await ownedTicket();
    expect(await attachmentsOf(db(), t.stranger, [t.messageId])).toEqual([]);
    expect(await attachmentKeysUnder(db(), t.stranger, { ticketId: t.ticketId })).toEqual([]);
    expect(await attachmentKeysUnder(db(), t.stranger, { inboxId: t.inbox.id })).toEqual([]);
    expect(await attachmentsOf(db(), t.owner, [t.messageId])).toHaveLength(1);
    expect(await attachmentKeysUnder(db(), t.owner, { ticketId: t.ticketId })).toHaveLength(1);
    expect(await attachmentKeysUnder(db(), t.owner, { inboxId: t.inbox.id })).toHaveLength(1);
  });

  it("threadMessageIds", async () => {
    const t = await ownedTicket();
    // One message: a workspace never stores one Message-ID twice (a unique index since 0010).
    await env.DB_2.prepare("UPDATE messages SET email_message_id = '<m1@acme.test>' WHERE id = ?")
      .bind(t.messageId)
      .run();
    expect(await threadMessageIds(db(), t.stranger, t.ticketId)).toEqual([]);
    expect(await threadMessageIds(db(), t.owner, t.ticketId)).toContain("<m1@acme.test>");
  });
});

describe("connection writes carry the account id", () => {
  it("updateConnection and inboxesUsing", async () => {
    const owner = await seedWorkspace();
    const stranger = await seedWorkspace();
    const connection = await createConnection(
      db(),
      env,
      owner.accountId,
      `tenancy-${crypto.randomUUID().slice(0, 6)}.test`,
    );
    const inbox = await seedInbox(owner.accountId);
    await env.DB_2.prepare("UPDATE inboxes SET connection_id = ? WHERE id = ?")
      .bind(connection.id, inbox.id)
      .run();
    const statusOf = async () =>
      (
        await env.DB_2.prepare("SELECT status FROM connections WHERE id = ?")
          .bind(connection.id)
          .first<{ status: string }>()
      )?.status;

    expect(
      await updateConnection(db(), stranger.accountId, connection.id, { status: "verified" }),
    ).toBeNull();
    expect(await statusOf()).toBe("pending");
    expect(await inboxesUsing(db(), stranger.accountId, connection.id)).toEqual([]);

    expect(
      await updateConnection(db(), owner.accountId, connection.id, { status: "verified" }),
    ).not.toBeNull();
    expect(await statusOf()).toBe("verified");
    expect(await inboxesUsing(db(), owner.accountId, connection.id)).toEqual([inbox.id]);
  });
});
