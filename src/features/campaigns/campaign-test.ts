import { and, eq, sql } from "drizzle-orm";
import { customers } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { parseAddress } from "../../mail/address";
import { commitEmails, prepareEmails } from "../emails/emails.accept";
import { normalizeEmail } from "../emails/emails.input";
import type { EmailRow } from "../emails/emails.repo";
import { enqueueEmails } from "../emails/enqueue";
import { loadSendState } from "../emails/send-state";
import { variablesRefused } from "../templates/variables";
import { batchTemplate, missingOf, templatedBody } from "./campaign-email";
import { sendableTemplate, staticsOf } from "./campaign-template";
import type { CampaignRow } from "./campaigns.repo";
import { type CampaignContext, ownCampaign } from "./campaigns.service";
import { fill, oneLine, textWithUnsubscribe } from "./variables";

/**
 * POST /v1/campaigns/{id}/test: one email to `to` through the pipeline of POST /v1/emails (domain,
 * quota, suppression, tracking, DKIM), in any status. It belongs to no campaign: no stats, no
 * recipient row. Variables come from the workspace's customer of that address when there is one;
 * its unsubscribe link is a placeholder that unsubscribes nobody. A template is its published (or
 * pinned) version, filled as for a recipient: 422 naming the variables that would have no value.
 */
export async function sendTest(ctx: CampaignContext, id: string, to: string) {
  const campaign = await ownCampaign(ctx, id);
  const address = parseAddress(to)?.address.toLowerCase() ?? to;
  const [customer] = await ctx.db
    .select({
      name: customers.name,
      metadata: customers.metadata,
      // As for a recipient: the first of the campaign's groups the customer is in.
      groupName: sql<string | null>`(SELECT g.name FROM contact_groups g WHERE g.id = (
        SELECT j.value FROM json_each(${campaign.contactGroupIds}) AS j WHERE EXISTS (SELECT 1 FROM contact_group_members m
          WHERE m.group_id = j.value AND m.customer_id = customers.id) LIMIT 1))`,
    })
    .from(customers)
    .where(and(eq(customers.accountId, ctx.accountId), eq(customers.email, address)))
    .limit(1);
  const values = {
    email: address,
    name: customer?.name ?? null,
    unsubscribeUrl: `${ctx.env.PUBLIC_BASE_URL.replace(/\/$/, "")}/u/test`,
  };
  const body = campaign.templateId
    ? await templatedTest(ctx, campaign, {
        ...values,
        metadata: customer?.metadata ?? "{}",
        groupName: customer?.groupName ?? null,
      })
    : {
        ...(campaign.html ? { html: fill(campaign.html, values, true) } : {}),
        ...(campaign.text ? { text: fill(textWithUnsubscribe(campaign.text), values) } : {}),
      };
  const email = normalizeEmail(
    {
      from: campaign.from,
      to,
      ...(campaign.replyTo ? { reply_to: campaign.replyTo } : {}),
      subject: oneLine(`[Test] ${fill(campaign.subject, values)}`),
      ...body,
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

async function templatedTest(
  ctx: CampaignContext,
  campaign: CampaignRow,
  person: {
    email: string;
    name: string | null;
    metadata: string;
    groupName: string | null;
    unsubscribeUrl: string;
  },
) {
  const statics = staticsOf(campaign);
  const found = await sendableTemplate(
    ctx,
    campaign.templateId ?? "",
    campaign.templateVersionId,
    statics,
    "template",
  );
  const template = batchTemplate(campaign, found.version, found.layout);
  const recipient = { customerId: "", unsubscribed: false, ...person };
  const missing = missingOf(template, recipient);
  if (missing.length > 0) {
    throw variablesRefused(
      missing.map((key) => ({
        path: `template.variables.${key}`,
        message: `has no value for ${person.email}`,
      })),
    );
  }
  return templatedBody(template, recipient, person.unsubscribeUrl);
}
