import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  AUTOMATION_ID_PATH,
  AutomationListQuerySchema,
  AutomationListSchema,
  AutomationParamsSchema,
  AutomationSchema,
  CreateAutomationBodySchema,
  UpdateAutomationBodySchema,
} from "./automations.schemas";

const tags = ["Automations"];
const one = `/v1/automations/${AUTOMATION_ID_PATH}`;
const STATES =
  "Status: `draft` → `active` (activate) ⇄ `paused` (pause, activate). Only an `active` automation enrols customers. A move the status does not allow is a 400 `invalid_automation_status` whose `error` names the status.";
const SECRET =
  "The `secret` is answered in clear to write and admin keys, the keys that may write automations (create, get, list, update, activate, pause): a write key may replace the automation anyway, so seeing its secret grants nothing new. Read keys get `secret: null`, and each `webhook` step's header values as `\"[redacted]\"` (the names stay): a read-only key never receives a secret, its own or a receiver's credentials.";
const illegal = jsonResponse(
  ErrorSchema,
  "`invalid_automation_status`: the status does not allow this move.",
);

const TEMPLATE_STEPS =
  "A `send_email` step's `template` must be a template of the workspace (404) whose static `variables` it declares, of their types (422 `template_variables_invalid`, `details` under `body.steps.N.template.variables`); an alias is stored as the template's id.";

const templateRefused = jsonResponse(
  ErrorSchema,
  "A step's template cannot be used: `template_variables_invalid` (`details` names each variable), `template_not_published`, `template_version_not_published`.",
);

export const listAutomationsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/automations",
  tags,
  summary: "List automations",
  description: `The workspace's automations, newest first, \`limit\` 20 by default (at most 100); \`status\` filters. ${SECRET}`,
  request: { query: AutomationListQuerySchema },
  responses: { 200: jsonResponse(AutomationListSchema, "A page of automations.") },
});

export const createAutomationRoute = defineRoute("write", {
  method: "post",
  path: "/v1/automations",
  tags,
  summary: "Create an automation",
  description: `A \`draft\` with a generated \`whsec_\` \`secret\` (32 random bytes, base64url, the generator of inbox webhooks), stored encrypted and answered in clear. ${SECRET} A trigger target (group, inbox) the workspace lacks is a 404. \`send_email\` domains need not be verified yet: that is checked on activate. ${TEMPLATE_STEPS} ${STATES}`,
  request: {
    headers: idempotencyHeader(
      "A retried create answers the first draft, its `secret` included (kept encrypted meanwhile): no second automation.",
    ),
    body: jsonBody(CreateAutomationBodySchema),
  },
  responses: {
    201: jsonResponse(AutomationSchema, "The new draft automation."),
    422: templateRefused,
    409: jsonResponse(
      ErrorSchema,
      "The Idempotency-Key was used with another body (`idempotency_key_reused`).",
    ),
  },
});

export const getAutomationRoute = defineRoute("read", {
  method: "get",
  path: one,
  tags,
  summary: "Get an automation",
  description: SECRET,
  request: { params: AutomationParamsSchema },
  responses: { 200: jsonResponse(AutomationSchema, "The automation.") },
});

export const updateAutomationRoute = defineRoute("write", {
  method: "patch",
  path: one,
  tags,
  summary: "Update an automation",
  description:
    "Changes the fields given, in any status. `steps` replaces the whole list: a step sent with its `id` stays the same step (enrolments waiting at it continue there); steps without one are new. Editing an active automation affects only steps its enrolments have not reached; an enrolment whose step was removed ends `completed` with a `note`. When the automation is `active`, every `send_email` domain must be a verified connection (400 with `details`) and every step's template published (422). Templates are checked as on create.",
  request: { params: AutomationParamsSchema, body: jsonBody(UpdateAutomationBodySchema) },
  responses: { 200: jsonResponse(AutomationSchema, "The updated automation."), 422: templateRefused },
});

export const deleteAutomationRoute = defineRoute("write", {
  method: "delete",
  path: one,
  tags,
  summary: "Delete an automation",
  description:
    "A `draft` or `paused` automation is deleted with its enrolments and their history. An `active` one is refused with 400 `automation_active` (`error`: `Automation is active`): pause it first.",
  request: { params: AutomationParamsSchema },
  responses: {
    200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted."),
    400: jsonResponse(ErrorSchema, "`automation_active`: the automation is active."),
  },
});

const move = (action: "activate" | "pause", summary: string, description: string) =>
  defineRoute("write", {
    method: "post",
    path: `${one}/${action}`,
    tags,
    summary,
    description: `${description} ${STATES}`,
    request: { params: AutomationParamsSchema },
    responses: { 200: jsonResponse(AutomationSchema, "The automation after the move."), 400: illegal },
  });

export const activateAutomationRoute = move(
  "activate",
  "Activate an automation",
  "From `draft` or `paused`. Needs at least one step, and every `send_email` step's `from` domain must be a verified connection of the workspace, as campaigns need to send: otherwise 400 `validation_error` with `details` naming each step. A step's `template` must have a published version (or name one): 422 `template_not_published` / `template_version_not_published`.",
);
export const pauseAutomationRoute = move(
  "pause",
  "Pause an automation",
  "From `active`: no customer is enrolled while paused (the API trigger answers 400, the other triggers skip it); enrolments under way stop at their next step and go on when the automation is activated again.",
);
