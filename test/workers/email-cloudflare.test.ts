import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverEmail } from "../../src/features/emails/deliver";
import { callJson, sendingWorkspace } from "./helpers";

describe("cloudflare transport", () => {
  it("hands the signed message to the send_email binding", async () => {
    const ws = await sendingWorkspace("cf.test");
    const { body } = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "a@cf.test",
        to: "ada@example.com",
        subject: "Via Cloudflare",
        text: "Hello",
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    await env.DB.prepare("UPDATE emails SET scheduled_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, body.id)
      .run();
    const outcome = await deliverEmail({ ...env, EMAIL_TRANSPORT: "cloudflare" }, body.id);
    const email = await callJson<Record<string, unknown>>("GET", `/v1/emails/${body.id}`, {
      token: ws.token,
    });
    expect(outcome).toEqual({ kind: "done", status: "sent" });
    expect(email.body).toMatchObject({ status: "sent", last_response: "250 accepted by send_email" });
  });
});
