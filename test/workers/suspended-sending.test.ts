import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dueScheduled, stalledSending } from "../../src/features/campaigns/campaigns.repo";
import { startSending } from "../../src/features/campaigns/recipients.repo";
import { sendCampaignBatch } from "../../src/features/campaigns/send-batch";
import { deliverEmail } from "../../src/features/emails/deliver";
import { dueEmailIds } from "../../src/features/emails/emails.repo";
import { sendSurveyEmail } from "../../src/features/surveys/survey-send";
import {
  automationWorkspace,
  enrollmentOf,
  historyOf,
  runEnrollment,
  seedAutomation,
  seedCustomer,
  seedEnrollment,
} from "./automations-helpers";
import {
  act,
  campaignOf,
  campaignWorkspace,
  createCampaign,
  emailsOf,
  manyMembers,
} from "./campaigns-helpers";
import { callJson, db, seedWorkspace, sendingWorkspace, shardEnv } from "./helpers";
import { surveyDesk, surveyEmailsOf } from "./surveys-helpers";
import { setAccountStatus } from "./suspension-helpers";

const HOUR = 3_600_000;

/** An email accepted while the workspace was active, due in an hour (so no consumer takes it yet). */
async function acceptedEmail() {
  const ws = await sendingWorkspace(`susp-${crypto.randomUUID().slice(0, 8)}.test`);
  const created = await callJson<{ id: string; status: string }>("POST", "/v1/emails", {
    token: ws.token,
    body: {
      from: `hello@${ws.domain}`,
      to: "ada@example.com",
      subject: "Your receipt",
      text: "Thanks",
      scheduled_at: new Date(Date.now() + HOUR).toISOString(),
    },
  });
  expect(created.body.status).toBe("scheduled");
  return { ws, id: created.body.id };
}

const emailRow = (id: string) =>
  env.DB_2.prepare("SELECT status, last_response FROM emails WHERE id = ?")
    .bind(id)
    .first<{ status: string; last_response: string | null }>();

const builtMessage = (id: string) => env.FILES.get(`emails/${id}/message.eml`);

describe("a suspended workspace sends nothing", () => {
  it("a queued email ends failed with the reason account_suspended, never built nor handed over", async () => {
    // Another workspace, active: the gate must look at this email's own workspace.
    await seedWorkspace();
    const { ws, id } = await acceptedEmail();
    await setAccountStatus(ws.accountId, "suspended");
    // Queued before the suspension (a reply, a transactional email), its message reaches the consumer now.
    await env.DB_2.prepare("UPDATE emails SET status = 'queued', scheduled_at = NULL WHERE id = ?")
      .bind(id)
      .run();
    expect(await deliverEmail(shardEnv(), id)).toEqual({ kind: "done", status: "failed" });
    const row = await emailRow(id);
    expect(row?.status).toBe("failed");
    expect(row?.last_response).toMatch(/^account_suspended: /);
    expect(await builtMessage(id)).toBeNull();
    // Reinstating does not send it later.
    await setAccountStatus(ws.accountId, "active");
    expect(await deliverEmail(shardEnv(), id)).toEqual({ kind: "skipped" });
    expect(await builtMessage(id)).toBeNull();
  });

  it("a scheduled email stays scheduled, out of the sweep, and goes once the workspace is reinstated", async () => {
    const { ws, id } = await acceptedEmail();
    await setAccountStatus(ws.accountId, "suspended");
    const now = Date.now();
    await env.DB_2.prepare("UPDATE emails SET scheduled_at = ? WHERE id = ?")
      .bind(now - 1000, id)
      .run();
    expect(await deliverEmail(shardEnv(), id)).toEqual({ kind: "skipped" });
    expect((await emailRow(id))?.status).toBe("scheduled");
    expect(await dueEmailIds(db(), now, now - 2 * 60_000, 5000)).not.toContain(id);
    expect(await builtMessage(id)).toBeNull();

    await setAccountStatus(ws.accountId, "active");
    expect(await dueEmailIds(db(), now, now - 2 * 60_000, 5000)).toContain(id);
    expect(await deliverEmail(shardEnv(), id)).toEqual({ kind: "done", status: "sent" });
  });

  it("a sending campaign holds: its batch sends nobody, the sweep leaves it, and it resumes when reinstated", async () => {
    const ws = await campaignWorkspace(manyMembers(3, `h${crypto.randomUUID().slice(0, 4)}`));
    const campaign = await createCampaign(ws);
    expect(await startSending(db(), ws.accountId, campaign.id, Date.now())).toBe(true);
    await setAccountStatus(ws.accountId, "suspended");

    expect(await sendCampaignBatch(shardEnv(), campaign.id)).toBe("done");
    expect(await emailsOf(campaign.id)).toEqual([]);
    const later = Date.now() + HOUR;
    expect((await stalledSending(db(), later, 50)).map((c) => c.id)).not.toContain(campaign.id);

    await setAccountStatus(ws.accountId, "active");
    expect((await campaignOf(ws.token, campaign.id)).status).toBe("sending");
    expect((await stalledSending(db(), later, 50)).map((c) => c.id)).toContain(campaign.id);
    expect(await sendCampaignBatch(shardEnv(), campaign.id)).toBe("continue");
    expect(await emailsOf(campaign.id)).toHaveLength(3);
  });

  it("a scheduled campaign stays scheduled past its time, and the sweep starts it once reinstated", async () => {
    const ws = await campaignWorkspace(manyMembers(2, `s${crypto.randomUUID().slice(0, 4)}`));
    const campaign = await createCampaign(ws);
    const at = new Date(Date.now() + HOUR).toISOString();
    expect((await act(ws.token, campaign.id, "send", { scheduled_at: at })).body.status).toBe("scheduled");
    await setAccountStatus(ws.accountId, "suspended");
    const later = Date.now() + 2 * HOUR;
    expect((await dueScheduled(db(), later, 50)).map((c) => c.id)).not.toContain(campaign.id);
    await setAccountStatus(ws.accountId, "active");
    expect((await dueScheduled(db(), later, 50)).map((c) => c.id)).toContain(campaign.id);
  });

  it("an automation run ends at its next step with the reason recorded, sending nothing", async () => {
    const ws = await automationWorkspace();
    const customer = await seedCustomer(ws.accountId);
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_mail", type: "send_email", from: `hello@${ws.domain}`, subject: "Hi", text: "Welcome" },
    ]);
    const enrollment = await seedEnrollment(automation, customer.id);
    await setAccountStatus(ws.accountId, "suspended");
    await using instance = await runEnrollment(enrollment);
    await instance.waitForStatus("complete");

    expect(await enrollmentOf(enrollment.id)).toMatchObject({ status: "failed" });
    expect((await enrollmentOf(enrollment.id))?.note).toMatch(/^account_suspended: /);
    expect(await historyOf(enrollment.id)).toEqual({});
    const emails = await env.DB_2.prepare("SELECT count(*) AS n FROM emails WHERE account_id = ?")
      .bind(ws.accountId)
      .first<{ n: number }>();
    expect(emails?.n).toBe(0);
  });

  it("a resolved ticket's survey email is not written", async () => {
    const desk = await surveyDesk();
    await setAccountStatus(desk.ws.accountId, "suspended");
    await env.DB_2.prepare("UPDATE tickets SET status = 'resolved' WHERE id = ?").bind(desk.ticket.id).run();
    const ctx = { db: db(), env: shardEnv(), accountId: desk.ws.accountId, now: Date.now() };
    await sendSurveyEmail(ctx, desk.ticket.id);
    expect(await surveyEmailsOf(desk.ws.accountId, desk.ticket.id)).toEqual([]);
  });
});
