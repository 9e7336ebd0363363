import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  sendCampaign,
} from "../../features/campaigns/campaign-moves";
import { sendTest } from "../../features/campaigns/campaign-test";
import {
  CreateCampaignBodySchema,
  SendCampaignBodySchema,
  TestCampaignBodySchema,
  UpdateCampaignBodySchema,
} from "../../features/campaigns/campaigns.schemas";
import {
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
} from "../../features/campaigns/campaigns.service";
import { groupChoices } from "../../features/contact-groups/contact-groups.service";
import { createRouter } from "../../lib/router";
import { asApiBody, type Problem } from "../inboxes/form-problem";
import { renderPage, sessionOf } from "../page";
import { EDITOR_POLICY } from "../templates/template-problems";
import { CampaignPage, type CampaignPageProps } from "./campaign.page";
import { NewCampaignPage } from "./campaign-editor";
import {
  asCampaignBody,
  asCampaignChanges,
  type CampaignDraft,
  groupIdsOf,
  scheduledAtOf,
} from "./campaign-forms";
import { GROUPS_OFFERED, GroupPicker, type GroupPicks } from "./campaign-groups";
import { CampaignListPage } from "./campaign-list.page";
import { campaignProblem } from "./campaign-problems";
import { CampaignStats } from "./campaign-stats";
import { campaignVersions, templateChoices, variableTypesOf } from "./campaign-templates";
import {
  campaignListRoute,
  campaignPreviewRoute,
  campaignRoute,
  campaignStatsRoute,
  cancelCampaignRoute,
  createCampaignRoute,
  deleteCampaignRoute,
  groupChoicesRoute,
  newCampaignRoute,
  pauseCampaignRoute,
  resumeCampaignRoute,
  saveCampaignRoute,
  sendCampaignRoute,
  testCampaignRoute,
} from "./campaigns.routes";
import { PREVIEW_POLICY, previewHtml, previewSubject, templatePreview } from "./preview";

/** The groups the editor shows: every chosen one, then the newest others (matching `search`). */
async function groupPicks(c: Context<AppEnv>, chosen: string[], search?: string): Promise<GroupPicks> {
  const { db, accountId } = c.var.ctx;
  return { ...(await groupChoices(db, accountId, chosen, search, GROUPS_OFFERED)), search };
}

async function renderCampaign(
  c: Context<AppEnv>,
  id: string,
  extras: Pick<CampaignPageProps, "done" | "problem" | "draft"> & { search?: string | undefined },
  status: 200 | 400 | 404 | 409 = 200,
) {
  const { search, ...pageExtras } = extras;
  const campaign = await getCampaign(c.var.ctx, id);
  const chosen = extras.draft ? groupIdsOf(extras.draft.contact_group_ids) : campaign.contact_group_ids;
  const groups = await groupPicks(c, chosen, search);
  const canManage = hasRole(sessionOf(c), "admin");
  const editing = campaign.status === "draft" && canManage;
  const templates = editing
    ? await templateChoices(c.var.ctx, extras.draft?.template_id ?? campaign.template?.id)
    : [];
  const firstGroup = groups.chosen.find((g) => g.id === campaign.contact_group_ids[0]);
  const shown = await templateShown(c, campaign, firstGroup?.name ?? null);
  // The preview's srcdoc frame keeps the page's policy: the templates editor's (inline styles, images).
  if (shown) c.set("documentPolicy", EDITOR_POLICY);
  return renderPage(
    c,
    { title: campaign.name, nav: "Campaigns", status },
    <CampaignPage
      campaign={campaign}
      groups={groups}
      canManage={canManage}
      csrfToken={c.var.csrfToken}
      templates={templates}
      shown={shown}
      {...pageExtras}
    />,
  );
}

/** A template campaign's template and its preview for the sample recipient (none without a template). */
async function templateShown(
  c: Context<AppEnv>,
  campaign: CampaignPageProps["campaign"],
  groupName: string | null,
) {
  if (!campaign.template) return undefined;
  const found = await campaignVersions(c.var.ctx, campaign);
  const preview = found ? templatePreview(found, campaign.template.variables, groupName) : null;
  return { found, preview, subject: previewSubject(campaign) };
}

async function renderNew(
  c: Context<AppEnv>,
  draft?: CampaignDraft,
  problem?: Problem,
  status: 200 | 400 | 404 | 409 = 200,
  search?: string,
) {
  const groups = await groupPicks(c, groupIdsOf(draft?.contact_group_ids), search);
  const templates = await templateChoices(c.var.ctx, draft?.template_id);
  return renderPage(
    c,
    { title: "New campaign", nav: "Campaigns", status },
    <NewCampaignPage
      csrfToken={c.var.csrfToken}
      groups={groups}
      templates={templates}
      draft={draft}
      problem={problem}
    />,
  );
}

/**
 * Runs an action on campaign `id` and redirects to it with `done`; what the API refuses (400,
 * 409) is shown on the campaign's page instead.
 */
async function act(c: Context<AppEnv>, id: string, done: string, action: () => Promise<unknown>) {
  try {
    await action();
  } catch (error) {
    const { problem, status } = campaignProblem(error);
    return renderCampaign(c, id, { problem }, status);
  }
  return c.redirect(`/dashboard/campaigns/${id}?done=${done}`, 303);
}

export const campaignsPagesRouter = createRouter()
  .openapi(campaignListRoute, async (c) => {
    const { limit, offset, status, done } = c.req.valid("query");
    const list = await listCampaigns(c.var.ctx, status, limit, offset);
    return renderPage(
      c,
      { title: "Campaigns", nav: "Campaigns" },
      <CampaignListPage
        campaigns={list.campaigns}
        total={list.total}
        limit={limit}
        offset={offset}
        status={status}
        canManage={hasRole(sessionOf(c), "admin")}
        done={done}
      />,
    );
  })
  // Before /dashboard/campaigns/{id}, which would otherwise read "new" as an id.
  .openapi(newCampaignRoute, async (c) =>
    renderNew(c, undefined, undefined, 200, c.req.valid("query").group_q),
  )
  .openapi(groupChoicesRoute, async (c) => {
    const query = c.req.valid("query");
    const picks = await groupPicks(c, groupIdsOf(query.contact_group_ids), query.group_q);
    return c.html(<GroupPicker picks={picks} />);
  })
  .openapi(createCampaignRoute, async (c) => {
    const form = c.req.valid("form");
    try {
      const types = await variableTypesOf(c.var.ctx, form);
      const campaign = await createCampaign(
        c.var.ctx,
        asApiBody(CreateCampaignBodySchema, asCampaignBody(form, types)),
      );
      return c.redirect(`/dashboard/campaigns/${campaign.id}?done=created`, 303);
    } catch (error) {
      const { problem, status } = campaignProblem(error);
      return renderNew(c, form, problem, status);
    }
  })
  .openapi(campaignRoute, async (c) => {
    const { done, group_q } = c.req.valid("query");
    return renderCampaign(c, c.req.valid("param").id, { done, search: group_q });
  })
  .openapi(campaignStatsRoute, async (c) =>
    c.html(<CampaignStats campaign={await getCampaign(c.var.ctx, c.req.valid("param").id)} />),
  )
  .openapi(campaignPreviewRoute, async (c) => {
    const campaign = await getCampaign(c.var.ctx, c.req.valid("param").id);
    const first = campaign.contact_group_ids.slice(0, 1);
    const groupName = (await groupChoices(c.var.ctx.db, c.var.ctx.accountId, first, undefined, 0)).chosen[0]
      ?.name;
    const shown = await templateShown(c, campaign, groupName ?? null);
    c.set("documentPolicy", PREVIEW_POLICY);
    return c.html(shown ? (shown.preview?.html ?? "") : previewHtml(campaign));
  })
  .openapi(saveCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    try {
      const changes = asCampaignChanges(form, await variableTypesOf(c.var.ctx, form));
      await updateCampaign(c.var.ctx, id, asApiBody(UpdateCampaignBodySchema, changes));
    } catch (error) {
      const { problem, status } = campaignProblem(error);
      return renderCampaign(c, id, { problem, draft: form }, status);
    }
    return c.redirect(`/dashboard/campaigns/${id}?done=saved`, 303);
  })
  .openapi(sendCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    const at = scheduledAtOf(c.req.valid("form").scheduled_at);
    return act(c, id, at ? "scheduled" : "sent", () => {
      const body = asApiBody(SendCampaignBodySchema, at ? { scheduled_at: at } : {});
      return sendCampaign(c.var.ctx, id, body.scheduled_at);
    });
  })
  .openapi(testCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    return act(c, id, "tested", () => sendTest(c.var.ctx, id, asApiBody(TestCampaignBodySchema, form).to));
  })
  .openapi(pauseCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    return act(c, id, "paused", () => pauseCampaign(c.var.ctx, id));
  })
  .openapi(resumeCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    return act(c, id, "resumed", () => resumeCampaign(c.var.ctx, id));
  })
  .openapi(cancelCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    return act(c, id, "cancelled", () => cancelCampaign(c.var.ctx, id));
  })
  .openapi(deleteCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    try {
      await deleteCampaign(c.var.ctx, id);
    } catch (error) {
      const { problem, status } = campaignProblem(error);
      return renderCampaign(c, id, { problem }, status);
    }
    return c.redirect("/dashboard/campaigns?done=deleted", 303);
  });
