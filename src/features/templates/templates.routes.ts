import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateTemplateBodySchema,
  CursorQuerySchema,
  LIMITS,
  RenderBodySchema,
  RenderedSchema,
  SYNTAX,
  TemplateDeletedSchema,
  TemplateListQuerySchema,
  TemplateListSchema,
  TemplateParamsSchema,
  TemplateRefSchema,
  TemplateSchema,
  TemplateVersionDetailSchema,
  TemplateVersionListSchema,
  UpdateTemplateBodySchema,
  VersionParamsSchema,
} from "./templates.schemas";

const tags = ["Templates"];

const VERSIONS =
  "Versions: a template shows and edits its current version. A new template is a draft; `publish` checks it and makes it the version sends use; an edit after that makes a new draft (the published version never changes, so an email names exactly what it was built from). Every published version is kept and listed; any can be restored as the draft and published again.";

const LAYOUTS =
  "Layouts: a template created with `\"type\": \"layout\"` is a frame (header, footer, unsubscribe block) whose html holds the content slot `{{{@content}}}` exactly once (and its text too, when it has one); it has no subject, from, reply_to or layout of its own (400) and is never sent alone (422 `template_is_layout`). A template names one with `layout_id` (id or alias; kept as the id in each version; 422 `template_layout_invalid` for anything but a layout of this workspace). A send puts the template's rendered html (and text) in the slot of the layout's published version at send time, so a new footer reaches every template once the layout is published; the email records both versions. The layout's variables join the template's (a key both declare is the template's).";

const aliasTaken = { 409: errorResponse("`alias_taken`: another template has the alias.") };
const changed = {
  409: errorResponse("`template_changed`: a concurrent publish or edit came first; read and retry."),
};

export const createTemplateRoute = defineRoute("write", {
  method: "post",
  path: "/v1/templates",
  tags,
  summary: "Create a template",
  description: `Resend-compatible (\`resend.templates.create\`). A draft: markup is checked when published, not when saved. Answers \`{ object: "template", id }\`. ${SYNTAX} Limits: ${LIMITS} ${VERSIONS} ${LAYOUTS}`,
  request: { body: jsonBody(CreateTemplateBodySchema) },
  responses: { 201: jsonResponse(TemplateRefSchema, "Created as a draft."), ...aliasTaken },
});

export const listTemplatesRoute = defineRoute("read", {
  method: "get",
  path: "/v1/templates",
  tags,
  summary: "List templates",
  description:
    'Resend\'s list shape: `{ object: "list", data, has_more }`, newest first; `after` (an id of the page) pages on to older ones, `before` back to newer ones. Templates only (as Resend lists them); `type=layout` lists the layouts instead.',
  request: { query: TemplateListQuerySchema },
  responses: { 200: jsonResponse(TemplateListSchema, "A page of templates.") },
});

export const getTemplateRoute = defineRoute("read", {
  method: "get",
  path: "/v1/templates/{id}",
  tags,
  summary: "Get a template",
  description: `By id or alias: the current version's content. Resend's fields, plus \`type: "layout"\` on a layout and \`layout_id\` on a template that names one (absent otherwise, so a Resend client sees exactly Resend's object). ${VERSIONS}`,
  request: { params: TemplateParamsSchema },
  responses: { 200: jsonResponse(TemplateSchema, "The template.") },
});

export const updateTemplateRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/templates/{id}",
  tags,
  summary: "Update a template",
  description: `Changes the fields given in the draft (made from the published version when there is none); \`variables\` replaces the list whole; \`layout_id: null\` drops the layout. A layout's \`type\` is fixed at creation. Limits: ${LIMITS}`,
  request: { params: TemplateParamsSchema, body: jsonBody(UpdateTemplateBodySchema) },
  responses: { 200: jsonResponse(TemplateRefSchema, "Updated."), ...aliasTaken, ...changed },
});

export const removeTemplateRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/templates/{id}",
  tags,
  summary: "Remove a template",
  description:
    "Removes it with every version. Emails built from it keep their content and `template` ids. A layout that the published version of a template uses is 409 `layout_in_use` (the message names up to five): publish those templates with another `layout_id` (or none) first. Drafts naming a removed layout stay, and cannot be published until they name another.",
  request: { params: TemplateParamsSchema },
  responses: {
    200: jsonResponse(TemplateDeletedSchema, "Removed."),
    409: errorResponse("`layout_in_use`: a template's published version is sent inside this layout."),
  },
});

export const publishTemplateRoute = defineRoute("write", {
  method: "post",
  path: "/v1/templates/{id}/publish",
  tags,
  summary: "Publish a template",
  description: `Makes the current draft the version sends use (a template with no draft answers as it is). Refused with 422 \`template_invalid\` when the subject, html or text does not parse, uses a tag other than a variable, or uses a variable not declared, or when a layout's html (or text) does not hold the content slot \`{{{@content}}}\` exactly once (none: line 1, column 1; a repeat: where it is), or a template holds one: \`errors\` lists each with \`field\`, \`line\` and \`column\` (1-based). A template whose layout is not published is 422 \`template_layout_not_published\`, one whose layout was removed 422 \`template_layout_invalid\`; the publish is written only while the layout is still published, so it never races a removal past that check. ${SYNTAX}`,
  request: { params: TemplateParamsSchema },
  responses: {
    200: jsonResponse(TemplateRefSchema, "Published."),
    422: errorResponse(
      "`template_invalid`, with `errors: [{ field, line, column, message }]`; `template_layout_not_published`; `template_layout_invalid`.",
    ),
    ...changed,
  },
});

export const duplicateTemplateRoute = defineRoute("write", {
  method: "post",
  path: "/v1/templates/{id}/duplicate",
  tags,
  summary: "Duplicate a template",
  description:
    "A new draft template with the current version's content, named `<name> (copy)`, without alias.",
  request: { params: TemplateParamsSchema },
  responses: { 201: jsonResponse(TemplateRefSchema, "The copy.") },
});

export const renderTemplateRoute = defineRoute("read", {
  method: "post",
  path: "/v1/templates/{id}/render",
  tags,
  summary: "Preview a template",
  description:
    "Fills in any version (`version_id`: draft or published; default the current one) with the `variables` given, then the fallbacks; nothing is sent. `missing`: variables that have neither (declared without a fallback, or used without being declared), left as `{{KEY}}` in the preview; a send would be refused for them. `unused`: keys given that the template does not declare; a send would be refused for them too. A value of the wrong type is 422 `template_variables_invalid`; markup that does not parse is 422 `template_invalid` with line and column. A version that names a layout is shown inside the layout's published version, as a send would be (`layout` names it; 422 `template_layout_not_published` when it has none), and the layout's variables count in `missing` and `unused`; that costs one read more than a template without a layout. A layout itself shows its slot as written, `{{{@content}}}`.",
  request: { params: TemplateParamsSchema, body: jsonBody(RenderBodySchema) },
  responses: {
    200: jsonResponse(RenderedSchema, "The rendered version."),
    422: errorResponse("`template_invalid` (markup) or `template_variables_invalid` (a value's type)."),
  },
});

export const listVersionsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/templates/{id}/versions",
  tags,
  summary: "List a template's versions",
  description: `Newest first, without content (get one by id for it); the list shape of GET /v1/templates. ${VERSIONS}`,
  request: { params: TemplateParamsSchema, query: CursorQuerySchema },
  responses: { 200: jsonResponse(TemplateVersionListSchema, "A page of versions.") },
});

export const getVersionRoute = defineRoute("read", {
  method: "get",
  path: "/v1/templates/{id}/versions/{version_id}",
  tags,
  summary: "Get a template version",
  request: { params: VersionParamsSchema },
  responses: { 200: jsonResponse(TemplateVersionDetailSchema, "The version with its content.") },
});

export const restoreVersionRoute = defineRoute("write", {
  method: "post",
  path: "/v1/templates/{id}/versions/{version_id}/restore",
  tags,
  summary: "Restore a template version",
  description:
    "Copies the version's content into the draft (made when there is none); sends keep the published version until the draft is published. Restoring the current version changes nothing.",
  request: { params: VersionParamsSchema },
  responses: { 200: jsonResponse(TemplateRefSchema, "Restored as the draft."), ...changed },
});
