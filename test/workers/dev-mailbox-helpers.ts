import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import type { MailboxMessage } from "../../src/features/dev-mailbox/dev-mailbox.repo";

export type MailboxEntry = MailboxMessage;

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
