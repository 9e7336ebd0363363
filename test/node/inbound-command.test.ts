import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverInbound } from "../../scripts/lib/inbound";
import { workspaceSql } from "../../scripts/lib/workspace";
import {
  type RunningWorker,
  startWorker,
  WORKER_SECRETS,
} from "../../smtp-relay/test/support/running-worker";

/**
 * `npm run inbound` against a real `wrangler dev` of this checkout: its local email endpoint, the
 * Worker's email() handler, and the ticket seen through the API, as the README's round trip goes.
 */
const ROOT = new URL("../..", import.meta.url).pathname;
const fixture = (name: string) => readFileSync(join(ROOT, "test/fixtures/inbound", name), "utf8");
const INBOX = "support@inbound.test";

let worker: RunningWorker;
let token: string;

const api = async <T>(method: string, path: string, body?: unknown) => {
  const res = await fetch(`${worker.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as T;
};

beforeAll(async () => {
  const { sql, directorySql, workspace } = await workspaceSql(
    {
      name: "Inbound",
      plan: "enterprise",
      overrides: {},
      domain: { name: "inbound.test", encryptionKey: WORKER_SECRETS.ENCRYPTION_KEY },
      shard: "DB_2",
    },
    "local",
  );
  token = workspace.token;
  // As `npm start` serves people: the development mailbox shows each copy's bounce address.
  worker = await startWorker(
    { db: sql, shard: "DB_2", directory: directorySql },
    { ENVIRONMENT: "development" },
  );
  await api("POST", "/v1/inboxes", { name: "Support", email_address: INBOX });
}, 150_000);

afterAll(() => worker?.stop());

/** Asks `check` again every 200 ms until it answers something (work a queue does after a response). */
async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("npm run inbound", () => {
  it("writes in, is answered through the API, and the customer's answer threads back", async () => {
    const first = fixture("plain-text.eml")
      .replaceAll("{{FROM}}", "ada@example.com")
      .replaceAll("{{TO}}", INBOX);
    const written = await deliverInbound({
      baseUrl: worker.url,
      from: "ada@example.com",
      to: INBOX,
      raw: first.replace("{{ID}}", "round-trip-1"),
    });
    expect(written).toEqual({ outcome: "accepted" });
    const tickets = await api<{ data: Array<{ id: string; subject: string }> }>("GET", "/v1/tickets");
    expect(tickets.data.map((t) => t.subject)).toEqual(["Printer on fire"]);
    const ticketId = tickets.data[0]?.id as string;

    const reply = await api<{ email_id: string }>("POST", `/v1/tickets/${ticketId}/messages`, {
      type: "reply",
      body_text: "Please unplug it.",
    });
    const email = await api<{ reply_to: string[] }>("GET", `/v1/emails/${reply.email_id}`);
    const replyAddress = email.reply_to[0] as string;

    // Through the command itself, from stdin, with no Message-ID (the command adds one).
    const answer =
      "From: Ada <ada@example.com>\nTo: Support <" +
      replyAddress +
      ">\nSubject: Re: Printer on fire\n\nIt worked, thanks!\n";
    const output = execFileSync(
      "npm",
      ["run", "--silent", "inbound", "--", "--to", replyAddress, "--url", worker.url],
      {
        cwd: ROOT,
        input: answer,
        encoding: "utf8",
      },
    );
    expect(output.trim()).toBe("accepted");
    const messages = await api<{ data: Array<{ type: string; stripped_text: string | null }> }>(
      "GET",
      `/v1/tickets/${ticketId}/messages`,
    );
    expect(messages.data.map((m) => m.type)).toEqual(["customer", "reply", "customer"]);
    expect(messages.data.at(-1)?.stripped_text).toBe("It worked, thanks!");
  });

  it("reports a refusal with its reason", async () => {
    const raw = fixture("plain-text.eml")
      .replaceAll("{{FROM}}", "ada@example.com")
      .replaceAll("{{TO}}", "x@inbound.test");
    const result = await deliverInbound({
      baseUrl: worker.url,
      from: "ada@example.com",
      to: "nobody@inbound.test",
      raw: raw.replace("{{ID}}", "refused-1"),
    });
    expect(result).toEqual({
      outcome: "rejected",
      reason: "No mailbox nobody@inbound.test here: it is not an address of this service.",
    });
  });

  it("a plain-text bounce delivered to an email's bounce address shows in GET /v1/mail-reports", async () => {
    const sent = await api<{ id: string }>("POST", "/v1/emails", {
      from: "Acme <hello@inbound.test>",
      to: "gone@example.net",
      subject: "Your receipt",
      text: "Thank you.",
    });
    // The recipient's copy, as the capture transport kept it, carries its VERP bounce address.
    const copy = await eventually(async () => {
      const res = await fetch(`${worker.url}/_dev/mailbox.json`);
      const { data } = (await res.json()) as {
        data: Array<{ id: string; return_path: string; raw: string }>;
      };
      return data.find((m) => m.id === sent.id);
    });
    expect(copy.return_path).toMatch(/^bounces\+[0-9a-z]+@inbound\.test$/);
    const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(copy.raw)?.[1] ?? "";
    // A real qmail failure notice (no RFC 3464 part): what most servers still send.
    const bounce = fixture("qmail-failure-notice.eml")
      .replaceAll("{{BOUNCE}}", copy.return_path)
      .replaceAll("{{RECIPIENT}}", "gone@example.net")
      .replaceAll("{{ORIGINAL_ID}}", messageId);
    expect(messageId).not.toBe("");
    const output = execFileSync(
      "npm",
      ["run", "--silent", "inbound", "--", "--to", copy.return_path, "--url", worker.url],
      { cwd: ROOT, input: bounce, encoding: "utf8" },
    );
    expect(output.trim()).toBe("accepted");

    const reports = await api<{ data: Array<Record<string, unknown>>; pagination: { total: number } }>(
      "GET",
      `/v1/mail-reports?email_id=${sent.id}`,
    );
    expect(reports.pagination.total).toBe(1);
    expect(reports.data[0]).toMatchObject({
      id: expect.stringMatching(/^rpt_/),
      kind: "bounce",
      email_id: sent.id,
      recipient: "gone@example.net",
      severity: "hard",
      status: "5.5.0",
      reply_code: "550",
      reporting_mta: "mx4.example.jp",
      action: "suppressed",
    });
  });
});
