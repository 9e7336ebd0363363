import { z } from "@hono/zod-openapi";
import { AUTOMATION_STATUSES } from "../../db/schema";
import { singleLine } from "../../lib/input";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { LOOP_BOUND_RULE } from "./loop-bound";
import { StepInputSchema, StepsInputSchema } from "./steps";

const AUTOMATION_ID_EXAMPLE = "aut_01JD3Z6X8Y9ABCDEFGHJKMNPQR";

export const TriggerSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("api") }).strict(),
    z
      .object({
        type: z.literal("group_joined"),
        contact_group_id: z.string().min(1).openapi({ example: "grp_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
      })
      .strict(),
    z
      .object({
        type: z.literal("ticket_resolved"),
        inbox_id: z.string().min(1).openapi({ example: "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
      })
      .strict(),
  ])
  .openapi("AutomationTrigger", {
    description: `\`api\`: POST /v1/automations/trigger. \`group_joined\`: a customer newly added to the contact group, by POST /v1/contact-groups/{id}/members or by an automation's \`add_to_group\` step alike (members already in it are not). \`ticket_resolved\`: a ticket of the inbox moving to \`resolved\` from another status enrols its customer. The group or inbox must be the workspace's (404 otherwise). ${LOOP_BOUND_RULE}`,
  });
export type TriggerInput = z.infer<typeof TriggerSchema>;

/** A stored step: the input shape with its id always present. */
const StoredStepSchema = z.intersection(StepInputSchema, z.object({ id: z.string() }));

export const AutomationSchema = z
  .object({
    id: z.string().openapi({ example: AUTOMATION_ID_EXAMPLE }),
    name: z.string(),
    status: z.enum(AUTOMATION_STATUSES),
    trigger: TriggerSchema,
    steps: z.array(StoredStepSchema),
    allow_reentry: z.boolean(),
    secret: z.string().nullable().openapi({
      description:
        "`whsec_` secret that signs this automation's webhook steps (`X-Service-Signature`, as inbox webhooks). Stored encrypted; answered in clear to write and admin keys, the keys that write automations; `null` for read keys, which never receive a secret.",
      example: "whsec_6f1b...",
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Automation");

export const AutomationListSchema = standardListSchema(AutomationSchema, "AutomationList");
export const AutomationListQuerySchema = offsetQuery(20).extend({
  status: z.enum(AUTOMATION_STATUSES).optional().openapi({ description: "Only automations in this status." }),
});

const STEPS =
  "Ordered steps, at most 50. Each step's `id` is kept when given (so an edit of an active automation keeps enrolments where they are) and generated (`stp_…`) when omitted. Checked on write, 400 with `details`: an unknown step type, a `wait` over 365 days, a webhook `url` failing the rules of inbox webhooks, a group step naming a group the workspace lacks, a `send_email` without `html` or `text` or whose `from` is not an address.";

const fields = {
  name: singleLine(200).openapi({ example: "Onboarding" }),
  trigger: TriggerSchema,
  steps: StepsInputSchema.openapi({ description: STEPS }),
  allow_reentry: z.boolean().openapi({
    description:
      "When false (the default) a customer already active in the automation is refused (409 on the API trigger, skipped by the other triggers). When true, re-entry through `add_to_group` steps is still held to the loop bound described under `AutomationTrigger`.",
  }),
};

export const CreateAutomationBodySchema = z
  .object({ ...fields, steps: fields.steps.default([]), allow_reentry: fields.allow_reentry.default(false) })
  .strict()
  .openapi("CreateAutomationRequest");

export const UpdateAutomationBodySchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateAutomationRequest");

export type CreateAutomationInput = z.infer<typeof CreateAutomationBodySchema>;
export type UpdateAutomationInput = z.infer<typeof UpdateAutomationBodySchema>;

/** An `aut_` id only, so that `/v1/automations/trigger` is never read as an id. */
export const AUTOMATION_ID_PATH = "{id{aut_[0-9A-Za-z]+}}";

export const AutomationParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: AUTOMATION_ID_EXAMPLE }),
});
