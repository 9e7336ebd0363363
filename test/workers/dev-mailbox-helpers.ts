import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";

export type MailboxEntry = {
  id: string;
  from: string;
  to: string[];
  subject: string;
  created_at: string;
  recipient: string;
  return_path: string;
  raw: string;
};

/** The app as `wrangler dev` runs it: ENVIRONMENT=development. */
export async function inDevelopment(path: string) {
  const ctx = createExecutionContext();
  const res = await createApp().request(
    `http://127.0.0.1:8787${path}`,
    {},
    { ...env, ENVIRONMENT: "development" },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** The development mailbox's entries for one email: one per envelope. */
export async function mailboxEntriesOf(emailId: string): Promise<MailboxEntry[]> {
  const { data } = (await (await inDevelopment("/_dev/mailbox.json")).json()) as { data: MailboxEntry[] };
  return data.filter((m) => m.id === emailId);
}
