import { env } from "cloudflare:workers";
import { type SQL, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type DeliveryOutcomeListener, deliveryOutcomeHook } from "../../src/mail/delivery-outcomes";
import { trackingSignature } from "../../src/mail/tracking/signature";
import { act, campaignOf, campaignWorkspace, createCampaign, emailsOf } from "./campaigns-helpers";
import { call, eventually } from "./helpers";

/** A listener whose every outcome is its own marker statements, told apart by identity. */
function marking(name: string): { listener: DeliveryOutcomeListener; marks: SQL[] } {
  const marks = [sql`SELECT ${`${name} 1`}`, sql`SELECT ${`${name} 2`}`];
  const all = () => marks;
  return {
    marks,
    listener: {
      accepted: all,
      handedOff: all,
      ended: all,
      recipients: all,
      bounced: all,
      delivered: all,
      recovered: all,
      firstOpen: all,
      firstClick: all,
      firstBounce: all,
      suppressed: all,
    },
  };
}

const everyOutcome = (outcomes: DeliveryOutcomeListener) => [
  () => outcomes.accepted(["eml_X"], 0),
  () => outcomes.handedOff(sql`1`, 0),
  () => outcomes.ended(sql`1`, "sent", true, 0),
  () =>
    outcomes.recipients(
      [{ emailId: "eml_X", address: "a@example.com", state: "accepted", response: null }],
      sql`1`,
      0,
    ),
  () => outcomes.bounced("eml_X", "a@example.com", "hard", 0),
  () => outcomes.delivered(sql`1`, "sent", 0),
  () => outcomes.recovered(sql`1`, 0),
  () => outcomes.firstOpen("eml_X", 0),
  () => outcomes.firstClick("eml_X", 0, "https://example.com/"),
  () => outcomes.firstBounce("eml_X", sql`('sent')`),
  () => outcomes.suppressed("acc_X", [{ tags: [] }], () => sql`1`, 0),
];

describe("the delivery outcome hook", () => {
  it("throws on every outcome while no listener is registered, so no counter is lost quietly", () => {
    const { outcomes } = deliveryOutcomeHook();
    for (const outcome of everyOutcome(outcomes)) {
      expect(outcome).toThrow(/No delivery outcome listener is registered/);
    }
  });

  it("hands back every listener's statements in registration order, each listener once", () => {
    const hook = deliveryOutcomeHook();
    const first = marking("first");
    const second = marking("second");
    hook.register(first.listener);
    hook.register(second.listener);
    hook.register(first.listener);
    for (const outcome of everyOutcome(hook.outcomes)) {
      const statements = outcome();
      expect(statements).toHaveLength(4);
      statements.forEach((s, i) => {
        expect(s).toBe([...first.marks, ...second.marks][i]);
      });
    }
  });

  it("moves a campaign's opened count when its email's pixel is fetched from the worker, once", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const campaign = await createCampaign(ws);
    await act(ws.token, campaign.id, "send");
    await eventually(async () => ((await campaignOf(ws.token, campaign.id)).status === "sent" ? true : null));
    const [email] = await emailsOf(campaign.id);
    const id = email?.id ?? "";
    // The pixel a tracked email carries: the route counts any open it signed.
    const pixel = `/t/o/${id}/${await trackingSignature(env.ENCRYPTION_KEY, "open", id)}`;
    for (let i = 0; i < 2; i++) expect((await call("GET", pixel)).status).toBe(200);
    // The open is recorded after the image is answered (waitUntil): wait for both, then check once.
    await eventually(async () => {
      const row = await env.DB_2.prepare("SELECT open_count FROM emails WHERE id = ?")
        .bind(id)
        .first<{ open_count: number }>();
      return row?.open_count === 2 ? row : null;
    });
    expect((await campaignOf(ws.token, campaign.id)).stats.opened).toBe(1);
  });
});
