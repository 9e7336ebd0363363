import { env } from "cloudflare:workers";
import { SMTP_TEST_USER, type SmtpTestEnv } from "../support/smtp-test-env";
import { callJson, sendingWorkspace, shardEnv } from "./helpers";

declare global {
  namespace Cloudflare {
    interface Env {
      SMTP_TEST: SmtpTestEnv;
    }
  }
}

/**
 * The Worker's environment as the send queue's consumer hands it on for a workspace of the test
 * shard (its `DB` that shard), with the smtp transport pointed at the loopback smart host.
 */
export const smtpEnv = {
  ...shardEnv(),
  EMAIL_TRANSPORT: "smtp",
  SMTP_HOST: "localhost",
  SMTP_PORT: String(env.SMTP_TEST.submissionPort),
  SMTP_SECURITY: "starttls",
  SMTP_USER: SMTP_TEST_USER.user,
  SMTP_PASSWORD: SMTP_TEST_USER.pass,
  SMTP_HELO_NAME: "worker.test",
};

/** An email accepted by the API but held back (scheduled) so the test can deliver it itself. */
export async function heldEmail(
  domain: string,
  to: string[],
  bcc: string[] = [],
  ws?: Awaited<ReturnType<typeof sendingWorkspace>>,
) {
  const workspace = ws ?? (await sendingWorkspace(domain));
  const { body } = await callJson<{ id: string }>("POST", "/v1/emails", {
    token: workspace.token,
    body: {
      from: `a@${domain}`,
      to,
      bcc,
      subject: "Via smart host",
      text: "Hello",
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  await env.DB_2.prepare("UPDATE emails SET scheduled_at = ? WHERE id = ?")
    .bind(Date.now() - 1000, body.id)
    .run();
  return { ws: workspace, id: body.id };
}
