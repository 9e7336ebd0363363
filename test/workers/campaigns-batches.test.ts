import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { startSending } from "../../src/features/campaigns/recipients.repo";
import { sendCampaignBatch } from "../../src/features/campaigns/send-batch";
import worker from "../../src/index";
import {
  act,
  campaignOf,
  campaignWorkspace,
  createCampaign,
  emailsOf,
  manyMembers,
  recipientsOf,
} from "./campaigns-helpers";
import { db, eventually, shardEnv } from "./helpers";

/** A campaign moved to `sending` with its recipient rows, and no batch message queued yet. */
async function startedCampaign(members: number, options: Parameters<typeof campaignWorkspace>[1] = {}) {
  const ws = await campaignWorkspace(manyMembers(members), options);
  const campaign = await createCampaign(ws);
  expect(await startSending(db(), ws.accountId, campaign.id, Date.now())).toBe(true);
  return { ws, campaign };
}

const countBy = (rows: Array<{ state: string }>) =>
  rows.reduce<Record<string, number>>((acc, r) => {
    acc[r.state] = (acc[r.state] ?? 0) + 1;
    return acc;
  }, {});

/** Every recipient has exactly one email, and the emails go to distinct addresses. */
async function expectEachOnce(campaignId: string, count: number) {
  const emails = await emailsOf(campaignId);
  expect(emails).toHaveLength(count);
  expect(new Set(emails.map((e) => e.to)).size).toBe(count);
  const recipients = await recipientsOf(campaignId);
  expect(new Set(recipients.map((r) => r.email_id)).size).toBe(count);
}

const sentCampaign = (token: string, id: string) =>
  eventually(async () => {
    const c = await campaignOf(token, id);
    return c.status === "sent" ? c : null;
  }, 30_000);

describe("campaign batches", { timeout: 60_000 }, () => {
  it("writes the recipient rows first, then sends nobody twice when the Queue delivers a batch twice", async () => {
    const { ws, campaign } = await startedCampaign(150);
    expect(countBy(await recipientsOf(campaign.id))).toEqual({ pending: 150 });
    expect((await campaignOf(ws.token, campaign.id)).stats.recipients).toBe(150);

    // The same message twice in one batch and once more in a concurrent batch, each naming its
    // workspace as every batch message does (campaign-moves.ts queueBatch).
    const message = (id: string) => ({
      id,
      timestamp: new Date(),
      attempts: 1,
      body: { campaignId: campaign.id, accountId: ws.accountId },
    });
    const batches = [
      createMessageBatch("email-send", [message("a"), message("b")]),
      createMessageBatch("email-send", [message("c")]),
    ];
    const results = await Promise.all(
      batches.map(async (batch) => {
        const ctx = createExecutionContext();
        await worker.queue(batch, env, ctx);
        return getQueueResult(batch, ctx);
      }),
    );
    for (const result of results) expect(result.retryMessages).toEqual([]);
    const sent = await sentCampaign(ws.token, campaign.id);
    expect(sent.stats).toMatchObject({ recipients: 150, sent: 150, failed: 0 });
    expect(countBy(await recipientsOf(campaign.id))).toEqual({ sent: 150 });
    await expectEachOnce(campaign.id, 150);
  });

  it("pauses between batches and resumes where it stopped", async () => {
    const { ws, campaign } = await startedCampaign(250);
    expect(await sendCampaignBatch(shardEnv(), campaign.id)).toBe("continue");
    expect((await act(ws.token, campaign.id, "pause")).body.status).toBe("paused");
    // A batch message arriving after the pause sends nobody.
    expect(await sendCampaignBatch(shardEnv(), campaign.id)).toBe("done");
    const paused = countBy(await recipientsOf(campaign.id));
    expect(paused.pending).toBe(150);
    expect((paused.queued ?? 0) + (paused.sent ?? 0)).toBe(100);
    // The batch under way still delivers; the campaign stays paused.
    await eventually(async () => countBy(await recipientsOf(campaign.id)).sent === 100);
    expect((await campaignOf(ws.token, campaign.id)).status).toBe("paused");

    const resumed = await act(ws.token, campaign.id, "resume");
    expect(resumed.body).toMatchObject({ status: "sending", paused_reason: null });
    const sent = await sentCampaign(ws.token, campaign.id);
    expect(sent.stats).toMatchObject({ recipients: 250, sent: 250 });
    await expectEachOnce(campaign.id, 250);
  });

  it("pauses with the reason when the hourly quota is reached mid-send, sending only what fits", async () => {
    const ws = await campaignWorkspace(manyMembers(8), {
      plan: "enterprise",
      overrides: { emails_per_hour: 5 },
    });
    const campaign = await createCampaign(ws);
    expect((await act(ws.token, campaign.id, "send")).status).toBe(200);
    const paused = await eventually(async () => {
      const c = await campaignOf(ws.token, campaign.id);
      return c.status === "paused" && c.stats.sent === 5 ? c : null;
    });
    expect(paused.paused_reason).toMatch(/^limit_exceeded: .*emails per hour limit of 5/);
    expect(countBy(await recipientsOf(campaign.id))).toEqual({ sent: 5, pending: 3 });

    // Resuming while the quota is still full pauses again, sending nobody.
    expect((await act(ws.token, campaign.id, "resume")).status).toBe(200);
    const again = await eventually(async () => {
      const c = await campaignOf(ws.token, campaign.id);
      return c.status === "paused" ? c : null;
    });
    expect(again.paused_reason).toMatch(/^limit_exceeded/);
    expect(await emailsOf(campaign.id)).toHaveLength(5);
  });

  it("cancels mid-send: the rest is skipped, what was queued is still counted", async () => {
    const { ws, campaign } = await startedCampaign(150);
    expect(await sendCampaignBatch(shardEnv(), campaign.id)).toBe("continue");
    expect((await act(ws.token, campaign.id, "cancel")).body.status).toBe("cancelled");
    expect(await sendCampaignBatch(shardEnv(), campaign.id)).toBe("done");
    await eventually(async () => (await campaignOf(ws.token, campaign.id)).stats.sent === 100);
    const rows = await recipientsOf(campaign.id);
    expect(countBy(rows)).toEqual({ sent: 100, skipped: 50 });
    expect(rows.filter((r) => r.state === "skipped").every((r) => r.detail === "cancelled")).toBe(true);
    expect((await campaignOf(ws.token, campaign.id)).status).toBe("cancelled");
  });

  it("skips a member who unsubscribes after the recipient rows were written", async () => {
    const { ws, campaign } = await startedCampaign(3);
    const [first] = await recipientsOf(campaign.id);
    await env.DB_2.prepare("UPDATE customers SET unsubscribed = 1 WHERE id = ?")
      .bind(first?.customer_id)
      .run();
    expect(await sendCampaignBatch(shardEnv(), campaign.id)).toBe("continue");
    const sent = await sentCampaign(ws.token, campaign.id);
    expect(sent.stats).toMatchObject({ recipients: 2, sent: 2 });
    expect((await recipientsOf(campaign.id)).find((r) => r.customer_id === first?.customer_id)).toMatchObject(
      {
        state: "skipped",
        detail: "unsubscribed",
        email_id: null,
      },
    );
  });
});
