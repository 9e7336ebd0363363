import { iso } from "../../lib/time";
import type { InboxRow } from "./inboxes.repo";
import type { STATUSES_AFTER_REPLY } from "./inboxes.schemas";
import { readWebhooks } from "./webhooks";

/** The public inbox; async because webhook secrets are decrypted on the way out. */
export async function toInbox(row: InboxRow, encryptionKey: string) {
  return {
    id: row.id,
    name: row.name,
    email_address: row.emailAddress,
    connection_id: row.connectionId,
    status_after_reply: row.statusAfterReply as (typeof STATUSES_AFTER_REPLY)[number],
    assignment_rule: row.assignmentRule,
    webhooks: await readWebhooks(row.webhooks, encryptionKey),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export type Inbox = Awaited<ReturnType<typeof toInbox>>;

/** The inbox as a read key sees it: its webhooks without their secrets. */
export const withoutSecrets = (inbox: Inbox) => ({
  ...inbox,
  webhooks: inbox.webhooks.map((webhook) => ({ ...webhook, secret: null })),
});
