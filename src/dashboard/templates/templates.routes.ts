import { dashboardRoute, formBody } from "../routes";
import {
  DoneQuery,
  ListQuery,
  NewQuery,
  SeenForm,
  TemplateForm,
  TemplatePath,
  VersionPath,
} from "./template-forms";

const FORM_PROBLEMS =
  "A value the API refuses re-renders the page with the API's reason and the values sent (400).";
const SEEN =
  "The form names the current version (and revision) its page showed: when another tab or person saved, published or restored since, nothing is changed and the page shows 409 `template_changed` with the values kept.";

export const templateListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/templates",
  summary: "Templates",
  description:
    "The workspace's email templates, newest first (GET /v1/templates, 50 a page, `after`/`before` an id): name, alias, status, whether there are unpublished changes, updated. `type=layout`: the layouts instead (GET /v1/templates?type=layout), each marked as a layout. Everyone signed in sees it; New template and New layout are for admins and owners.",
  request: { query: ListQuery },
});

export const newTemplateRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/templates/new",
  summary: "New template form",
  description:
    "The editor, empty: name, alias, subject, from, reply-to, layout (a select of the workspace's layouts, published or not, the first 100 newest first; those without a published version marked), HTML, text and variables (key, type, fallback), with the live preview. `type=layout`: a layout's editor (the API's `type`): no subject, from, reply-to or layout, a hint about the `{{{@content}}}` slot.",
  request: { query: NewQuery },
  role: "admin",
});

export const createTemplateRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/templates",
  summary: "Create a template",
  description: `The form through POST /v1/templates' schema and \`createTemplate\`: a draft. Redirects (303) to it. ${FORM_PROBLEMS} An alias taken is 409.`,
  request: { body: formBody(TemplateForm) },
  role: "admin",
  success: 303,
});

export const previewTemplateRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/templates/preview",
  summary: "Template preview (fragment)",
  description:
    "The editor's preview alone, for htmx to swap in as the form is typed (debounced): the form's content, saved or not, rendered with the values typed beside the variables by the render check of POST /v1/templates/{id}/render (the same parser and renderer), in an iframe sandboxed with no script (`srcdoc`), with `missing` and `unused` variables, values of the wrong type, and markup problems with their field, line and column. A template naming a layout (`layout_id`) is rendered inside the layout's published version as a send would (one D1 read of it per request; its variables join the template's, so its missing and unused show too); a layout that has no published version, or is not this workspace's, is named as a problem and the draft shows without a frame. A layout's own preview (`type=layout`) shows a placeholder block in its slot. Nothing is saved or sent.",
  request: { body: formBody(TemplateForm) },
});

export const templateRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/templates/{id}",
  summary: "Template",
  description:
    "A template (by id or alias): the editor showing its current version with the live preview, whether it has unpublished changes, its 20 newest versions with a restore button each, and the actions (save, publish, send a test to me, duplicate, delete). Agents see it without the actions. The page's Content-Security-Policy lets the preview show the email's inline styles and https images; scripts stay this origin's only, and the preview frame runs none.",
  request: { params: TemplatePath, query: DoneQuery },
});

export const saveTemplateRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/templates/{id}",
  summary: "Save a template's draft",
  description: `The editor's values as PATCH /v1/templates/{id} (its schema, then \`updateTemplate\`): a draft is changed in place, a published version by a new draft (sends go on using the published one). ${SEEN} Redirects (303) to the template. ${FORM_PROBLEMS}`,
  request: { params: TemplatePath, body: formBody(TemplateForm) },
  role: "admin",
  success: 303,
});

export const publishTemplateRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/templates/{id}/publish",
  summary: "Publish a template",
  description: `As POST /v1/templates/{id}/publish: the saved draft becomes the version sends use. Markup that would not publish (the API's 422 with line and column) shows on the template's page. ${SEEN} Redirects (303) to the template.`,
  request: { params: TemplatePath, body: formBody(SeenForm) },
  role: "admin",
  success: 303,
});

export const testTemplateRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/templates/{id}/test",
  summary: "Send a test of a template to me",
  description:
    "The editor's content (saved or not) rendered with the preview's values, sent as one email to the signed-in person's own address (no other address can be given) through every check of POST /v1/emails (verified domain, quotas, suppression), subject prefixed `[Test] `. A template naming a layout is sent inside the layout's published version, as a send would be (refused when the layout has none). Refused, with the reason on the page, when the markup would not publish, a variable has no value, or From or Subject is empty. Answers the template's page with the editor's values kept (a test saves nothing).",
  request: { params: TemplatePath, body: formBody(TemplateForm) },
  role: "admin",
});

export const duplicateTemplateRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/templates/{id}/duplicate",
  summary: "Duplicate a template",
  description:
    "As POST /v1/templates/{id}/duplicate: a new draft `<name> (copy)` without alias. Redirects (303) to the copy.",
  request: { params: TemplatePath },
  role: "admin",
  success: 303,
});

export const deleteTemplateRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/templates/{id}/delete",
  summary: "Delete a template",
  description:
    "After the page's confirmation: as DELETE /v1/templates/{id} (it and its versions; emails built from it keep their content). Redirects (303) to the list.",
  request: { params: TemplatePath },
  role: "admin",
  success: 303,
});

export const restoreVersionRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/templates/{id}/versions/{version_id}/restore",
  summary: "Restore a template version",
  description: `As POST /v1/templates/{id}/versions/{version_id}/restore: the version's content becomes the draft, to be published again. ${SEEN} Redirects (303) to the template.`,
  request: { params: VersionPath, body: formBody(SeenForm) },
  role: "admin",
  success: 303,
});
