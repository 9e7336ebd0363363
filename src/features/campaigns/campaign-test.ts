import { and, eq } from "drizzle-orm";
import { customers } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { parseAddress } from "../../mail/address";
import { commitEmails, prepareEmails } from "../emails/emails.accept";
import { normalizeEmail } from "../emails/emails.input";
import type { EmailRow } from "../emails/emails.repo";
import { enqueueEmails } from "../emails/enqueue";
import { loadSendState } from "../emails/send-state";
import { type CampaignContext, ownCampaign } from "./campaigns.service";
import { fill, oneLine, textWithUnsubscribe } from "./variables";

/**
 * POST /v1/campaigns/{id}/test: one email to `to` through the pipeline of POST /v1/emails (domain,
 * quota, suppression, tracking, DKIM), in any status. It belongs to no campaign: no stats, no
 * recipient row. Variables come from the workspace's customer of that address when there is one;
 * its unsubscribe link is a placeholder that unsubscribes nobody.
 */
export async function sendTest(ctx: CampaignContext, id: string, to: string) {
  const campaign = await ownCampaign(ctx, id);
  const address = parseAddress(to)?.address.toLowerCase() ?? to;
  const [customer] = await ctx.db
    .select({ name: customers.name })
    .from(customers)
    .where(and(eq(customers.accountId, ctx.accountId), eq(customers.email, address)))
    .limit(1);
  const values = {
    email: address,
    name: customer?.name ?? null,
    unsubscribeUrl: `${ctx.env.PUBLIC_BASE_URL.replace(/\/$/, "")}/u/test`,
  };
  const email = normalizeEmail(
    {
      from: campaign.from,
      to,
      ...(campaign.replyTo ? { reply_to: campaign.replyTo } : {}),
      subject: oneLine(`[Test] ${fill(campaign.subject, values)}`),
      ...(campaign.html ? { html: fill(campaign.html, values, true) } : {}),
      ...(campaign.text ? { text: fill(textWithUnsubscribe(campaign.text), values) } : {}),
    },
    ctx.now,
  );
  const state = await loadSendState(
    ctx.db,
    ctx.accountId,
    [email.fromDomain],
    email.recipients,
    null,
    ctx.now,
  );
  if (!state.account) throw notFound(`Account ${ctx.accountId}`);
  const prepared = await prepareEmails(
    { db: ctx.db, files: ctx.env.FILES, account: state.account, state, now: ctx.now },
    [email],
    "campaign_test",
  );
  await commitEmails(ctx.db, prepared);
  await enqueueEmails(ctx.env.EMAIL_QUEUE, prepared.rows as EmailRow[], ctx.now);
  return { email_id: prepared.rows[0]?.id ?? "" };
}
