import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { newId } from "../../src/lib/ids";
import { bounceAddress } from "../../src/mail/bounce-address";
import { createEndpoint } from "./email-webhooks-helpers";
import { shardD1Of } from "./helpers";
import { deliver, FIXTURES } from "./inbound-helpers";
import { emailOf, MAILER_DAEMON, report, sentEmail, setUp } from "./reports-helpers";
import { awaitDeliveries, endpoint } from "./webhook-helpers";

// Each test sends real emails through the queue first; on a loaded machine that outlasts 5 s.
vi.setConfig({ testTimeout: 60_000 });

/** The reports a shard holds that were sent to `rcptTo`. */
const reportsIn = async (shard: string, rcptTo: string) =>
  (
    await shardD1Of(shard)
      .prepare("SELECT account_id, email_id, outcome FROM mail_reports WHERE rcpt_to = ?1 ORDER BY id")
      .bind(rcptTo)
      .all<{ account_id: string | null; email_id: string | null; outcome: string }>()
  ).results;

const OTHER = { DB: "DB_2", DB_2: "DB" } as Record<string, string>;

/** An email of a workspace on `shard`, with an endpoint told of its bounces. */
async function bouncing(shard: string) {
  const sent = await sentEmail(["gone@example.net"], await setUp(shard));
  const hook = endpoint();
  await createEndpoint(sent.ws.token, { url: hook.url, events: ["email.bounced"] });
  return { ...sent, hook };
}

describe("a bounce address names an email, not its workspace: the report finds the email's shard", () => {
  for (const shard of ["DB", "DB_2"]) {
    it(`applies a DSN to an email of a workspace on ${shard}, records it there only, and tells its event at once`, async () => {
      const sent = await bouncing(shard);
      const dsn = report(FIXTURES.dsnHard, sent, "gone@example.net");
      expect(await deliver(dsn, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
      expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "bounced" });
      expect(await reportsIn(shard, sent.bounce)).toEqual([
        { account_id: sent.ws.accountId, email_id: sent.id, outcome: "applied" },
      ]);
      expect(await reportsIn(OTHER[shard] as string, sent.bounce)).toEqual([]);
      const [told] = await awaitDeliveries(sent.hook.path, 1);
      expect(JSON.parse(told?.body ?? "{}")).toMatchObject({
        event: "email.bounced",
        data: { email_id: sent.id, recipient: "gone@example.net" },
      });
    });
  }

  it("records a report whose email is in no shard as one about no email, and changes nothing", async () => {
    const bounce = await bounceAddress(
      env.ENCRYPTION_KEY,
      newId("eml"),
      "gone@example.net",
      "a@nowhere.test",
    );
    const sent = { bounce, messageId: "<gone@nowhere.test>", domain: "nowhere.test" };
    const dsn = report(FIXTURES.dsnHard, sent, "gone@example.net");
    expect(await deliver(dsn, { from: MAILER_DAEMON, to: bounce })).toEqual({ outcome: "accepted" });
    expect(await reportsIn("DB", bounce)).toEqual([
      { account_id: null, email_id: null, outcome: "unmatched" },
    ]);
    expect(await reportsIn("DB_2", bounce)).toEqual([]);
  });

  it("goes to the shard the directory names when a workspace being moved has the email in two", async () => {
    const sent = await bouncing("DB_2");
    // A move copying the workspace to DB before the directory switches: the copy is not its own yet.
    await copyToFirstShard(sent.ws.accountId, sent.id);
    const dsn = report(FIXTURES.dsnHard, sent, "gone@example.net");
    expect(await deliver(dsn, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "bounced" });
    expect(await reportsIn("DB_2", sent.bounce)).toEqual([
      { account_id: sent.ws.accountId, email_id: sent.id, outcome: "applied" },
    ]);
    expect(await reportsIn("DB", sent.bounce)).toEqual([]);
  });
});

describe("a report sent to an inbox address of a workspace on the second shard", () => {
  it("is applied in the inbox's shard and its email event told at once", async () => {
    const sent = await bouncing("DB_2");
    const dsn = report(FIXTURES.dsnHard, sent, "gone@example.net", sent.address);
    expect(await deliver(dsn, { from: MAILER_DAEMON, to: sent.address })).toEqual({ outcome: "accepted" });
    expect(await emailOf(sent.ws.token, sent.id)).toMatchObject({ status: "bounced" });
    const [told] = await awaitDeliveries(sent.hook.path, 1);
    expect(JSON.parse(told?.body ?? "{}")).toMatchObject({
      event: "email.bounced",
      data: { email_id: sent.id, recipient: "gone@example.net" },
    });
  });
});

/** The workspace's account and one email row, copied from DB_2 into DB as a move's copy step would. */
async function copyToFirstShard(accountId: string, emailId: string) {
  const first = shardD1Of("DB");
  const copy = async (
    table: string,
    where: string,
    id: string,
    drop: string[],
    set: Record<string, unknown>,
  ) => {
    const row = await shardD1Of("DB_2").prepare(`SELECT * FROM ${table} WHERE ${where} = ?`).bind(id).first();
    // Generated columns are computed again on insert.
    const generated = await first
      .prepare(`SELECT name FROM pragma_table_xinfo('${table}') WHERE hidden != 0`)
      .all<{ name: string }>();
    drop.push(...generated.results.map((c) => c.name));
    const values = {
      ...Object.fromEntries(Object.entries(row ?? {}).filter(([k]) => !drop.includes(k))),
      ...set,
    };
    const columns = Object.keys(values);
    await first
      .prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
      .bind(...Object.values(values))
      .run();
  };
  await copy("accounts", "id", accountId, ["seq"], {});
  const seq = await first
    .prepare("SELECT seq FROM accounts WHERE id = ?")
    .bind(accountId)
    .first<number>("seq");
  await copy("emails", "id", emailId, ["seq"], { connection_id: null, account_seq: seq });
}
