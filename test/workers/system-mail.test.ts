import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/client";
import { deliverEmail } from "../../src/features/emails/deliver";
import { systemEmail } from "../../src/features/emails/system-mail";
import { generateDkimKeyPair } from "../../src/mail/dkim/keys";
import { callJson, db, seedWorkspace, shardEnv } from "./helpers";
import { sentSystemEmail } from "./people-helpers";

const mail = { to: "ada@example.com", subject: "Sign in", text: "secret link", html: "<p>secret link</p>" };

describe("the service's own mail", () => {
  it("is DKIM-signed for SYSTEM_FROM's domain when the deployment has a system key", async () => {
    const ws = await seedWorkspace();
    const keys = await generateDkimKeyPair();
    const email = systemEmail(db(), shardEnv(), ws.accountId, mail, Date.now());
    await runBatch(db(), email.statements);
    // As the send queue's consumer hands it on: the env of the workspace's shard.
    const signedEnv = {
      ...shardEnv(),
      SYSTEM_DKIM_PRIVATE_KEY: keys.privateKey,
      SYSTEM_DKIM_SELECTOR: "sys1",
    };
    expect(await deliverEmail(signedEnv, email.row.id)).toEqual({ kind: "done", status: "sent" });
    const raw = (await (await env.FILES.get(`emails/${email.row.id}/message.eml`))?.text()) ?? "";
    expect(raw).toMatch(/^DKIM-Signature:/);
    expect(raw.replace(/\r\n\s+/g, " ")).toMatch(/d=localhost\.test;.*s=sys1;/);
  });

  it("needs no sender domain of the workspace and takes none of its email or storage quota", async () => {
    const ws = await seedWorkspace({ plan: "free", overrides: { emails_per_hour: 0, storage_bytes: 0 } });
    const invited = await callJson("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "quota@example.com", role: "agent" },
    });
    expect(invited.status).toBe(201);
    await sentSystemEmail(ws, "quota@example.com");
    const usage = await callJson<{ quotas: Record<string, { current: number }> }>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      { token: ws.token },
    );
    expect(usage.body.quotas.emails_per_hour?.current).toBe(0);
    expect(usage.body.quotas.storage_bytes?.current).toBe(0);
  });
});
