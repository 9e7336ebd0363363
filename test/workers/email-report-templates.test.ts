import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import PostalMime from "postal-mime";
import { describe, expect, it, vi } from "vitest";
import templateBackfill from "../../migrations/0055_template_report_backfill.sql?raw";
import { emailDailyQuery } from "../../src/features/reports/email-report.repo";
import { countEmails, countSuppressed } from "../../src/features/reports/email-rollups";
import worker from "../../src/index";
import { call, callJson, db, eventually, seedWorkspace, sendingWorkspace, shardD1Of } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { createTemplate } from "./templates-helpers";

// Real sends through the queue: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function countsOf(token: string, query = "") {
  const res = await callJson<{ totals: Record<string, number | null> }>(
    "GET",
    `/v1/reports/email?from=${today()}&to=${tomorrow()}${query}`,
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.totals;
}

const ZERO = {
  accepted: 0,
  sent: 0,
  delivered: 0,
  bounced_hard: 0,
  bounced_soft: 0,
  complained: 0,
  opened: 0,
  clicked: 0,
  suppressed: 0,
  failed: 0,
};

const RECEIPT = {
  name: "Receipt",
  from: "Acme <orders@tpl-report.test>",
  subject: "Order {{ORDER}}",
  html: "<p>Order {{ORDER}} is paid.</p>",
  variables: [{ key: "ORDER", type: "number" }],
};

const currentVersion = async (token: string, id: string) =>
  (await callJson<{ current_version_id: string }>("GET", `/v1/templates/${id}`, { token })).body
    .current_version_id;

async function sent(token: string, id: string) {
  await eventually(async () => {
    const { body } = await callJson<{ status: string }>("GET", `/v1/emails/${id}`, { token });
    return body.status === "sent";
  });
}

/** The same queue messages handled again, as a redelivery does. */
async function redeliver(accountId: string, ids: string[]) {
  const batch = createMessageBatch(
    "email-send",
    ids.map((emailId, i) => ({
      id: `again-${i}`,
      timestamp: new Date(),
      attempts: 2,
      body: { emailId, accountId },
    })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

async function openPixel(token: string, id: string) {
  const raw = await (await call("GET", `/v1/emails/${id}/content`, { token })).text();
  const html = (await PostalMime.parse(raw)).html ?? "";
  return new URL(/<img src="([^"]+)"/.exec(html)?.[1] ?? "").pathname;
}

async function runBackfill() {
  for (const statement of templateBackfill.split("--> statement-breakpoint"))
    if (statement.replace(/--.*$/gm, "").trim()) await shardD1Of().prepare(statement).run();
}

describe("the email report's template dimensions", () => {
  it("counts each template's and each version's emails exactly, and no email sent without one", async () => {
    const ws = await sendingWorkspace("tpl-report.test");
    const { token } = ws;
    expect(
      (await call("POST", "/v1/suppressions", { token, body: { email: "gone@example.net" } })).status,
    ).toBe(201);
    const templateId = await createTemplate(token, RECEIPT, true);
    const first = await currentVersion(token, templateId);
    const viaTemplate = (to: string) =>
      callJson<{ id: string }>("POST", "/v1/emails", {
        token,
        body: { to, template: { id: templateId, variables: { ORDER: 7 } }, track_opens: true },
      });

    // Two sends of version 1 and one refused for a suppressed recipient, at once.
    const [ada, bob, refused] = await Promise.all([
      viaTemplate("ada@example.com"),
      viaTemplate("bob@example.com"),
      viaTemplate("gone@example.net"),
    ]);
    expect([ada.status, bob.status, refused.status]).toEqual([200, 200, 422]);

    // Version 2, one send of it, and the same email sent without a template.
    const edited = await call("PATCH", `/v1/templates/${templateId}`, {
      token,
      body: { subject: "Your order {{ORDER}}" },
    });
    expect(edited.status).toBe(200);
    expect((await call("POST", `/v1/templates/${templateId}/publish`, { token })).status).toBe(200);
    const second = await currentVersion(token, templateId);
    expect(second).not.toBe(first);
    const cy = await viaTemplate("cy@example.com");
    const direct = await callJson<{ id: string }>("POST", "/v1/emails", {
      token,
      body: {
        from: RECEIPT.from,
        to: "dee@example.com",
        subject: "Order 7",
        html: "<p>Order 7 is paid.</p>",
      },
    });
    expect([cy.status, direct.status]).toEqual([200, 200]);

    const ids = [ada, bob, cy, direct].map((answer) => answer.body.id);
    for (const id of ids) await sent(token, id);
    // Ada's email opened twice at once, and every queue message handled twice more.
    const pixel = await openPixel(token, ada.body.id);
    await Promise.all([
      call("GET", pixel),
      call("GET", pixel),
      redeliver(ws.accountId, ids),
      redeliver(ws.accountId, ids),
    ]);

    const counted = (accepted: number, opened: number, suppressed: number) => ({
      ...ZERO,
      accepted,
      sent: accepted,
      delivered: accepted,
      opened,
      suppressed,
    });
    expect(await countsOf(token)).toMatchObject(counted(4, 1, 1));
    expect(await countsOf(token, `&template_id=${templateId}`)).toMatchObject(counted(3, 1, 1));
    expect(await countsOf(token, `&template_version_id=${first}`)).toMatchObject(counted(2, 1, 1));
    expect(await countsOf(token, `&template_version_id=${second}`)).toMatchObject(counted(1, 0, 0));

    // A removed template's emails still count under its id.
    expect((await call("DELETE", `/v1/templates/${templateId}`, { token })).status).toBe(200);
    expect(await countsOf(token, `&template_id=${templateId}`)).toMatchObject(counted(3, 1, 1));

    // The migration's backfill builds the same rows from the emails, however often it runs (a
    // refusal left no row to count again: `suppressed` starts at 0).
    await shardD1Of()
      .prepare("DELETE FROM email_daily WHERE account_id = ? AND (dim LIKE 'p:%' OR dim LIKE 'v:%')")
      .bind(ws.accountId)
      .run();
    expect(await countsOf(token, `&template_id=${templateId}`)).toMatchObject(ZERO);
    await runBackfill();
    await runBackfill();
    expect(await countsOf(token, `&template_id=${templateId}`)).toMatchObject(counted(3, 1, 0));
    expect(await countsOf(token, `&template_version_id=${first}`)).toMatchObject(counted(2, 1, 0));
    expect(await countsOf(token, `&template_version_id=${second}`)).toMatchObject(counted(1, 0, 0));
    expect(await countsOf(token)).toMatchObject(counted(4, 1, 1));

    // Another workspace sees none of it under the same ids.
    const other = await seedWorkspace();
    expect(await countsOf(other.token, `&template_id=${templateId}`)).toMatchObject(ZERO);
    expect(await countsOf(other.token, `&template_version_id=${first}`)).toMatchObject(ZERO);
  });

  it("refuses a malformed template filter, or one with another filter, with a 400", async () => {
    const ws = await seedWorkspace();
    const tpl = "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR";
    const tpv = "tpv_01JD3Z6X8Y9ABCDEFGHJKMNPQR";
    for (const query of [
      "template_id=receipt",
      "template_id=tpv_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
      "template_version_id=tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
      `template_id=${tpl}&template_version_id=${tpv}`,
      `template_id=${tpl}&tag=category:welcome`,
      `template_version_id=${tpv}&inbox_id=inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR`,
    ]) {
      const res = await callJson<{ code: string }>("GET", `/v1/reports/email?${query}`, { token: ws.token });
      expect([query, res.status, res.body.code]).toEqual([query, 400, "validation_error"]);
    }
    const alone = await call("GET", `/v1/reports/email?template_id=${tpl}`, { token: ws.token });
    expect(alone.status).toBe(200);
  });

  it("reads one range of the rollups' primary key, and counts by keys", async () => {
    expectIndexed(await planOf(emailDailyQuery(db(), "acc_X", "p:tpl_X", 20_000, 20_030)), "email_daily");
    expectIndexed(await planOf(emailDailyQuery(db(), "acc_X", "v:tpv_X", 20_000, 20_030)), "email_daily");
    // The count that moves with each fact reads the email by its key, never a scan of emails.
    const counting = await planOf(countEmails("opened", sql`id = ${"eml_X"}`, Date.now()));
    expect(counting.join("\n")).not.toMatch(/^SCAN (emails|email_tags|messages|tickets)\b/m);
    expect(counting.filter((line) => /\bemails\b/.test(line)).length).toBeGreaterThan(0);
    const suppressedPlan = await planOf(
      countSuppressed(
        "acc_X",
        [{ tags: [], templateId: "tpl_X", templateVersionId: "tpv_X" }],
        () => sql`1`,
        0,
      ),
    );
    expect(suppressedPlan.join("\n")).not.toMatch(/^SCAN email_daily\b/m);
  });
});
