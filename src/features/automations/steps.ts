import { z } from "@hono/zod-openapi";
import { MAX_METADATA_BYTES, maxJsonBytes } from "../../lib/input";
import { jsonLength } from "../../lib/text";
import { SendTemplateSchema } from "../templates/templates.schemas";

/**
 * The steps of an automation (product.md "Automations"), shared by the API's validation, the engine
 * that runs them and the dashboard's editor. Every step has an `id` (`stp_` + 1–40 characters; given
 * or generated on write) that stays when the automation is edited, so enrolments know which step
 * they are at. URL rules that depend on the environment (the webhook step's) are checked on write
 * by the service and again at send time, not here.
 */

export const STEP_TYPES = [
  "send_email",
  "wait",
  "webhook",
  "add_to_group",
  "remove_from_group",
  "update_customer",
] as const;
export type StepType = (typeof STEP_TYPES)[number];

export const MAX_STEPS = 50;
/**
 * The steps are one JSON column of the automation's row, and D1 refuses a row over 2 MB: the whole
 * list is kept under 1 MB serialized, leaving room for the rest of the row and for JSON escaping.
 */
export const MAX_STEPS_BYTES = 1_000_000;
/** A webhook step's own body: the default one is a few hundred bytes. */
export const MAX_PAYLOAD_BYTES = 65_536;
export const MAX_WAIT_DAYS = 365;
const STEP_ID = /^stp_[A-Za-z0-9_-]{1,40}$/;
/** `10m`, `3d`, `2h`, `1w`, `30s`: a count and a unit. */
const DURATION = /^([1-9][0-9]{0,6})(s|m|h|d|w)$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 } as const;

/** Seconds of a duration string, or null when it is not one. */
export function durationSeconds(duration: string): number | null {
  const match = DURATION.exec(duration);
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

const stepId = z
  .string()
  .regex(STEP_ID, "must be `stp_` followed by 1–40 letters, digits, `_` or `-`")
  .optional()
  .openapi({ description: "Kept across edits; generated when omitted.", example: "stp_welcome" });

const SendEmailStep = z.object({
  id: stepId,
  type: z.literal("send_email"),
  from: z.string().min(1).max(320),
  reply_to: z.string().max(320).optional(),
  subject: z.string().min(1).max(998).optional().openapi({
    description: "Required without a `template`; with one, it replaces the template's subject.",
  }),
  html: z.string().max(500_000).optional(),
  text: z.string().max(500_000).optional(),
  template: SendTemplateSchema.optional().openapi({
    description:
      "A stored template (id or alias; optional `version_id`) instead of `html`/`text` (400 with either): its published version when the step runs (or the version named). `variables` are static values; the others come from the enrolment's trigger `data`, then the customer (`email`, `name`, `first_name`, `unsubscribe_url`, whatever their case), then the customer's `metadata`, then `fallback_value`. A customer left without a value is not sent the email: the step is `skipped` with `missing_variables: KEY, ...` and the run goes on. 404 for a template not of this workspace; 422 for static values not declared or of the wrong type.",
  }),
});

const WaitStep = z.object({
  id: stepId,
  type: z.literal("wait"),
  duration: z
    .string()
    .refine((d) => {
      const seconds = durationSeconds(d);
      return seconds !== null && seconds <= MAX_WAIT_DAYS * 86_400;
    }, `must be a count and a unit (s, m, h, d, w) such as \`10m\` or \`3d\`, at most ${MAX_WAIT_DAYS} days`)
    .openapi({ example: "3d" }),
});

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const WebhookStep = z.object({
  id: stepId,
  type: z.literal("webhook"),
  url: z.string().min(1).max(2_048),
  method: z.enum(["POST", "PUT", "PATCH"]).default("POST"),
  headers: z
    .record(z.string().regex(HEADER_NAME, "must be a header name"), z.string().max(1_000))
    .refine((h) => Object.keys(h).length <= 20, "at most 20 headers")
    .default({}),
  /** Replaces the default body; sent as JSON. */
  payload: z
    .record(z.string(), z.unknown())
    .superRefine(maxJsonBytes(MAX_PAYLOAD_BYTES))
    .optional()
    .openapi({ description: `Replaces the default body; at most ${MAX_PAYLOAD_BYTES} bytes as JSON.` }),
});

const GroupStep = (type: "add_to_group" | "remove_from_group") =>
  z.object({
    id: stepId,
    type: z.literal(type),
    contact_group_id: z.string().min(1),
  });

const UpdateCustomerStep = z.object({
  id: stepId,
  type: z.literal("update_customer"),
  /** Merged into the customer's metadata; a null value removes the key. */
  metadata: z
    .record(z.string(), z.unknown())
    .superRefine(maxJsonBytes(MAX_METADATA_BYTES))
    .openapi({
      description: `Merged into the customer's metadata (a null value removes the key), at most ${MAX_METADATA_BYTES} bytes as JSON; a merge whose result would pass that limit fails the step.`,
    }),
});

export const StepInputSchema = z
  .discriminatedUnion("type", [
    SendEmailStep,
    WaitStep,
    WebhookStep,
    GroupStep("add_to_group"),
    GroupStep("remove_from_group"),
    UpdateCustomerStep,
  ])
  .openapi("AutomationStep");
export type StepInput = z.infer<typeof StepInputSchema>;

/** A stored step: its id is always present. */
export type Step = StepInput & { id: string };

export const StepsInputSchema = z
  .array(StepInputSchema)
  .max(MAX_STEPS)
  .refine((steps) => {
    const ids = steps.flatMap((s) => (s.id ? [s.id] : []));
    return new Set(ids).size === ids.length;
  }, "step ids must be unique")
  .refine(
    (steps) => jsonLength(steps) <= MAX_STEPS_BYTES,
    `must be at most ${MAX_STEPS_BYTES} bytes as JSON (UTF-8) in all`,
  );
