import { describe, expect, it } from "vitest";
import { createEndpoint } from "./email-webhooks-helpers";
import { deliver, FIXTURES } from "./inbound-helpers";
import { report, sentEmail } from "./reports-helpers";
import { awaitDeliveries, endpoint, envelopesAt } from "./webhook-helpers";

/**
 * Bounce and complaint reports arrive by mail, through the Worker's email() handler: the events
 * they write are announced by the handler once the report's batch commits, so the sender's app
 * hears of a bounce in seconds, not at the next minute's sweep. No sweep runs in this file.
 */
describe("email event webhooks: reports received by mail", { timeout: 60_000 }, () => {
  it("tells a DSN's hard bounce at once, and nothing again when the same DSN comes twice", async () => {
    const sent = await sentEmail(["gone@example.net"]);
    const hook = endpoint();
    await createEndpoint(sent.ws.token, { url: hook.url, events: ["email.bounced"] });

    const dsn = report(FIXTURES.dsnHard, sent, "gone@example.net");
    expect(await deliver(dsn, { from: "", to: sent.bounce })).toEqual({ outcome: "accepted" });
    const [request] = await awaitDeliveries(hook.path, 1);
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({
      event: "email.bounced",
      data: { email_id: sent.id, recipient: "gone@example.net" },
    });

    expect(await deliver(dsn, { from: "", to: sent.bounce })).toEqual({ outcome: "accepted" });
    await awaitDeliveries(hook.path, 1, 2_000);
    expect(await envelopesAt(hook.path)).toHaveLength(1);
  });
});
