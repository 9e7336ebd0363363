import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { handleEmail } from "../../src/inbound/handler";
import {
  droppedOf,
  emailMessage,
  FIXTURES,
  fill,
  inboundWorkspace,
  messagesOf,
  ticketsOf,
} from "./inbound-helpers";

/**
 * Round trips to D1 (a batch, or one statement's run/all/first/raw) and calls to R2, as made: `d1`
 * to the workspace's shard, `directory` to the directory (where the recipient's inbox is found).
 */
interface Calls {
  d1: number;
  /** The statements the shard's round trips carried: locally each costs its own answer. */
  statements: number;
  directory: number;
  r2: string[];
}

const RUNS = new Set(["run", "all", "first", "raw"]);

/** `db` counting every round trip into `calls[counter]`; statements it prepares count when they run alone. */
function countingD1(db: D1Database, calls: Calls, counter: "d1" | "directory" = "d1"): D1Database {
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  const statement = (real: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(real, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => statement(target.bind(...values));
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        if (typeof property === "string" && RUNS.has(property)) {
          calls[counter]++;
          if (counter === "d1") calls.statements++;
        }
        return value.bind(target);
      },
    });
    unwrapped.set(wrapped, real);
    return wrapped;
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (query: string) => statement(target.prepare(query));
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          calls[counter]++;
          if (counter === "d1") calls.statements += statements.length;
          return target.batch(statements.map((s) => unwrapped.get(s) ?? s));
        };
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      if (property === "exec") calls[counter]++;
      return value.bind(target);
    },
  });
}

/** `bucket` recording the name of every call made to it. */
function countingR2(bucket: R2Bucket, calls: Calls): R2Bucket {
  return new Proxy(bucket, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      calls.r2.push(String(property));
      return value.bind(target);
    },
  });
}

/**
 * `bucket` whose puts fail, each once D1 has answered `afterD1` round trips (the mail's reads):
 * the put is still under way while the handler reads, as R2 failing late would be.
 */
function lateFailingPuts(bucket: R2Bucket, calls: Calls, afterD1: number): R2Bucket {
  return new Proxy(bucket, {
    get(target, property) {
      if (property === "put") {
        return async () => {
          while (calls.d1 < afterD1) await scheduler.wait(1);
          throw new Error("R2 unavailable");
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Delivers `raw` to handleEmail with D1 and R2 counted (a fresh binding: nothing cached from before). */
async function countedDelivery(raw: string, to: string, options: { failingPuts?: boolean } = {}) {
  const calls: Calls = { d1: 0, statements: 0, directory: 0, r2: [] };
  const bucket = options.failingPuts ? lateFailingPuts(env.FILES, calls, 1) : env.FILES;
  const counted = {
    ...env,
    DB_2: countingD1(env.DB_2, calls),
    DIRECTORY: countingD1(env.DIRECTORY, calls, "directory"),
    FILES: countingR2(bucket, calls),
  };
  const { message, rejection } = await emailMessage(raw, { to });
  const execution = createExecutionContext();
  await handleEmail(message as unknown as ForwardableEmailMessage, counted, execution);
  await waitOnExecutionContext(execution);
  expect(rejection()).toBeUndefined();
  return calls;
}

describe("the D1 round trips and R2 calls of storing one inbound mail", () => {
  it("a new conversation from a new customer: the route (directory), the reads with the inbox, the customer and number, the commit", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress });
    const calls = await countedDelivery(raw, inbox.emailAddress);

    const [ticket, ...others] = await ticketsOf(ws.token);
    expect(others).toEqual([]);
    expect(ticket).toMatchObject({ subject: "Printer on fire", message_count: 1 });
    // Reads: the inbox, its own addresses, the Message-ID, the customer (no parents or signed
    // ticket to look for); the customer and number; the commit: the ticket, `ticket.created`,
    // storage, the message, the ticket's count and `message.created`. A manual inbox's mail runs
    // no statement of the assignment rule.
    expect(calls).toEqual({ d1: 3, statements: 4 + 2 + 6, directory: 1, r2: ["put"] });
  });

  it("a reply by In-Reply-To from a known customer: the route (directory), the reads with the inbox, the commit", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const firstId = crypto.randomUUID();
    await countedDelivery(
      fill(FIXTURES.plainText, { TO: inbox.emailAddress, ID: firstId }),
      inbox.emailAddress,
    );
    const raw = fill(FIXTURES.gmail, {
      TO: inbox.emailAddress,
      INBOX: inbox.emailAddress,
      IN_REPLY_TO: `<${firstId}@mail.example.com>`,
      REFERENCES: `<${firstId}@mail.example.com>`,
    });
    const calls = await countedDelivery(raw, inbox.emailAddress);

    const [ticket, ...others] = await ticketsOf(ws.token);
    expect(others).toEqual([]);
    expect((await messagesOf(ws.token, ticket?.id as string)).length).toBe(2);
    // Reads: the inbox, its own addresses, the Message-ID, the parents, the customer; the commit:
    // storage, the message, the ticket's count and `message.created`.
    expect(calls).toEqual({ d1: 2, statements: 5 + 4, directory: 1, r2: ["put"] });
  });

  it("an address the directory still names but its inbox no longer has: refused as unknown, nothing kept", async () => {
    const { ws, inbox } = await inboundWorkspace();
    // The shard changed first (the directory catches up after): the shard has the last word.
    await env.DB_2.prepare("UPDATE inboxes SET email_address = ? WHERE id = ?")
      .bind(`moved-${inbox.emailAddress}`, inbox.id)
      .run();
    for (const to of [inbox.emailAddress, inbox.emailAddress.replace("@", "+sometoken@")]) {
      const { message, rejection } = await emailMessage(fill(FIXTURES.plainText, { TO: to }), { to });
      const execution = createExecutionContext();
      await handleEmail(message as unknown as ForwardableEmailMessage, env, execution);
      await waitOnExecutionContext(execution);
      expect(rejection()).toMatch(/^No mailbox .* here|^The reply address/);
    }
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect(await droppedOf(ws.accountId)).toEqual([]);
    expect((await env.FILES.list({ prefix: `inbound/${ws.accountId}/` })).objects).toEqual([]);
  });
});

describe("the raw bytes' put, run alongside the reads", () => {
  it("failing, fails the delivery: no ticket or message names bytes that were not stored", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress });
    await expect(countedDelivery(raw, inbox.emailAddress, { failingPuts: true })).rejects.toThrow(
      "R2 unavailable",
    );
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect((await env.FILES.list({ prefix: `inbound/${ws.accountId}/` })).objects).toEqual([]);

    // The sender's retry stores it.
    await countedDelivery(raw, inbox.emailAddress);
    expect((await ticketsOf(ws.token)).map((t) => t.subject)).toEqual(["Printer on fire"]);
  });

  it("failing, fails a drop too: no dropped_mail row names bytes that were not stored", async () => {
    const { ws, inbox } = await inboundWorkspace();
    // From the inbox itself: dropped as the workspace's own mail, after the reads.
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress, FROM: inbox.emailAddress });
    await expect(countedDelivery(raw, inbox.emailAddress, { failingPuts: true })).rejects.toThrow(
      "R2 unavailable",
    );
    expect(await droppedOf(ws.accountId)).toEqual([]);
  });
});
