import { describe, expect, it } from "vitest";
import { deliverEmail } from "../../src/features/emails/deliver";
import { callJson, shardEnv } from "./helpers";
import { heldEmail } from "./smtp-env";

describe("cloudflare transport", () => {
  it("hands the signed message to the send_email binding", async () => {
    const { ws, id } = await heldEmail("cf.test", ["ada@example.com"]);
    const outcome = await deliverEmail({ ...shardEnv(), EMAIL_TRANSPORT: "cloudflare" }, id);
    const email = await callJson<Record<string, unknown>>("GET", `/v1/emails/${id}`, { token: ws.token });
    expect(outcome).toEqual({ kind: "done", status: "sent" });
    expect(email.body).toMatchObject({ status: "sent", last_response: "250 accepted by send_email" });
  });
});
