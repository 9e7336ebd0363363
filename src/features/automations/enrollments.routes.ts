import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import { AUTOMATION_ID_PATH, AutomationParamsSchema } from "./automations.schemas";
import {
  ENROLLMENT_ID_PATH,
  EnrollmentListQuerySchema,
  EnrollmentListSchema,
  EnrollmentParamsSchema,
  EnrollmentSchema,
  TriggerBodySchema,
} from "./enrollments.schemas";

const tags = ["Automations"];

export const triggerAutomationRoute = defineRoute("write", {
  method: "post",
  path: "/v1/automations/trigger",
  tags,
  summary: "Enrol a customer",
  description:
    "Enrols the customer (by `customer_id`, or by `customer.email`: found in any case, or created with `name`) into an automation whose trigger is any type; it must be `active` (400 `automation_not_active` whose `error` names the status). A customer already active in it is a 409 `already_enrolled` unless `allow_reentry`; two concurrent triggers for one customer give one 201 and one 409. `data` becomes the enrolment's `trigger_data`. `Idempotency-Key` works as on POST /v1/emails and shares its keys: the 201 is replayed (same enrolment, status 201) for 24 hours; the same key with another body, or used on another endpoint, is a 409 `idempotency_key_reused`; a refused trigger stores nothing. The run starts after the response. A run whose workspace is suspended ends `failed` at its next step, doing nothing, with `note` `account_suspended: ...`. This trigger is never held to the loop bound of `add_to_group` steps (see `AutomationTrigger`): it enrols however often it is called, within the rate limit.",
  request: {
    headers: idempotencyHeader(
      "A retried trigger answers the first enrolment (status 201) and starts no second run.",
    ),
    body: jsonBody(TriggerBodySchema),
  },
  responses: {
    201: jsonResponse(EnrollmentSchema, "The new enrolment (its `history` empty)."),
    409: jsonResponse(ErrorSchema, "`already_enrolled` or `idempotency_key_reused`."),
  },
});

/** How long the history lasts (jobs/prune-automation-history.ts). */
const KEPT =
  " A finished enrolment (`completed`, `failed` or `cancelled`) is kept with its history as long as the workspace keeps its emails (its email retention: at most 30 to 400 days by plan), counted from `finished_at`; after that it is deleted, no longer listed and 404. An `active` enrolment is kept however old.";

export const listEnrollmentsRoute = defineRoute("read", {
  method: "get",
  path: `/v1/automations/${AUTOMATION_ID_PATH}/enrollments`,
  tags,
  summary: "List an automation's enrolments",
  description: `Newest first, \`limit\` 20 by default (at most 100); \`status\` filters; \`count\` is how many match in all. Items carry no \`history\`: GET /v1/enrollments/{id} has it.${KEPT}`,
  request: { params: AutomationParamsSchema, query: EnrollmentListQuerySchema },
  responses: { 200: jsonResponse(EnrollmentListSchema, "A page of enrolments.") },
});

export const getEnrollmentRoute = defineRoute("read", {
  method: "get",
  path: `/v1/enrollments/${ENROLLMENT_ID_PATH}`,
  tags,
  summary: "Get an enrolment",
  description: `With its \`history\`: one entry per step reached, oldest first.${KEPT}`,
  request: { params: EnrollmentParamsSchema },
  responses: { 200: jsonResponse(EnrollmentSchema, "The enrolment.") },
});

export const cancelEnrollmentRoute = defineRoute("write", {
  method: "post",
  path: `/v1/enrollments/${ENROLLMENT_ID_PATH}/cancel`,
  tags,
  summary: "Cancel an enrolment",
  description:
    "An `active` enrolment becomes `cancelled` (`finished_at` set, `current_step` and `next_run_at` cleared) and its run is stopped: no further step runs. A `completed`, `failed` or `cancelled` one is a 409 `enrollment_finished` whose `error` names the status.",
  request: { params: EnrollmentParamsSchema },
  responses: {
    200: jsonResponse(EnrollmentSchema, "The cancelled enrolment."),
    409: jsonResponse(ErrorSchema, "`enrollment_finished`: the enrolment has already ended."),
  },
});
