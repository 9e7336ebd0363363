import { z } from "@hono/zod-openapi";
import { ENROLLMENT_STATUSES } from "../../db/schema";
import { offsetQuery } from "../../lib/pagination";

/** The query, path and form schemas of the automation pages. */

const done = z.string().max(40).optional().openapi({ description: "Which confirmation to show." });

export const AutomationListQuery = offsetQuery(20).extend({ done });

export const DoneQuery = z.object({ done });

export const AutomationPath = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "aut_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const EnrollmentPath = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "enr_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const EnrollmentListQuery = offsetQuery(20).extend({
  status: z.enum(ENROLLMENT_STATUSES).optional().openapi({ description: "Only enrolments in this status." }),
});

/**
 * The editor: `name`, `trigger_type`, `trigger_group_id`, `trigger_inbox_id`, `allow_reentry`, one
 * `steps.{n}.{field}` per step field (`steps.0.type`, `steps.0.id`, `steps.0.url`...) and `op`, the
 * button pressed: `save`, `add:{type}`, `remove:{n}`, `up:{n}`, `down:{n}`.
 */
export const EditorForm = z
  .record(z.string().max(100), z.string().max(1_000_000))
  .refine((form) => Object.keys(form).length <= 1_000, "too many fields")
  .openapi({
    description:
      "`name`, `trigger_type`, `trigger_group_id`, `trigger_inbox_id`, `allow_reentry`, `steps.{n}.{field}` for each step (`type`, `id`, `from`, `reply_to`, `subject`, `html`, `text`, `template_id`, `template_version_id`, `template_variables` a JSON object of the template's static values, `duration`, `url`, `method`, `headers` one `Name: value` per line, `payload` JSON, `contact_group_id`, `metadata` JSON) and `op`.",
  });
export type EditorFormValues = z.infer<typeof EditorForm>;
