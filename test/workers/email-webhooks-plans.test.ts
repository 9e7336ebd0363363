import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { unsubscribedEventStatement } from "../../src/features/email-webhooks/fact-events";
import { emailWebhookEvents } from "../../src/features/email-webhooks/outcome-listener";
import { claimedIn } from "../../src/features/emails/delivery.repo";
import { planOf } from "./query-plan";

const statements = () => {
  return [
    ...emailWebhookEvents.ended(claimedIn([{ id: "eml_X", attempts: 1 }]), "sent", true, 0),
    ...emailWebhookEvents.recipients(
      [
        { emailId: "eml_X", address: "a@example.com", state: "accepted", response: "250" },
        { emailId: "eml_Y", address: "b@example.com", state: "accepted", response: "250" },
      ],
      claimedIn(
        [
          { id: "eml_X", attempts: 1 },
          { id: "eml_Y", attempts: 1 },
        ],
        "e",
      ),
      0,
    ),
    ...emailWebhookEvents.bounced("eml_X", "a@example.com", "hard", 0),
    ...emailWebhookEvents.firstOpen("eml_X", 0),
    ...emailWebhookEvents.firstClick("eml_X", 0, "https://example.com/"),
    ...emailWebhookEvents.suppressed("acc_X", [{ tags: [], recipients: ["a@example.com"] }], () => sql`1`, 0),
    unsubscribedEventStatement(
      { accountId: "acc_X", customerId: "cus_X", campaignId: "cmp_X", method: "link" },
      sql`1`,
      0,
    ),
  ];
};

describe("email event webhooks: what the facts' statements cost", () => {
  // Every fact's batch carries these, with or without endpoints: each is a few index probes (the
  // email by id, the account's endpoints), never a scan, so a workspace without endpoints pays
  // one probe of webhook_endpoints per statement and writes nothing.
  it("reads every table through an index", async () => {
    for (const statement of statements()) {
      const plan = await planOf(statement);
      for (const line of plan.filter((l) => l.startsWith("SEARCH "))) {
        expect(line, plan.join("\n")).toMatch(/USING (COVERING )?INDEX|USING (INTEGER )?PRIMARY KEY/);
      }
      // Only the JSON parameters and the CTE's few rows are scanned, never a table (aliases
      // e, w0, w, x, t, b, v, p, c in the statements).
      expect(plan.join("\n")).not.toMatch(/SCAN (e|w0|w|x|t|b|v|p|c|emails|email_webhook_outbox)\b/);
      expect(plan.join("\n")).toContain("webhook_endpoints_account_created (account_id=?)");
    }
  });
});
