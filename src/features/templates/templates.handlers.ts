import { createRouter } from "../../lib/router";
import { renderTemplate } from "./render";
import {
  createTemplateRoute,
  duplicateTemplateRoute,
  getTemplateRoute,
  getVersionRoute,
  listTemplatesRoute,
  listVersionsRoute,
  publishTemplateRoute,
  removeTemplateRoute,
  renderTemplateRoute,
  restoreVersionRoute,
  updateTemplateRoute,
} from "./templates.routes";
import {
  createTemplate,
  duplicateTemplate,
  getTemplate,
  getVersion,
  listTemplates,
  listVersions,
  publishTemplate,
  removeTemplate,
  restoreVersion,
  updateTemplate,
} from "./templates.service";

export const templatesRouter = createRouter()
  .openapi(createTemplateRoute, async (c) =>
    c.json(await createTemplate(c.var.ctx, c.req.valid("json")), 201),
  )
  .openapi(listTemplatesRoute, async (c) => c.json(await listTemplates(c.var.ctx, c.req.valid("query")), 200))
  .openapi(getTemplateRoute, async (c) => c.json(await getTemplate(c.var.ctx, c.req.valid("param").id), 200))
  .openapi(updateTemplateRoute, async (c) =>
    c.json(await updateTemplate(c.var.ctx, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(removeTemplateRoute, async (c) =>
    c.json(await removeTemplate(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(publishTemplateRoute, async (c) =>
    c.json(await publishTemplate(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(duplicateTemplateRoute, async (c) =>
    c.json(await duplicateTemplate(c.var.ctx, c.req.valid("param").id), 201),
  )
  .openapi(renderTemplateRoute, async (c) => {
    const { version_id, variables } = c.req.valid("json");
    return c.json(await renderTemplate(c.var.ctx, c.req.valid("param").id, version_id, variables), 200);
  })
  .openapi(listVersionsRoute, async (c) =>
    c.json(await listVersions(c.var.ctx, c.req.valid("param").id, c.req.valid("query")), 200),
  )
  .openapi(getVersionRoute, async (c) => {
    const { id, version_id } = c.req.valid("param");
    return c.json(await getVersion(c.var.ctx, id, version_id), 200);
  })
  .openapi(restoreVersionRoute, async (c) => {
    const { id, version_id } = c.req.valid("param");
    return c.json(await restoreVersion(c.var.ctx, id, version_id), 200);
  });
