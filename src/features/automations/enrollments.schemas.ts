import { z } from "@hono/zod-openapi";
import { AUTOMATION_TRIGGERS, ENROLLMENT_STATUSES, ENROLLMENT_STEP_STATUSES } from "../../db/schema";
import { MAX_METADATA_BYTES, maxJsonBytes } from "../../lib/input";
import { countedPageSchema, offsetQuery } from "../../lib/pagination";

const ENROLLMENT_ID_EXAMPLE = "enr_01JD3Z6X8Y9ABCDEFGHJKMNPQR";

const HistoryEntrySchema = z
  .object({
    step_id: z.string().openapi({ example: "stp_welcome" }),
    type: z.string().openapi({ example: "send_email" }),
    status: z.enum(ENROLLMENT_STEP_STATUSES),
    at: z.string().openapi({ description: "When the step was reached." }),
    finished_at: z.string().nullable(),
    error: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        "What the step did: the email id, a webhook's status and duration, a wait's end; for `add_to_group`, `changed` and, when the loop bound refused to enrol the customer into a `group_joined` automation, `refused_enrollments: [{ automation_id, reason }]`.",
    }),
  })
  .openapi("EnrollmentHistoryEntry");

const fields = {
  id: z.string().openapi({ example: ENROLLMENT_ID_EXAMPLE }),
  automation_id: z.string(),
  customer_id: z.string(),
  status: z.enum(ENROLLMENT_STATUSES),
  current_step: z
    .string()
    .nullable()
    .openapi({ description: "The id of the step it is at; null once ended." }),
  next_run_at: z.string().nullable().openapi({ description: "When a waiting enrolment resumes." }),
  trigger_type: z.enum(AUTOMATION_TRIGGERS),
  trigger_data: z.record(z.string(), z.unknown()).openapi({
    description:
      "`api`: the trigger's `data`; `group_joined`: `{ contact_group_id }`, plus `caused_by_enrollment_id` when an automation's `add_to_group` step made it; `ticket_resolved`: `{ ticket_id, inbox_id }`.",
  }),
  note: z.string().nullable().openapi({ description: "Why it ended when that is not obvious." }),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
};

export const EnrollmentSummarySchema = z.object(fields).openapi("EnrollmentSummary");
export const EnrollmentSchema = z
  .object({
    ...fields,
    history: z.array(HistoryEntrySchema).openapi({ description: "Steps reached, oldest first." }),
  })
  .openapi("Enrollment");

export const EnrollmentListSchema = countedPageSchema(EnrollmentSummarySchema, "EnrollmentList");
export const EnrollmentListQuerySchema = offsetQuery(20).extend({
  status: z.enum(ENROLLMENT_STATUSES).optional().openapi({ description: "Only enrolments in this status." }),
});

const Email = z.string().trim().min(1).max(320);

export const TriggerBodySchema = z
  .object({
    automation_id: z.string().min(1).openapi({ example: "aut_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    customer: z
      .object({
        email: Email.openapi({ example: "ada@example.com" }),
        name: z.string().trim().max(200).optional(),
      })
      .strict()
      .optional()
      .openapi({ description: "Found by address, or created. Give this or `customer_id`." }),
    customer_id: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: "A customer of the workspace (404 otherwise)." }),
    data: z
      .record(z.string(), z.unknown())
      .superRefine(maxJsonBytes(MAX_METADATA_BYTES))
      .optional()
      .openapi({ description: "Kept as the enrolment's `trigger_data`; webhook steps send it." }),
  })
  .strict()
  .refine((body) => (body.customer ? 1 : 0) + (body.customer_id ? 1 : 0) === 1, {
    message: "give exactly one of `customer` and `customer_id`",
  })
  .openapi("TriggerAutomationRequest");
export type TriggerBody = z.infer<typeof TriggerBodySchema>;

/** An `enr_` id only. */
export const ENROLLMENT_ID_PATH = "{id{enr_[0-9A-Za-z]+}}";

export const EnrollmentParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: ENROLLMENT_ID_EXAMPLE }),
});
