import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { generateToken, hashToken, keyPrefixOf } from "../../src/auth/token";
import { registerKeyHash } from "../../src/db/directory/key-hashes";
import { registerWorkspace } from "../../src/db/directory/workspaces";
import { accounts } from "../../src/db/schema";
import { insertKey } from "../../src/features/keys/keys.repo";
import { newId } from "../../src/lib/ids";
import { call, callJson, db, directory, seedWorkspace, TEST_SHARD } from "./helpers";

/**
 * The directory names what is found before the workspace is known (an API key's hash) and where
 * each workspace lives; the record itself is in the workspace's shard, which has the last word.
 */

const directoryKeyRow = (tokenHash: string) =>
  env.DIRECTORY.prepare("SELECT account_id FROM key_hashes WHERE token_hash = ?")
    .bind(tokenHash)
    .first<{ account_id: string }>();

/** A key written in the shard only, as a crash between the two writes of a new key would not leave it. */
async function shardOnlyKey(accountId: string) {
  const token = generateToken();
  await insertKey(db(), {
    id: newId("key"),
    accountId,
    name: "shard only",
    keyPrefix: keyPrefixOf(token),
    tokenHash: await hashToken(token),
    permission: "admin",
    createdAt: Date.now(),
  });
  return token;
}

describe("the directory", () => {
  it("names a new key's hash and its workspace, and the workspace's shard", async () => {
    const ws = await seedWorkspace();
    const created = await callJson<{ token: string }>("POST", "/v1/keys", {
      token: ws.token,
      body: { name: "reader", permission: "read" },
    });
    expect(created.status).toBe(201);
    expect(await directoryKeyRow(await hashToken(created.body.token))).toEqual({ account_id: ws.accountId });
    const home = await env.DIRECTORY.prepare("SELECT shard FROM workspaces WHERE account_id = ?")
      .bind(ws.accountId)
      .first<{ shard: string }>();
    expect(home).toEqual({ shard: TEST_SHARD });
    expect((await callJson("GET", "/v1/accounts", { token: created.body.token })).status).toBe(200);
  });

  it("authenticates no key its shard holds but the directory does not name", async () => {
    const ws = await seedWorkspace();
    const token = await shardOnlyKey(ws.accountId);
    expect((await callJson("GET", "/v1/accounts", { token })).status).toBe(401);
    // Named (as `npm run directory:backfill` names the keys made before the directory), it works
    // once its guard reads the directory again (it keeps what it read for a minute).
    await registerKeyHash(directory(), await hashToken(token), ws.accountId);
    await env.KEY_GUARD.get(env.KEY_GUARD.idFromName(await hashToken(token))).forget();
    expect((await callJson("GET", "/v1/accounts", { token })).status).toBe(200);
  });

  it("trusts the shard over the directory: a hash named for another workspace admits nobody", async () => {
    const ws = await seedWorkspace();
    const other = await seedWorkspace();
    const token = generateToken();
    await registerKeyHash(directory(), await hashToken(token), other.accountId);
    await insertKey(db(), {
      id: newId("key"),
      accountId: ws.accountId,
      name: "misnamed",
      keyPrefix: keyPrefixOf(token),
      tokenHash: await hashToken(token),
      permission: "admin",
      createdAt: Date.now(),
    });
    expect((await callJson("GET", "/v1/accounts", { token })).status).toBe(401);
  });

  it("finds a public changelog's workspace through it: one it does not name has no changelog", async () => {
    const named = await seedWorkspace();
    expect((await call("GET", `/changelog/${named.accountId}`)).status).toBe(200);
    // A workspace row the directory does not name (a crash before it was named) has no page.
    const unnamed = newId("acc");
    await db().insert(accounts).values({ id: unnamed, name: "Unnamed", plan: "free" });
    expect((await call("GET", `/changelog/${unnamed}`)).status).toBe(404);
    await registerWorkspace(directory(), unnamed, TEST_SHARD, Date.now());
    expect((await call("GET", `/changelog/${unnamed}`)).status).toBe(200);
  });
});
