import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { mailReportQueries } from "../../src/features/mail-reports/mail-reports.repo";
import { addKey, call, callJson, db, seedWorkspace } from "./helpers";
import { deliver, FIXTURES, fill } from "./inbound-helpers";
import { expectIndexed, planOf } from "./query-plan";
import { MAILER_DAEMON, report, sentEmail, setUp } from "./reports-helpers";

// Each test sends real emails through the queue first; on a loaded machine that outlasts 5 s.
vi.setConfig({ testTimeout: 60_000 });

interface MailReportBody {
  id: string;
  kind: string;
  email_id: string | null;
  recipient: string | null;
  severity: string | null;
  status: string | null;
  reply_code: string | null;
  diagnostic: string | null;
  reporting_mta: string | null;
  action: string;
  created_at: string;
}

interface ListBody {
  data: MailReportBody[];
  pagination: { limit: number; offset: number; total: number };
}

const list = (token: string, query = "") => callJson<ListBody>("GET", `/v1/mail-reports${query}`, { token });

/** A workspace that sent a few emails and got a report for each, delivered through the email handler. */
async function reportedWorkspace() {
  const setup = await setUp();
  const hard = await sentEmail(["gone@example.net"], setup);
  const hardRaw = report(FIXTURES.dsnHard, hard, "gone@example.net");
  expect(await deliver(hardRaw, { from: MAILER_DAEMON, to: hard.bounce })).toEqual({ outcome: "accepted" });
  const soft = await sentEmail(["slow@example.org"], setup);
  await deliver(report(FIXTURES.dsnSoft, soft, "slow@example.org"), { from: MAILER_DAEMON, to: soft.bounce });
  const stranger = await sentEmail(["kept@example.net"], setup);
  await deliver(report(FIXTURES.dsnHard, stranger, "stranger@example.net"), {
    from: MAILER_DAEMON,
    to: stranger.bounce,
  });
  const angry = await sentEmail(["angry@example.net"], setup);
  await deliver(report(FIXTURES.arf, angry, "angry@example.net"), {
    from: "staff@fbl.mailbox.example",
    to: angry.bounce,
  });
  await deliver(fill(FIXTURES.plainText, { TO: angry.bounce }), { to: angry.bounce });
  return { ...setup, hard, hardRaw, soft, stranger, angry };
}

describe("GET /v1/mail-reports", () => {
  it("lists every report the email handler received, newest first, with what each did", async () => {
    const ws = await reportedWorkspace();
    const { status, body } = await list(ws.ws.token);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 5 });
    expect(body.data.map((r) => [r.kind, r.email_id, r.recipient, r.severity, r.action])).toEqual([
      ["unsupported", ws.angry.id, null, null, "ignored"],
      ["complaint", ws.angry.id, "angry@example.net", null, "suppressed"],
      ["bounce", ws.stranger.id, "stranger@example.net", "hard", "ignored"],
      ["bounce", ws.soft.id, "slow@example.org", "soft", "counted"],
      ["bounce", ws.hard.id, "gone@example.net", "hard", "suppressed"],
    ]);
    const hard = body.data[4];
    expect(hard).toEqual({
      id: expect.stringMatching(/^rpt_[0-9A-HJKMNP-TV-Z]{26}$/),
      kind: "bounce",
      email_id: ws.hard.id,
      recipient: "gone@example.net",
      severity: "hard",
      status: "5.1.1",
      reply_code: "550",
      diagnostic: expect.stringContaining("User unknown in virtual mailbox table"),
      reporting_mta: "mail.example.net",
      action: "suppressed",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(body.data[3]).toMatchObject({
      status: "4.4.1",
      diagnostic: expect.stringContaining("4.4.1"),
    });

    // The raw message, byte for byte.
    const raw = await call("GET", `/v1/mail-reports/${hard?.id}/raw`, { token: ws.ws.token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("message/rfc822");
    expect(await raw.text()).toBe(ws.hardRaw);
  });

  it("filters by kind, email and recipient (any case), pages with exact totals, and needs only read", async () => {
    const ws = await reportedWorkspace();
    const reader = await addKey(ws.ws.accountId, "read");
    const ids = async (query: string) => {
      const { status, body } = await list(reader.token, query);
      expect(status, query).toBe(200);
      return { total: body.pagination.total, rows: body.data.map((r) => [r.kind, r.recipient]) };
    };
    expect(await ids("?kind=bounce")).toEqual({
      total: 3,
      rows: [
        ["bounce", "stranger@example.net"],
        ["bounce", "slow@example.org"],
        ["bounce", "gone@example.net"],
      ],
    });
    expect(await ids("?kind=complaint")).toEqual({ total: 1, rows: [["complaint", "angry@example.net"]] });
    expect(await ids("?kind=unsupported")).toEqual({ total: 1, rows: [["unsupported", null]] });
    expect(await ids(`?email_id=${ws.angry.id}`)).toEqual({
      total: 2,
      rows: [
        ["unsupported", null],
        ["complaint", "angry@example.net"],
      ],
    });
    expect(await ids(`?email_id=${ws.angry.id}&kind=complaint`)).toMatchObject({ total: 1 });
    expect(await ids("?recipient=SLOW@example.ORG")).toEqual({
      total: 1,
      rows: [["bounce", "slow@example.org"]],
    });
    expect(await ids("?kind=bounce&limit=1&offset=1")).toEqual({
      total: 3,
      rows: [["bounce", "slow@example.org"]],
    });
    expect(await ids("?kind=bounce&offset=10")).toEqual({ total: 3, rows: [] });
  });

  it("answers 400 with a clear error for a bad filter", async () => {
    const ws = await seedWorkspace();
    for (const [query, path] of [
      ["?kind=bounced", "query.kind"],
      ["?email_id=123", "query.email_id"],
      ["?recipient=not-an-address", "query.recipient"],
      ["?limit=0", "query.limit"],
      ["?offset=-1", "query.offset"],
    ] as const) {
      const { status, body } = await callJson<{
        error: string;
        code: string;
        details: Array<{ path: string }>;
      }>("GET", `/v1/mail-reports${query}`, { token: ws.token });
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ error: "Invalid request", code: "validation_error" });
      expect(body.details.map((d) => d.path)).toEqual([path]);
    }
  });

  it("shows a workspace only its own reports: another's list is empty and its ids are 404", async () => {
    const ws = await reportedWorkspace();
    const other = await seedWorkspace();
    const { body } = await list(other.token);
    expect(body).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
    expect((await list(other.token, `?email_id=${ws.hard.id}`)).body.pagination.total).toBe(0);
    const [first] = (await list(ws.ws.token)).body.data;
    const raw = await callJson("GET", `/v1/mail-reports/${first?.id}/raw`, { token: other.token });
    expect(raw.status).toBe(404);
    expect(raw.body).toMatchObject({ code: "not_found" });
    const unknown = await callJson("GET", "/v1/mail-reports/rpt_01JD3Z6X8Y9ABCDEFGHJKMNPQR/raw", {
      token: ws.ws.token,
    });
    expect(unknown.status).toBe(404);
  });

  it("answers 404 raw_not_found once the report's bytes are gone", async () => {
    const sent = await sentEmail(["pruned@example.net"]);
    await deliver(report(FIXTURES.dsnHard, sent, "pruned@example.net"), {
      from: MAILER_DAEMON,
      to: sent.bounce,
    });
    const [row] = (await list(sent.ws.token)).body.data;
    const key = await env.DB_2.prepare("SELECT raw_key FROM mail_reports WHERE public_id = ?")
      .bind(row?.id)
      .first<string>("raw_key");
    await env.FILES.delete(key ?? "");
    const raw = await callJson("GET", `/v1/mail-reports/${row?.id}/raw`, { token: sent.ws.token });
    expect(raw.status).toBe(404);
    expect(raw.body).toMatchObject({ code: "raw_not_found" });
  });

  it("serves every filter from an index, newest first without sorting", async () => {
    const accountId = "acc_01JD3Z6X8Y9ABCDEFGHJKMNPQR";
    for (const filter of [
      {},
      { kind: "bounce" as const },
      { emailId: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR" },
      { recipient: "ada@example.com" },
      { kind: "complaint" as const, emailId: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR" },
    ]) {
      const { page, total } = mailReportQueries(db(), { accountId, ...filter }, 50, 0);
      expectIndexed(await planOf(page), "mail_reports");
      expectIndexed(await planOf(total), "mail_reports");
    }
  });
});
