import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { Permission } from "../../src/auth/permissions";
import { createDb } from "../../src/db/client";
import { directoryDb } from "../../src/db/directory/client";
import { registerWorkspace } from "../../src/db/directory/workspaces";
import { createLogsDb } from "../../src/db/logs/client";
import { accounts } from "../../src/db/schema";
import { envFor, shardD1 } from "../../src/db/shards";
import { dnsConfigOf, toConnection } from "../../src/features/connections/connections.dto";
import { insertConnection } from "../../src/features/connections/connections.repo";
import { newConnectionRow } from "../../src/features/connections/connections.service";
import type { DeliveryOutcome } from "../../src/features/emails/deliver";
import { createKey } from "../../src/features/keys/keys.service";
import { newId } from "../../src/lib/ids";
import type { PlanName, QuotaOverrides } from "../../src/lib/plans";
import { type DkimKeyPair, generateDkimKeyPair } from "../../src/mail/dkim/keys";

/**
 * The shard a seeded workspace lives in unless its test names another: the second one, so that any
 * code reaching a workspace's rows other than through the directory (the first shard, `DB`, is
 * where such code would land) fails in every test.
 */
export const TEST_SHARD = "DB_2";
let shardInUse = TEST_SHARD;
/**
 * Makes `shard` the one this test file seeds in and reads by default (every helper's default), for
 * a suite that runs once per shard (shard-families.ts). The files a pool worker runs share modules
 * (isolate: false), one file at a time: set it in `beforeAll`, and back to TEST_SHARD in `afterAll`.
 */
export function useShard(shard: string) {
  shardInUse = shard;
}
/** The shard this file seeds in: TEST_SHARD unless `useShard` named another. */
export const seedShard = () => shardInUse;
/** The D1 database of a shard (TEST_SHARD unless named). */
export const shardD1Of = (shard: string = shardInUse) => shardD1(env, shard);
/**
 * `env` as code sees it once it knows a workspace's shard (src/db/shards.ts `envFor`): its `DB` is
 * that shard (TEST_SHARD unless named). For tests that call a sweep, sender or repo directly.
 */
export const shardEnv = (shard: string = shardInUse) => envFor(env, shard);
/** A shard's database (TEST_SHARD, where seeded workspaces live, unless named). */
export const db = (shard: string = shardInUse) => createDb(shardD1(env, shard));
/** The directory: where each workspace lives, and what is found before its workspace is known. */
export const directory = () => directoryDb(env);
/** The LOGS database (request logs). */
export const logsDb = () => createLogsDb(env.LOGS);

export interface Workspace {
  accountId: string;
  /** An admin key's token. */
  token: string;
  keyId: string;
}

/** A fresh account with an admin key. Storage is shared within a test file, so each test makes its own. */
export async function seedWorkspace(
  options: {
    plan?: PlanName;
    overrides?: QuotaOverrides;
    status?: "active" | "suspended";
    /** The shard it lives in: TEST_SHARD unless named. */
    shard?: string;
  } = {},
): Promise<Workspace> {
  const accountId = newId("acc");
  const shard = options.shard ?? shardInUse;
  await db(shard)
    .insert(accounts)
    .values({
      id: accountId,
      name: `Test ${accountId.slice(-6)}`,
      plan: options.plan ?? "enterprise",
      status: options.status ?? "active",
      quotaOverrides: JSON.stringify(options.overrides ?? {}),
    });
  await registerWorkspace(directory(), accountId, shard, Date.now());
  const key = await createKey(db(shard), directory(), accountId, { name: "admin", permission: "admin" });
  return { accountId, token: key.token, keyId: key.id };
}

export async function addKey(accountId: string, permission: Permission, shard: string = shardInUse) {
  return createKey(db(shard), directory(), accountId, { name: `${permission} key`, permission });
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A request to the Worker under test, through its real fetch handler. */
export function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.body);
  }
  // Redirects are answers under test, never followed.
  return exports.default.fetch(
    new Request(`http://localhost${path}`, { method, headers, body, redirect: "manual" }),
  );
}

export async function callJson<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: CallOptions = {},
) {
  const res = await call(method, path, options);
  return { res, status: res.status, body: (await res.json()) as T };
}

/** Waits until `check` answers truthy, for work that runs after a response (queues, waitUntil). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The error body every failure has. */
export const errorBody = (error: string, code: string) => ({
  error,
  code,
  request_id: expectRequestId(),
});

function expectRequestId() {
  return expect.stringMatching(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
}

/**
 * One real DKIM key pair for every connection the helpers seed, generated on first use in each
 * isolate: a 2048-bit RSA key generation costs about a tenth of a second of CPU, and the Workers
 * files seed hundreds of connections (perf put it at 7% of the whole suite's CPU). Connections made
 * through the API (`POST /v1/connections`, the connections and DKIM tests) still get their own.
 */
let seedKeys: Promise<DkimKeyPair> | undefined;

/**
 * A verified connection of `domain` for the account, as creating it and passing its DNS check
 * would leave it: its own selector, the seeding key pair (the private key encrypted, as always).
 */
export async function verifiedDomain(accountId: string, domain: string, shard: string = shardInUse) {
  seedKeys ??= generateDkimKeyPair();
  const keys = await seedKeys;
  const now = Date.now();
  const [row] = await insertConnection(db(shard), {
    ...(await newConnectionRow(env, accountId, domain, keys, now)),
    status: "verified",
    verifiedAt: now,
  });
  if (!row) throw new Error(`verifiedDomain: ${domain} is connected already`);
  return toConnection(row, dnsConfigOf(shardEnv(shard)));
}

/** The account's connection of `domain` (in its `shard`), connected and verified first when it has none. */
export async function domainConnection(
  accountId: string,
  domain: string,
  shard: string = shardInUse,
): Promise<string> {
  const row = await shardD1Of(shard)
    .prepare("SELECT id FROM connections WHERE account_id = ? AND domain = ?")
    .bind(accountId, domain)
    .first<{ id: string }>();
  return row?.id ?? (await verifiedDomain(accountId, domain, shard)).id;
}

/** A workspace that may send from `domain`. */
export async function sendingWorkspace(
  domain = "acme.test",
  options: Parameters<typeof seedWorkspace>[0] = {},
) {
  const ws = await seedWorkspace(options);
  const connection = await verifiedDomain(ws.accountId, domain);
  return { ...ws, domain, connection };
}

/**
 * An inbox row for tests that need one without going through the inbox API; as the API would, it
 * belongs to the account's verified connection of its domain (made when the account has none), and
 * its address is claimed in the directory first (inbound mail and the contact form find it there).
 */
export async function seedInbox(
  accountId: string,
  emailAddress = `support-${crypto.randomUUID().slice(0, 8)}@acme.test`,
) {
  const { inboxes } = await import("../../src/db/schema");
  const { newId } = await import("../../src/lib/ids");
  const row = {
    id: newId("inb"),
    accountId,
    name: "Support",
    emailAddress,
    connectionId: await domainConnection(accountId, emailAddress.slice(emailAddress.lastIndexOf("@") + 1)),
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
  const { claimAddress } = await import("../../src/db/directory/inbox-addresses");
  const holder = await claimAddress(
    directory(),
    { address: emailAddress, accountId, inboxId: row.id },
    row.createdAt,
  );
  if (holder) throw new Error(`seedInbox: ${emailAddress} is claimed already`);
  await db().insert(inboxes).values(row);
  return row;
}

/** How many rows of `table` belong to the account (tests count what a request wrote). */
export async function rowCount(table: string, accountId: string) {
  const row = await shardD1Of()
    .prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`)
    .bind(accountId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The events recorded for an account (the outbox), oldest first. */
export async function eventsOf(accountId: string) {
  const rows = await shardD1Of()
    .prepare("SELECT event, inbox_id, data FROM events WHERE account_id = ? ORDER BY created_at, id")
    .bind(accountId)
    .all<{ event: string; inbox_id: string; data: string }>();
  return rows.results.map((r) => ({
    event: r.event,
    inboxId: r.inbox_id,
    data: JSON.parse(r.data) as Record<string, Record<string, unknown>>,
  }));
}

/** A workspace that may send from its own domain, an inbox on it and one ticket from ada@example.com. */
export async function ticketWorkspace(prefix = "desk", options: Parameters<typeof seedWorkspace>[0] = {}) {
  const domain = `${prefix}-${crypto.randomUUID().slice(0, 8)}.test`;
  const ws = await sendingWorkspace(domain, options);
  const inbox = await seedInbox(ws.accountId, `support@${domain}`);
  const ticket = (
    await callJson<{ id: string; subject: string; message_count: number; status: string }>(
      "POST",
      "/v1/tickets",
      {
        token: ws.token,
        body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Help" },
      },
    )
  ).body;
  return { ws, inbox, ticket, domain };
}

/**
 * A user of the workspace, written directly (the API's own paths are tested in users.test.ts), its
 * email named in the directory first, as every path that creates a user does.
 */
export async function seedUser(
  accountId: string,
  options: { role?: "owner" | "admin" | "agent"; status?: "active" | "disabled"; email?: string } = {},
) {
  const { users } = await import("../../src/db/schema");
  const row = {
    id: newId("usr"),
    accountId,
    email: options.email ?? `person-${crypto.randomUUID().slice(0, 8)}@example.com`,
    name: "Test Person",
    role: options.role ?? "agent",
    status: options.status ?? "active",
    createdAt: Date.now(),
    updatedAt: Date.now(),
  };
  const { nameMemberEmail } = await import("../../src/db/directory/member-emails");
  await nameMemberEmail(directory(), row.email, accountId);
  await db().insert(users).values(row);
  return row;
}

/**
 * Expects `delivery` to answer a retry `backoffSeconds` after a deferring answer. The delay is
 * counted from that answer to the attempt's end (recording its outcome comes after it), so on a
 * loaded machine it can be a second or more shorter: never more than the backoff, never less than
 * the backoff minus the attempt's own length.
 */
export async function expectRetryAfter(delivery: () => Promise<DeliveryOutcome>, backoffSeconds: number) {
  const started = Date.now();
  const outcome = await delivery();
  const ranSeconds = Math.ceil((Date.now() - started) / 1000);
  expect(outcome.kind).toBe("retry");
  const delay = outcome.kind === "retry" ? outcome.delaySeconds : Number.NaN;
  expect(delay).toBeLessThanOrEqual(backoffSeconds);
  expect(delay).toBeGreaterThanOrEqual(backoffSeconds - ranSeconds);
}
