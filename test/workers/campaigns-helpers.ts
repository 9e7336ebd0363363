import { expect } from "vitest";
import { callJson, type seedWorkspace, sendingWorkspace, shardD1Of } from "./helpers";

export interface Campaign {
  id: string;
  name: string;
  status: string;
  subject: string;
  paused_reason: string | null;
  scheduled_at: string | null;
  sent_at: string | null;
  contact_group_ids: string[];
  stats: Record<
    | "recipients"
    | "sent"
    | "suppressed"
    | "failed"
    | "opened"
    | "clicked"
    | "unsubscribed"
    | "bounced"
    | "missing_variables",
    number
  >;
}

export const HTML =
  '<p>Hi {{first_name|friend}}, news for {{email}}.</p><a href="{{unsubscribe_url}}">Unsubscribe</a>';

/** A workspace that may send from its own domain, with a contact group of `members`. */
export async function campaignWorkspace(
  members: Array<{ email: string; name?: string }>,
  options: Parameters<typeof seedWorkspace>[0] = {},
) {
  const domain = `cmp-${crypto.randomUUID().slice(0, 8)}.test`;
  const ws = await sendingWorkspace(domain, options);
  const group = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
    token: ws.token,
    body: { name: "Newsletter" },
  });
  for (let i = 0; i < members.length; i += 1000) {
    const added = await callJson("POST", `/v1/contact-groups/${group.body.id}/members`, {
      token: ws.token,
      body: { members: members.slice(i, i + 1000) },
    });
    expect(added.status).toBe(200);
  }
  return { ...ws, domain, groupId: group.body.id };
}

export async function createCampaign(
  ws: { token: string; domain: string; groupId: string },
  overrides: Record<string, unknown> = {},
) {
  const { status, body } = await callJson<Campaign>("POST", "/v1/campaigns", {
    token: ws.token,
    body: {
      name: "November news",
      from: `Acme News <news@${ws.domain}>`,
      subject: "News for {{name|you}}",
      html: HTML,
      contact_group_ids: [ws.groupId],
      ...overrides,
    },
  });
  expect(status).toBe(201);
  return body;
}

export const campaignOf = async (token: string, id: string) =>
  (await callJson<Campaign>("GET", `/v1/campaigns/${id}`, { token })).body;

export const act = (token: string, id: string, action: string, body?: unknown) =>
  callJson<Campaign & { details?: unknown; missing?: string[]; message?: string }>(
    "POST",
    `/v1/campaigns/${id}/${action}`,
    { token, ...(body === undefined ? {} : { body }) },
  );

export interface RecipientRow {
  customer_id: string;
  email: string;
  state: string;
  email_id: string | null;
  detail: string | null;
}

export async function recipientsOf(campaignId: string) {
  const rows = await shardD1Of()
    .prepare(
      "SELECT customer_id, email, state, email_id, detail FROM campaign_recipients WHERE campaign_id = ? ORDER BY email",
    )
    .bind(campaignId)
    .all<RecipientRow>();
  return rows.results;
}

export interface CampaignEmail {
  id: string;
  to: string;
  subject: string;
  html: string | null;
  text: string | null;
  status: string;
}

export async function emailsOf(campaignId: string) {
  const rows = await shardD1Of()
    .prepare(
      "SELECT id, to_list AS [to], subject, html, text, status FROM emails WHERE campaign_id = ? ORDER BY to_list",
    )
    .bind(campaignId)
    .all<CampaignEmail>();
  return rows.results;
}

/** `count` members whose addresses sort in order. */
export const manyMembers = (count: number, prefix = "m") =>
  Array.from({ length: count }, (_, i) => ({ email: `${prefix}${String(i).padStart(5, "0")}@example.org` }));
