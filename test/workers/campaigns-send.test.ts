import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/client";
import { firstBounceStatement } from "../../src/features/campaigns/progress";
import { recordClick, recordOpen } from "../../src/features/tracking/tracking.repo";
import { reportStatements } from "../../src/inbound/reports/apply-report";
import { verifyUnsubscribeToken } from "../../src/mail/unsubscribe-token";
import {
  act,
  campaignOf,
  campaignWorkspace,
  createCampaign,
  emailsOf,
  recipientsOf,
} from "./campaigns-helpers";
import { call, callJson, db, eventually } from "./helpers";

const sentCampaign = (token: string, id: string) =>
  eventually(async () => {
    const c = await campaignOf(token, id);
    return c.status === "sent" ? c : null;
  });

async function unsubscribe(token: string, email: string) {
  const { body } = await callJson<{ data: Array<{ id: string }> }>(
    "GET",
    `/v1/customers?email=${encodeURIComponent(email)}`,
    { token },
  );
  const id = body.data[0]?.id ?? "";
  expect((await call("PATCH", `/v1/customers/${id}`, { token, body: { unsubscribed: true } })).status).toBe(
    200,
  );
  return id;
}

describe("sending a campaign", () => {
  it("sends each member once, skips the unsubscribed, suppresses the suppressed, fills and escapes variables", async () => {
    const ws = await campaignWorkspace([
      { email: "ada@example.org", name: "<b>Ada&Co</b> Lovelace" },
      { email: "bob@example.org" },
      { email: "carol@example.org", name: "Carol" },
      { email: "dan@example.org", name: "Dan" },
    ]);
    // A second group sharing members: each customer is still sent once.
    const second = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
      token: ws.token,
      body: { name: "VIP" },
    });
    await callJson("POST", `/v1/contact-groups/${second.body.id}/members`, {
      token: ws.token,
      body: { members: [{ email: "ada@example.org" }, { email: "bob@example.org" }] },
    });
    await unsubscribe(ws.token, "carol@example.org");
    await callJson("POST", "/v1/emails/suppressions", {
      token: ws.token,
      body: { email: "dan@example.org" },
    });

    const campaign = await createCampaign(ws, {
      contact_group_ids: [ws.groupId, second.body.id],
      text: "Hello {{name|there}}",
    });
    const started = await act(ws.token, campaign.id, "send");
    expect(started.body.status).toBe("sending");
    const sent = await sentCampaign(ws.token, campaign.id);
    expect(sent.sent_at).not.toBeNull();
    expect(sent.stats).toEqual({
      recipients: 3,
      sent: 2,
      suppressed: 1,
      failed: 0,
      opened: 0,
      clicked: 0,
      unsubscribed: 0,
      bounced: 0,
      missing_variables: 0,
    });
    expect((await recipientsOf(campaign.id)).map((r) => [r.email, r.state, r.detail])).toEqual([
      ["ada@example.org", "sent", null],
      ["bob@example.org", "sent", null],
      ["carol@example.org", "skipped", "unsubscribed"],
      ["dan@example.org", "suppressed", "suppressed"],
    ]);

    const tagged = await callJson<{ data: Array<{ id: string }> }>(
      "GET",
      `/v1/emails?tag=${encodeURIComponent(`campaign:${campaign.id}`)}`,
      { token: ws.token },
    );
    expect(tagged.body.data).toHaveLength(2);
    const [ada, bob] = await emailsOf(campaign.id);
    expect(ada?.subject).toBe("News for <b>Ada&Co</b> Lovelace");
    expect(ada?.html).toContain("Hi &#60;b&#62;Ada&#38;Co&#60;/b&#62;, news for ada@example.org.");
    expect(ada?.text).toContain("Hello <b>Ada&Co</b> Lovelace");
    expect(bob?.subject).toBe("News for you");
    expect(bob?.html).toContain("Hi friend, news for bob@example.org.");
    expect(bob?.text).toMatch(/Hello there\n\nUnsubscribe: http\S+\/u\/[0-9a-z]{84}/);

    // Each email's link names its own customer and this campaign…
    const recipients = await recipientsOf(campaign.id);
    for (const email of [ada, bob]) {
      // …in the campaign's workspace (`w`), found at once.
      const token = new RegExp(`/u/([0-9a-z]{84})\\?w=${ws.accountId}"`).exec(email?.html ?? "")?.[1] ?? "";
      const target = await verifyUnsubscribeToken(env.ENCRYPTION_KEY, token);
      const recipient = recipients.find((r) => r.email_id === email?.id);
      expect(target).toEqual({ customerId: recipient?.customer_id, campaignId: campaign.id });
    }
  });

  it("signs both List-Unsubscribe headers with DKIM, as an independent parser reads them", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org", name: "Ada" }]);
    const campaign = await createCampaign(ws);
    await act(ws.token, campaign.id, "send");
    await sentCampaign(ws.token, campaign.id);
    const [email] = await emailsOf(campaign.id);
    const raw = (await (await env.FILES.get(`emails/${email?.id}/message.eml`))?.text()) ?? "";
    const parsed = await PostalMime.parse(raw);
    const header = (name: string) => parsed.headers.filter((h) => h.key === name).map((h) => h.value);
    const [link] = header("list-unsubscribe");
    expect(link).toMatch(/^<http\S+\/u\/[0-9a-z]{84}\?w=acc_[0-9A-Z]{26}>$/);
    expect(header("list-unsubscribe-post")).toEqual(["List-Unsubscribe=One-Click"]);
    expect(parsed.html).toContain(link?.slice(1, -1));
    const [dkim] = header("dkim-signature");
    const signed = (/(?:^|;)\s*h=([^;]+)/.exec(dkim ?? "")?.[1] ?? "")
      .replace(/\s+/g, "")
      .toLowerCase()
      .split(":");
    expect(signed).toContain("list-unsubscribe");
    expect(signed).toContain("list-unsubscribe-post");
  });

  it("counts the first open, click and bounce of each campaign email, once", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }, { email: "bob@example.org" }]);
    const campaign = await createCampaign(ws);
    await act(ws.token, campaign.id, "send");
    await sentCampaign(ws.token, campaign.id);
    const [ada, bob] = await emailsOf(campaign.id);
    const now = Date.now();
    for (const id of [ada?.id, ada?.id, bob?.id]) await recordOpen(db(), id ?? "", now);
    for (let i = 0; i < 2; i++) await recordClick(db(), ada?.id ?? "", "https://example.org/", now);
    const bounce = (email: typeof ada) =>
      runBatch(
        db(),
        reportStatements(
          { id: email?.id ?? "", accountId: ws.accountId, recipients: [email?.to ?? ""] },
          [
            {
              address: email?.to ?? "",
              action: "failed",
              status: "5.1.1",
              replyCode: "550",
              diagnostic: "550 5.1.1 gone",
              kind: "hard",
            },
          ],
          now,
        ),
      );
    await bounce(ada);
    await bounce(ada);
    expect((await campaignOf(ws.token, campaign.id)).stats).toMatchObject({
      recipients: 2,
      sent: 2,
      opened: 2,
      clicked: 1,
      bounced: 1,
    });
    // An email of no campaign moves no campaign's counter.
    const plain = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: { from: `a@${ws.domain}`, to: "x@example.org", subject: "s", text: "t" },
    });
    await recordOpen(db(), plain.body.id, now);
    await runBatch(db(), [firstBounceStatement(plain.body.id, (await import("drizzle-orm")).sql`('sent')`)]);
    expect((await campaignOf(ws.token, campaign.id)).stats.opened).toBe(2);
  });

  it("sends a test email outside the stats: [Test] subject, no recipient row, no campaign link", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org", name: "Ada" }]);
    const campaign = await createCampaign(ws);
    const test = await act(ws.token, campaign.id, "test", { to: "ada@example.org" });
    expect(test.status).toBe(200);
    const emailId = (test.body as unknown as { email_id: string }).email_id;
    const email = await eventually(async () => {
      const e = await callJson<{ status: string; subject: string; html: string }>(
        "GET",
        `/v1/emails/${emailId}`,
        {
          token: ws.token,
        },
      );
      return e.body.status === "sent" ? e.body : null;
    });
    expect(email.subject).toBe("[Test] News for Ada");
    expect(email.html).toContain("Hi Ada,");
    expect(email.html).toContain("/u/test");
    expect(await emailsOf(campaign.id)).toEqual([]);
    expect(await recipientsOf(campaign.id)).toEqual([]);
    expect((await campaignOf(ws.token, campaign.id)).stats.sent).toBe(0);
    expect((await act(ws.token, campaign.id, "test", { to: "not an address" })).status).toBe(400);
  });
});
