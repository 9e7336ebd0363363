import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CLAIM_GRACE_MS, holdersQuery, inboxWorkspaceQuery } from "../../src/db/directory/inbox-addresses";
import { inboxes } from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import {
  call,
  callJson,
  db,
  directory,
  domainConnection,
  errorBody,
  seedInbox,
  seedWorkspace,
  verifiedDomain,
} from "./helpers";
import { deliver, FIXTURES, fill } from "./inbound-helpers";
import { postForm } from "./people-helpers";
import { expectIndexed, planOf } from "./query-plan";

/**
 * Inbox addresses live in the directory: each names its inbox and workspace. It is what makes an
 * address unique across the service, what inbound mail and the public contact form find an inbox
 * by, and the inbox's shard has the last word.
 */

type Inbox = { id: string; email_address: string };

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}.test`;

/** Two workspaces that both verified `domain`: each may hold addresses on it, never the same one. */
async function rivals(domain = unique("rival")) {
  const [a, b] = [await seedWorkspace(), await seedWorkspace()];
  await verifiedDomain(a.accountId, domain);
  await verifiedDomain(b.accountId, domain);
  return { a, b, domain };
}

const create = (token: string, emailAddress: string) =>
  callJson<Inbox>("POST", "/v1/inboxes", { token, body: { name: "Support", email_address: emailAddress } });

const claimOf = (address: string) =>
  env.DIRECTORY.prepare("SELECT account_id, inbox_id FROM inbox_addresses WHERE address = ?")
    .bind(address)
    .first<{ account_id: string; inbox_id: string }>();

/** A claim written straight to the directory, as a crash after the claim would leave it. */
const leaveClaim = (address: string, accountId: string, inboxId: string, claimedAt: number) =>
  env.DIRECTORY.prepare(
    "INSERT INTO inbox_addresses (address, account_id, inbox_id, claimed_at) VALUES (?, ?, ?, ?)",
  )
    .bind(address, accountId, inboxId, claimedAt)
    .run();

const longAgo = () => Date.now() - 2 * CLAIM_GRACE_MS;

/** An inbox its shard holds but the directory does not name (a crash before the claim cannot leave one; a copy can). */
async function shardOnlyInbox(accountId: string, domain: string) {
  const row = {
    id: newId("inb"),
    accountId,
    name: "Unnamed",
    emailAddress: `unnamed-${crypto.randomUUID().slice(0, 8)}@${domain}`,
    connectionId: await domainConnection(accountId, domain),
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
  await db().insert(inboxes).values(row);
  return row;
}

const TAKEN = errorBody("Email address already in use", "email_address_taken");
const unknownRecipient = (to: string) => ({
  outcome: "rejected",
  reason: `No mailbox ${to} here: it is not an address of this service.`,
});

describe("inbox addresses in the directory", () => {
  it("are claimed on create, moved on an address change and released on delete, at once free again", async () => {
    const { a, b, domain } = await rivals();
    const first = `first@${domain}`;
    const inbox = (await create(a.token, first)).body;
    expect(await claimOf(first)).toEqual({ account_id: a.accountId, inbox_id: inbox.id });

    const second = `second@${domain}`;
    const moved = await callJson("PATCH", `/v1/inboxes/${inbox.id}`, {
      token: a.token,
      body: { email_address: second },
    });
    expect(moved.status).toBe(200);
    expect(await claimOf(second)).toEqual({ account_id: a.accountId, inbox_id: inbox.id });
    expect(await claimOf(first)).toBeNull();
    // The old address is another workspace's to take, with no wait.
    const taken = (await create(b.token, first)).body;
    expect(await claimOf(first)).toEqual({ account_id: b.accountId, inbox_id: taken.id });

    expect((await call("DELETE", `/v1/inboxes/${inbox.id}`, { token: a.token })).status).toBe(200);
    expect(await claimOf(second)).toBeNull();
    expect((await create(b.token, second)).status).toBe(201);
  });

  it("gives one address to exactly one of two workspaces creating it at once", async () => {
    const { a, b, domain } = await rivals();
    for (let round = 0; round < 5; round++) {
      const address = `race-${round}@${domain}`;
      const answers = await Promise.all([create(a.token, address), create(b.token, address)]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409]);
      const winner = answers.find((r) => r.status === 201)?.body as Inbox;
      const loser = answers.find((r) => r.status === 409);
      expect(loser?.body).toMatchObject(TAKEN);
      expect((await claimOf(address))?.inbox_id).toBe(winner.id);
      const held = await env.DB_2.prepare("SELECT id FROM inboxes WHERE email_address = ?")
        .bind(address)
        .all();
      expect(held.results).toEqual([{ id: winner.id }]);
    }
  });

  it("moves two inboxes of two workspaces to one address at once: one moves, the other keeps its own", async () => {
    const { a, b, domain } = await rivals();
    const mine = (await create(a.token, `mine@${domain}`)).body;
    const theirs = (await create(b.token, `theirs@${domain}`)).body;
    const wanted = `wanted@${domain}`;
    const answers = await Promise.all([
      callJson("PATCH", `/v1/inboxes/${mine.id}`, { token: a.token, body: { email_address: wanted } }),
      callJson("PATCH", `/v1/inboxes/${theirs.id}`, { token: b.token, body: { email_address: wanted } }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const [winner, loser] = answers[0]?.status === 200 ? [mine, theirs] : [theirs, mine];
    expect((await claimOf(wanted))?.inbox_id).toBe(winner.id);
    expect((await claimOf(loser.email_address))?.inbox_id).toBe(loser.id);
    expect(await claimOf(winner.email_address)).toBeNull();
  });

  it("refuses an address a claim younger than the grace holds, even before its inbox is written", async () => {
    const { a, b, domain } = await rivals();
    const address = `pending@${domain}`;
    await leaveClaim(address, b.accountId, newId("inb"), Date.now());
    const refused = await create(a.token, address);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject(TAKEN);
  });

  it("takes over a stale claim: its inbox gone from its shard (never written), or moved to another address", async () => {
    const { a, b, domain } = await rivals();
    const neverWritten = `crashed@${domain}`;
    await leaveClaim(neverWritten, b.accountId, newId("inb"), longAgo());
    const made = await create(a.token, neverWritten);
    expect(made.status).toBe(201);
    expect(await claimOf(neverWritten)).toEqual({ account_id: a.accountId, inbox_id: made.body.id });

    // An inbox of b at another address, still named (stale) at this one: a release that failed.
    const elsewhere = (await create(b.token, `elsewhere@${domain}`)).body;
    const movedAway = `moved-away@${domain}`;
    await leaveClaim(movedAway, b.accountId, elsewhere.id, longAgo());
    const mine = (await create(a.token, `mine@${domain}`)).body;
    const patched = await callJson("PATCH", `/v1/inboxes/${mine.id}`, {
      token: a.token,
      body: { email_address: movedAway },
    });
    expect(patched.status).toBe(200);
    expect(await claimOf(movedAway)).toEqual({ account_id: a.accountId, inbox_id: mine.id });
    // b's inbox keeps its own address.
    expect(await claimOf(`elsewhere@${domain}`)).toEqual({ account_id: b.accountId, inbox_id: elsewhere.id });
  });

  it("never takes over an old claim whose inbox is at the address", async () => {
    const { a, b, domain } = await rivals();
    const address = `held@${domain}`;
    const held = (await create(b.token, address)).body;
    await env.DIRECTORY.prepare("UPDATE inbox_addresses SET claimed_at = ? WHERE address = ?")
      .bind(longAgo(), address)
      .run();
    const refused = await create(a.token, address);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject(TAKEN);
    expect(await claimOf(address)).toEqual({ account_id: b.accountId, inbox_id: held.id });
  });

  it("gives a stale claim to exactly one of two workspaces taking it over at once", async () => {
    const { a, b, domain } = await rivals();
    const third = await seedWorkspace();
    for (let round = 0; round < 3; round++) {
      const address = `stale-${round}@${domain}`;
      await leaveClaim(address, third.accountId, newId("inb"), longAgo());
      const answers = await Promise.all([create(a.token, address), create(b.token, address)]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      const winner = answers.find((r) => r.status === 201)?.body as Inbox;
      expect((await claimOf(address))?.inbox_id).toBe(winner.id);
    }
  });
});

describe("finding an inbox by its address, through the directory", () => {
  it("refuses mail to an inbox its shard holds but the directory does not name, as an unknown address", async () => {
    const ws = await seedWorkspace();
    const inbox = await shardOnlyInbox(ws.accountId, unique("unnamed"));
    const to = inbox.emailAddress;
    expect(await deliver(fill(FIXTURES.plainText, { TO: to }), { to })).toEqual(unknownRecipient(to));
    const plus = to.replace("@", "+anything@");
    expect(await deliver(fill(FIXTURES.plainText, { TO: plus }), { to: plus })).toEqual(
      unknownRecipient(plus),
    );

    // Named (as `npm run directory:backfill` names the inboxes made before the directory), it receives.
    await leaveClaim(to, ws.accountId, inbox.id, Date.now());
    expect(await deliver(fill(FIXTURES.plainText, { TO: to }), { to })).toEqual({ outcome: "accepted" });
  });

  it("trusts the shard over the directory: a claim naming an inbox at another address routes nowhere", async () => {
    const ws = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const to = `misnamed-${crypto.randomUUID().slice(0, 8)}@acme.test`;
    await leaveClaim(to, ws.accountId, inbox.id, Date.now());
    expect(await deliver(fill(FIXTURES.plainText, { TO: to }), { to })).toEqual(unknownRecipient(to));
  });

  it("finds a contact form's inbox only when the directory names it", async () => {
    const ws = await seedWorkspace();
    const inbox = await shardOnlyInbox(ws.accountId, unique("form"));
    const path = `/portal/inboxes/${inbox.id}/new`;
    expect((await call("GET", path)).status).toBe(404);
    const posted = await postForm(path, {
      name: "Grace",
      email: "grace@example.com",
      subject: "Hello",
      message: "Hi",
      website: "",
    });
    expect(posted.status).toBe(404);
    const counted = await env.DB_2.prepare("SELECT count(*) AS n FROM tickets WHERE account_id = ?")
      .bind(ws.accountId)
      .first<{ n: number }>();
    expect(counted?.n).toBe(0);

    await leaveClaim(inbox.emailAddress, ws.accountId, inbox.id, Date.now());
    expect((await call("GET", path)).status).toBe(200);
  });

  it("reads a contact form's inbox in the workspace the directory names, never another's", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const inbox = await shardOnlyInbox(ws.accountId, unique("scoped"));
    // A claim naming the wrong workspace: the shard, read scoped by it, has no such inbox.
    await leaveClaim(inbox.emailAddress, other.accountId, inbox.id, Date.now());
    expect((await call("GET", `/portal/inboxes/${inbox.id}/new`)).status).toBe(404);
  });
});

describe("the directory's inbox address reads are served by indexes", () => {
  it("by address (inbound mail) and by inbox id (the contact form)", async () => {
    const byAddress = await planOf(holdersQuery(directory(), ["a@x.test", "b@x.test"]), env.DIRECTORY);
    expectIndexed(byAddress, "inbox_addresses");
    expectIndexed(byAddress, "workspaces");
    const byInbox = await planOf(inboxWorkspaceQuery(directory(), "inb_X"), env.DIRECTORY);
    expect(byInbox.join("\n")).toContain("USING INDEX inbox_addresses_inbox_id");
  });
});
