import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LEASE_MS } from "../../src/features/emails/delivery.repo";
import { sweepEmails } from "../../src/jobs/sweep-emails";
import { act, campaignOf, campaignWorkspace, createCampaign, recipientsOf } from "./campaigns-helpers";
import { db, eventually } from "./helpers";

describe("a campaign email whose sender died after handing it over", { timeout: 60_000 }, () => {
  it("settles its recipient when the sweep closes it, so the campaign still ends sent with exact stats", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }, { email: "bob@example.org" }]);
    const campaign = await createCampaign(ws);
    expect((await act(ws.token, campaign.id, "send")).status).toBe(200);
    await eventually(async () => (await campaignOf(ws.token, campaign.id)).status === "sent", 30_000);

    // Put the send back to the moment both senders died after handing their emails over: Ada's had
    // reached her on an earlier attempt (sent_at set), Bob's never had.
    const now = Date.now();
    await env.DB_2.batch([
      env.DB_2.prepare(
        `UPDATE emails SET status = 'sending', handoff_attempt = attempts, lease_until = ?,
           sent_at = CASE WHEN to_list LIKE '%ada@%' THEN ? ELSE NULL END
         WHERE campaign_id = ?`,
      ).bind(now - 1000, now - 5000, campaign.id),
      env.DB_2.prepare("UPDATE campaign_recipients SET state = 'queued' WHERE campaign_id = ?").bind(
        campaign.id,
      ),
      env.DB_2.prepare(
        "UPDATE campaigns SET status = 'sending', sent_at = NULL, sent_count = 0, failed_count = 0 WHERE id = ?",
      ).bind(campaign.id),
    ]);

    await sweepEmails(db(), env.EMAIL_QUEUE, now + LEASE_MS);
    const recipients = await recipientsOf(campaign.id);
    expect(recipients.map((r) => [r.email, r.state])).toEqual([
      ["ada@example.org", "sent"],
      ["bob@example.org", "failed"],
    ]);
    const settled = await campaignOf(ws.token, campaign.id);
    expect(settled).toMatchObject({ status: "sent", stats: expect.objectContaining({ sent: 1, failed: 1 }) });
    expect(settled.sent_at).not.toBeNull();

    // A second sweep finds nothing more to settle: the counters do not move again.
    await sweepEmails(db(), env.EMAIL_QUEUE, now + 2 * LEASE_MS);
    expect((await campaignOf(ws.token, campaign.id)).stats).toMatchObject({ sent: 1, failed: 1 });
  });
});
