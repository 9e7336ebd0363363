import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import before from "../../migrations/0011_mail_reports.sql?raw";
import migration from "../../migrations/0024_mail_report_list.sql?raw";
import { newId } from "../../src/lib/ids";
import { seedWorkspace } from "./helpers";

/**
 * Migration 0024's own copy statement, run against a table of 0011's shape: the database the
 * tests share already has the new tables, so the statements are pointed at two tables of this
 * file's own (the names are all that changes).
 */
function statementOf(sql: string, opening: string, names: Record<string, string>) {
  const statement = sql.split("--> statement-breakpoint").find((s) => s.includes(opening));
  if (!statement) throw new Error(`no statement with ${opening}`);
  return Object.entries(names).reduce((s, [from, to]) => s.replaceAll(from, to), statement);
}

async function runBackfill(rows: Array<Record<string, unknown>>) {
  const suffix = crypto.randomUUID().replaceAll("-", "");
  const names = { "`__new_mail_reports`": `new_${suffix}`, "`mail_reports`": `old_${suffix}` };
  await env.DB_2.prepare(statementOf(before, "CREATE TABLE `mail_reports`", names)).run();
  await env.DB_2.prepare(statementOf(migration, "CREATE TABLE `__new_mail_reports`", names)).run();
  for (const row of rows) {
    const columns = Object.keys(row);
    await env.DB_2.prepare(
      `INSERT INTO old_${suffix} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    )
      .bind(...Object.values(row))
      .run();
  }
  await env.DB_2.prepare(statementOf(migration, "INSERT INTO `__new_mail_reports`", names)).run();
  const { results } = await env.DB_2.prepare(
    `SELECT public_id, kind, recipient, bounce_type, status_code, reply_code, diagnostic, reporting_mta, action FROM new_${suffix} ORDER BY id`,
  ).all<Record<string, string | null>>();
  await env.DB_2.batch([
    env.DB_2.prepare(`DROP TABLE new_${suffix}`),
    env.DB_2.prepare(`DROP TABLE old_${suffix}`),
  ]);
  return results;
}

const recipient = (address: string, kind: string | null, counted: boolean, extra = {}) => ({
  address,
  action: kind === "complaint" ? "complaint" : "failed",
  status: kind === "soft" ? "4.2.2" : "5.1.1",
  diagnostic: `${address} said no`,
  kind,
  counted,
  ...extra,
});

describe("migration 0024's backfill of existing reports", () => {
  it("fills kind, the counted (else first) recipient, its codes and the action from detail", async () => {
    const ws = await seedWorkspace();
    const at = Date.UTC(2026, 10, 20);
    await env.DB_2.prepare(
      "INSERT INTO suppressions (id, account_id, email, reason, created_at) VALUES (?, ?, ?, 'hard_bounce', ?)",
    )
      .bind(newId("sup"), ws.accountId, `gone-${ws.accountId}@example.net`, at)
      .run();
    const common = {
      account_id: ws.accountId,
      mail_from: "",
      rcpt_to: "b@x.test",
      raw_key: "k",
      raw_size: 1,
    };
    const gone = `gone-${ws.accountId}@example.net`;
    const rows = await runBackfill([
      {
        ...common,
        type: "delivery_status",
        outcome: "applied",
        created_at: at,
        detail: JSON.stringify([
          recipient("decoy@example.net", "hard", false),
          recipient(gone, "hard", true, { replyCode: "550" }),
        ]),
      },
      {
        ...common,
        type: "delivery_status",
        outcome: "applied",
        created_at: at,
        detail: JSON.stringify([recipient("slow@example.net", "soft", true)]),
      },
      {
        ...common,
        type: "feedback",
        outcome: "unmatched",
        created_at: at,
        detail: JSON.stringify([recipient("angry@example.net", "complaint", false)]),
      },
      { ...common, account_id: null, type: null, outcome: "unsupported", created_at: at, detail: "[]" },
    ]);
    expect(rows).toEqual([
      {
        public_id: expect.stringMatching(/^rpt_[0-9A-HJKMNP-TV-Z]{26}$/),
        kind: "bounce",
        recipient: gone,
        bounce_type: "hard",
        status_code: "5.1.1",
        reply_code: "550",
        diagnostic: `${gone} said no`,
        reporting_mta: null,
        action: "suppressed",
      },
      expect.objectContaining({
        kind: "bounce",
        recipient: "slow@example.net",
        bounce_type: "soft",
        action: "counted",
      }),
      expect.objectContaining({
        kind: "complaint",
        recipient: "angry@example.net",
        bounce_type: null,
        action: "ignored",
      }),
      expect.objectContaining({ kind: "unsupported", recipient: null, action: "ignored" }),
    ]);
    // The id's time part is the row's created_at, as a ULID's is.
    const { decodeTime } = await import("ulid");
    expect(decodeTime(rows[0]?.public_id?.slice(4) ?? "")).toBe(at);
  });
});
