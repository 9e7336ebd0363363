import { dashboardRoute, formBody } from "../routes";
import {
  CampaignForm,
  CampaignListQuery,
  CampaignPath,
  DoneQuery,
  EditorQuery,
  GroupChoicesQuery,
  SendForm,
  TestForm,
} from "./campaign-forms";

const FORM_PROBLEMS =
  "A value the API refuses re-renders the page with the API's reason and the values sent (400, the template checks' 422 naming each value among them; a template or version not of this workspace: the form with the API's 404; a contact group of another workspace is the 404 page).";

const BODY =
  "The body is the `body` radio's choice: `html` sends html and text and drops any template (`template: null`); `template` sends `template: {id, version_id?, variables}` (the static rows, a number variable's value as a number) and no html or text. Without the radio, whatever is filled is sent, so both is the API's 400.";

const move = (action: "pause" | "resume" | "cancel", summary: string, api: string) =>
  dashboardRoute({
    method: "post",
    path: `/dashboard/campaigns/{id}/${action}`,
    summary,
    description: `As POST /v1/campaigns/{id}/${action} (${api}); an illegal move for the campaign's status shows the API's 400 on the campaign's page. Redirects (303) to the campaign.`,
    request: { params: CampaignPath },
    role: "admin",
    success: 303,
  });

export const campaignListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/campaigns",
  summary: "Campaigns",
  description:
    "The workspace's campaigns, newest first (GET /v1/campaigns): name, status, recipients, sent, opened, clicked, created; filter by status; paginated by `offset` and `limit` (default 20). Everyone signed in sees it; New campaign is for admins and owners.",
  request: { query: CampaignListQuery },
});

export const newCampaignRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/campaigns/new",
  summary: "New campaign form",
  description:
    "The editor: name, from, reply-to, subject, the body (HTML and text with the variables named, or a template: the published ones among the workspace's 100 newest templates, layouts not listed, with rows of static values and where the other values come from), and the workspace's contact groups to send to: the chosen ones always, then the 100 newest others, or with `group_q` the 100 newest whose name contains it.",
  request: { query: EditorQuery },
  role: "admin",
});

export const groupChoicesRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/campaigns/group-choices",
  summary: "Campaign group picker (fragment)",
  description:
    'The editor\'s "Send to" fieldset alone, for htmx to swap in as the group search is typed: the groups named by `contact_group_ids` (the ticked ones, of this workspace) stay ticked, then up to 100 others, newest first, whose name contains `group_q` (any case).',
  request: { query: GroupChoicesQuery },
  role: "admin",
});

export const createCampaignRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/campaigns",
  summary: "Create a campaign",
  description: `The form through POST /v1/campaigns' schema and \`createCampaign\`: a draft. ${BODY} Redirects (303) to it. ${FORM_PROBLEMS}`,
  request: { body: formBody(CampaignForm) },
  role: "admin",
  success: 303,
});

export const campaignRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/campaigns/{id}",
  summary: "Campaign",
  description:
    "A campaign: its stats (refreshed every 5 seconds by htmx while it is scheduled, sending or paused), why the service paused it, the editor while it is a draft (every chosen group listed; `group_q` finds others by name), a preview link, a template campaign's template (name, version, layout, static values) with the email a sample recipient would get in a sandboxed frame and the variables the sample has no value for (recipients without one are skipped), and the actions its status allows (send now or at a time, send a test, pause, resume, cancel, delete a draft). Agents see it read-only.",
  request: { params: CampaignPath, query: DoneQuery },
});

export const campaignStatsRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/campaigns/{id}/stats",
  summary: "Campaign stats (fragment)",
  description:
    "The stats panel alone, for htmx to swap in: the campaign's status and counters as GET /v1/campaigns/{id} has them.",
  request: { params: CampaignPath },
});

export const campaignPreviewRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/campaigns/{id}/preview",
  summary: "Campaign preview",
  description:
    "The campaign's HTML with the variables filled for a sample recipient (Ada Lovelace, ada@example.com; the unsubscribe link points nowhere), served as its own document under a sandboxing Content-Security-Policy: no script runs, nothing loads but images, and it cannot reach the dashboard. A template campaign's is the template's version it sends (pinned once sent or scheduled; else the one named or the published one) in its layout, filled by the templates' renderer with the static values, the sample's contact fields and the campaign's first group, then fallbacks; a variable the sample has no value for shows as `{{KEY}}`.",
  request: { params: CampaignPath },
});

export const saveCampaignRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/campaigns/{id}",
  summary: "Save a draft campaign",
  description: `The editor's values as PATCH /v1/campaigns/{id} (its schema, then \`updateCampaign\`). ${BODY} The groups are replaced only when the form sends \`groups_shown\` (the editor lists every chosen group), so a form that did not show them all leaves them as they are: drafts only (the API's 400 otherwise). Redirects (303) to the campaign. ${FORM_PROBLEMS}`,
  request: { params: CampaignPath, body: formBody(CampaignForm) },
  role: "admin",
  success: 303,
});

export const sendCampaignRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/campaigns/{id}/send",
  summary: "Send or schedule a campaign",
  description:
    "As POST /v1/campaigns/{id}/send: now, or at `scheduled_at` (UTC). Refused as the API refuses it (an unverified sender domain, no `{{unsubscribe_url}}` in the HTML, no recipients' group, not a draft; a template not published or a variable nothing fills, 422): the reason shows on the campaign's page. Redirects (303) to the campaign.",
  request: { params: CampaignPath, body: formBody(SendForm) },
  role: "admin",
  success: 303,
});

export const testCampaignRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/campaigns/{id}/test",
  summary: "Send a test email",
  description:
    "As POST /v1/campaigns/{id}/test: one email to `to`, not counted in the stats; a template campaign's 422 (a variable `to` has no value for) shows on the campaign's page. Redirects (303) to the campaign.",
  request: { params: CampaignPath, body: formBody(TestForm) },
  role: "admin",
  success: 303,
});

export const pauseCampaignRoute = move("pause", "Pause a campaign", "sending → paused");
export const resumeCampaignRoute = move("resume", "Resume a campaign", "paused → sending");
export const cancelCampaignRoute = move(
  "cancel",
  "Cancel a campaign",
  "scheduled, sending or paused → cancelled",
);

export const deleteCampaignRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/campaigns/{id}/delete",
  summary: "Delete a draft campaign",
  description:
    "After the page's confirmation: as DELETE /v1/campaigns/{id} (drafts only; the API's 409 otherwise). Redirects (303) to the list.",
  request: { params: CampaignPath },
  role: "admin",
  success: 303,
});
