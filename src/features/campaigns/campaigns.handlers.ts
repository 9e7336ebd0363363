import { namedList, standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { cancelCampaign, pauseCampaign, resumeCampaign, sendCampaign } from "./campaign-moves";
import { sendTest } from "./campaign-test";
import {
  cancelCampaignRoute,
  createCampaignRoute,
  deleteCampaignRoute,
  getCampaignRoute,
  listCampaignRecipientsRoute,
  listCampaignsRoute,
  pauseCampaignRoute,
  resumeCampaignRoute,
  sendCampaignRoute,
  testCampaignRoute,
  updateCampaignRoute,
} from "./campaigns.routes";
import {
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  updateCampaign,
} from "./campaigns.service";
import { listRecipients } from "./recipient-list";

export const campaignsRouter = createRouter()
  .openapi(listCampaignsRoute, async (c) => {
    const { limit, offset, status } = c.req.valid("query");
    const { campaigns, total } = await listCampaigns(c.var.ctx, status, limit, offset);
    return c.json(namedList("campaigns", campaigns, total, { limit, offset }), 200);
  })
  .openapi(createCampaignRoute, async (c) =>
    c.json(
      await createCampaign(c.var.ctx, c.req.valid("json"), c.req.valid("header")["idempotency-key"]),
      201,
    ),
  )
  .openapi(getCampaignRoute, async (c) => c.json(await getCampaign(c.var.ctx, c.req.valid("param").id), 200))
  .openapi(listCampaignRecipientsRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { limit, offset, state } = c.req.valid("query");
    const { accountId, db } = c.var.ctx;
    const { recipients, total } = await listRecipients(db, accountId, id, state, limit, offset);
    return c.json(standardList(recipients, total, { limit, offset }), 200);
  })
  .openapi(updateCampaignRoute, async (c) =>
    c.json(await updateCampaign(c.var.ctx, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    await deleteCampaign(c.var.ctx, id);
    return c.json({ id, deleted: true as const }, 200);
  })
  .openapi(sendCampaignRoute, async (c) => {
    const body = c.req.valid("json") ?? {};
    return c.json(await sendCampaign(c.var.ctx, c.req.valid("param").id, body.scheduled_at), 200);
  })
  .openapi(pauseCampaignRoute, async (c) =>
    c.json(await pauseCampaign(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(resumeCampaignRoute, async (c) =>
    c.json(await resumeCampaign(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(cancelCampaignRoute, async (c) =>
    c.json(await cancelCampaign(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(testCampaignRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await sendTest(c.var.ctx, id, c.req.valid("json").to), 200);
  });
