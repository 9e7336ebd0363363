import type { Context } from "hono";
import { hasRole } from "../../auth/roles";
import type { AppEnv } from "../../env";
import { assertUnchanged, layoutChoices, listTemplateOverview } from "../../features/templates/editor";
import { layoutFrame, previewDraft } from "../../features/templates/preview";
import { toTemplate } from "../../features/templates/templates.dto";
import {
  CreateTemplateBodySchema,
  UpdateTemplateBodySchema,
} from "../../features/templates/templates.schemas";
import {
  createTemplate,
  duplicateTemplate,
  listVersions,
  publishTemplate,
  removeTemplate,
  restoreVersion,
  templateOf,
  updateTemplate,
} from "../../features/templates/templates.service";
import { sendDraftTest } from "../../features/templates/test-send";
import { createRouter } from "../../lib/router";
import { asApiBody, type Problem } from "../inboxes/form-problem";
import { renderPage, sessionOf } from "../page";
import { NewTemplatePage, TemplatePage } from "./template.page";
import {
  asTemplateBody,
  changedFields,
  draftOf,
  formValuesOf,
  previewValues,
  seenOf,
  type TemplateValues,
} from "./template-forms";
import { TemplateListPage } from "./template-list.page";
import { TemplatePreview } from "./template-preview";
import { EDITOR_POLICY, templateProblem } from "./template-problems";
import {
  createTemplateRoute,
  deleteTemplateRoute,
  duplicateTemplateRoute,
  newTemplateRoute,
  previewTemplateRoute,
  publishTemplateRoute,
  restoreVersionRoute,
  saveTemplateRoute,
  templateListRoute,
  templateRoute,
  testTemplateRoute,
} from "./templates.routes";

const VERSIONS_SHOWN = 20;

/**
 * The editor's preview: a layout's draft with its slot shown, a template's inside the layout it
 * names (one D1 read of the layout's published version), as a send would frame it.
 */
async function previewOf(c: Context<AppEnv>, values: TemplateValues) {
  const draft = draftOf(values);
  const frame =
    values.type === "layout"
      ? { self: true as const }
      : draft.layoutId
        ? await layoutFrame(c.var.ctx, draft.layoutId)
        : undefined;
  return previewDraft(draft, previewValues(values), frame);
}

/** The type a form acts as: the stored template's (fixed at creation), never the form's word for it. */
const typeOf = (template: { type?: "layout" }): "template" | "layout" => template.type ?? "template";

/** A template's page; after a refused form, with the values sent and the reason. */
async function renderTemplate(
  c: Context<AppEnv>,
  id: string,
  extras: { done?: string | undefined; problem?: Problem; values?: TemplateValues },
  status: 200 | 400 | 409 = 200,
) {
  const ctx = c.var.ctx;
  const found = await templateOf(ctx, id);
  const template = toTemplate(found.template, found.version);
  const versions = await listVersions(ctx, template.id, { limit: VERSIONS_SHOWN });
  const values = { ...(extras.values ?? formValuesOf(template)), type: typeOf(template) };
  const layouts = values.type === "layout" ? [] : await layoutChoices(ctx);
  c.set("documentPolicy", EDITOR_POLICY);
  return renderPage(
    c,
    { title: template.name, nav: "Templates", status },
    <TemplatePage
      template={template}
      seen={{ versionId: found.version.id, revision: found.version.revision }}
      versions={versions}
      values={values}
      preview={await previewOf(c, values)}
      layouts={layouts}
      canManage={hasRole(sessionOf(c), "admin")}
      csrfToken={c.var.csrfToken}
      selfEmail={sessionOf(c).email}
      done={extras.done}
      {...(extras.problem ? { problem: extras.problem } : {})}
    />,
  );
}

async function renderNew(
  c: Context<AppEnv>,
  values: TemplateValues,
  problem?: Problem,
  status: 200 | 400 | 409 = 200,
) {
  const layouts = values.type === "layout" ? [] : await layoutChoices(c.var.ctx);
  c.set("documentPolicy", EDITOR_POLICY);
  return renderPage(
    c,
    { title: values.type === "layout" ? "New layout" : "New template", nav: "Templates", status },
    <NewTemplatePage
      csrfToken={c.var.csrfToken}
      values={values}
      preview={await previewOf(c, values)}
      layouts={layouts}
      problem={problem}
    />,
  );
}

/**
 * Runs a change of template `id` and redirects to the template it names with `done`; what the API
 * refuses (400, 409, a publish's 422) shows on the template's page instead, with `values` kept.
 */
async function act(
  c: Context<AppEnv>,
  id: string,
  done: string,
  action: () => Promise<{ id: string }>,
  values?: TemplateValues,
) {
  let ref: { id: string };
  try {
    ref = await action();
  } catch (error) {
    const { problem, status } = templateProblem(error);
    return renderTemplate(c, id, { problem, ...(values ? { values } : {}) }, status);
  }
  return c.redirect(`/dashboard/templates/${ref.id}?done=${done}`, 303);
}

const EMPTY: TemplateValues = { name: "", html: "" };

export const templatesPagesRouter = createRouter()
  .openapi(templateListRoute, async (c) => {
    const { after, before, done, type } = c.req.valid("query");
    const list = await listTemplateOverview(c.var.ctx, {
      limit: 50,
      after,
      before,
      type: type ?? "template",
    });
    return renderPage(
      c,
      { title: "Templates", nav: "Templates" },
      <TemplateListPage
        list={list}
        paged={after ? "after" : before ? "before" : null}
        canManage={hasRole(sessionOf(c), "admin")}
        done={done}
        layouts={type === "layout"}
      />,
    );
  })
  // Before /dashboard/templates/{id}, which would otherwise read "new" and "preview" as ids.
  .openapi(newTemplateRoute, async (c) => renderNew(c, { ...EMPTY, type: c.req.valid("query").type }))
  .openapi(previewTemplateRoute, async (c) =>
    c.html(<TemplatePreview preview={await previewOf(c, c.req.valid("form"))} />),
  )
  .openapi(createTemplateRoute, async (c) => {
    const form = c.req.valid("form");
    try {
      const body = { ...asTemplateBody(form), ...(form.type === "layout" ? { type: form.type } : {}) };
      const ref = await createTemplate(c.var.ctx, asApiBody(CreateTemplateBodySchema, body));
      return c.redirect(`/dashboard/templates/${ref.id}?done=created`, 303);
    } catch (error) {
      const { problem, status } = templateProblem(error);
      return renderNew(c, form, problem, status);
    }
  })
  .openapi(templateRoute, async (c) =>
    renderTemplate(c, c.req.valid("param").id, { done: c.req.valid("query").done }),
  )
  .openapi(saveTemplateRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    return act(
      c,
      id,
      "saved",
      async () => {
        const shown = await assertUnchanged(c.var.ctx, id, seenOf(form));
        const changes = changedFields(asTemplateBody({ ...form, type: typeOf(shown) }), shown);
        return updateTemplate(c.var.ctx, id, asApiBody(UpdateTemplateBodySchema, changes));
      },
      form,
    );
  })
  .openapi(publishTemplateRoute, async (c) => {
    const { id } = c.req.valid("param");
    const seen = seenOf(c.req.valid("form"));
    return act(c, id, "published", async () => {
      await assertUnchanged(c.var.ctx, id, seen);
      return publishTemplate(c.var.ctx, id);
    });
  })
  .openapi(restoreVersionRoute, async (c) => {
    const { id, version_id } = c.req.valid("param");
    const seen = seenOf(c.req.valid("form"));
    return act(c, id, "restored", async () => {
      await assertUnchanged(c.var.ctx, id, seen);
      return restoreVersion(c.var.ctx, id, version_id);
    });
  })
  .openapi(testTemplateRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    // The page comes back with the editor's values as they were: a test does not save them.
    try {
      const { template } = await templateOf(c.var.ctx, id);
      const draft = draftOf({ ...form, type: template.type });
      await sendDraftTest(c.var.ctx, template.id, sessionOf(c).email, draft, previewValues(form));
    } catch (error) {
      const { problem, status } = templateProblem(error);
      return renderTemplate(c, id, { problem, values: form }, status);
    }
    return renderTemplate(c, id, { done: "tested", values: form });
  })
  .openapi(duplicateTemplateRoute, async (c) =>
    act(c, c.req.valid("param").id, "duplicated", () =>
      duplicateTemplate(c.var.ctx, c.req.valid("param").id),
    ),
  )
  .openapi(deleteTemplateRoute, async (c) => {
    const { id } = c.req.valid("param");
    try {
      await removeTemplate(c.var.ctx, id);
    } catch (error) {
      const { problem, status } = templateProblem(error);
      return renderTemplate(c, id, { problem }, status);
    }
    return c.redirect("/dashboard/templates?done=deleted", 303);
  });
