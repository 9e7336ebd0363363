import { createRouter } from "../../lib/router";
import {
  createViewRoute,
  deleteViewRoute,
  getViewRoute,
  listViewsRoute,
  updateViewRoute,
  viewTicketsRoute,
} from "./views.routes";
import {
  apiViewer,
  changeView,
  createView,
  listViews,
  removeView,
  showView,
  viewTickets,
} from "./views.service";

/** An API key acts for no user: every view is reached by id and nobody is `me` (views.routes.ts). */
const keyViewer = { userId: null, seesEveryView: true };

export const viewsRouter = createRouter()
  .openapi(listViewsRoute, async (c) => {
    const viewer = await apiViewer(c.var.ctx, c.req.valid("query").user_id);
    return c.json(await listViews(c.var.ctx, viewer), 200);
  })
  .openapi(createViewRoute, async (c) =>
    c.json(await createView(c.var.ctx, c.req.valid("json"), keyViewer), 201),
  )
  .openapi(getViewRoute, async (c) => {
    const viewer = await apiViewer(c.var.ctx, c.req.valid("query").user_id);
    return c.json(await showView(c.var.ctx, c.req.valid("param").id, viewer), 200);
  })
  .openapi(updateViewRoute, async (c) =>
    c.json(await changeView(c.var.ctx, c.req.valid("param").id, c.req.valid("json"), keyViewer), 200),
  )
  .openapi(deleteViewRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeView(c.var.ctx, id, keyViewer);
    return c.json({ id, deleted: true as const }, 200);
  })
  .openapi(viewTicketsRoute, async (c) => {
    const { user_id, limit, offset } = c.req.valid("query");
    const viewer = await apiViewer(c.var.ctx, user_id);
    return c.json(await viewTickets(c.var.ctx, c.req.valid("param").id, viewer, { limit, offset }), 200);
  });
