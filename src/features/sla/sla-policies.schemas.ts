import { z } from "@hono/zod-openapi";
import { IANAZone } from "luxon";
import { TICKET_PRIORITIES } from "../../db/schema";
import { singleLine } from "../../lib/input";
import { countedListSchema } from "../../lib/pagination";
import { WEEKDAYS } from "./business-time";

/** A year: no target is longer (the clock stops looking ten years ahead). */
export const MAX_TARGET_MINUTES = 525_600;
export const MAX_INTERVALS_PER_DAY = 4;
export const MAX_HOLIDAYS = 200;
export const MAX_POLICY_INBOXES = 100;
/** Statuses that may pause a policy's clocks; `resolved` and `closed` stop them, `spam` always pauses. */
export const PAUSABLE_STATUSES = ["pending", "on_hold"] as const;
export const SLA_TARGETS = ["first_response", "next_response", "resolution"] as const;

const Minutes = z.number().int().min(1).max(MAX_TARGET_MINUTES).nullable();

const PriorityTargets = z
  .object({ first_response: Minutes, next_response: Minutes, resolution: Minutes })
  .partial()
  .strict()
  .transform((t) => ({
    first_response: t.first_response ?? null,
    next_response: t.next_response ?? null,
    resolution: t.resolution ?? null,
  }))
  .openapi({ description: "Minutes of working time per target; `null` or absent: no target." });

const nullTargets = { first_response: null, next_response: null, resolution: null };

export const TargetsInputSchema = z
  .object(Object.fromEntries(TICKET_PRIORITIES.map((p) => [p, PriorityTargets.optional()])))
  .strict()
  .transform(
    (targets) =>
      Object.fromEntries(TICKET_PRIORITIES.map((p) => [p, targets[p] ?? nullTargets])) as Record<
        (typeof TICKET_PRIORITIES)[number],
        { first_response: number | null; next_response: number | null; resolution: number | null }
      >,
  )
  .openapi({
    description: `Per priority (\`low\`, \`normal\`, \`high\`, \`urgent\`; an absent one has no targets): \`first_response\`, \`next_response\` and \`resolution\` in minutes of working time (1 to ${MAX_TARGET_MINUTES}), each \`null\` for no target.`,
    example: { urgent: { first_response: 30, next_response: 60, resolution: 480 } },
  });

const WallTime = z
  .string()
  .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, "must be a time written HH:MM (00:00 to 24:00)");
const Interval = z
  .tuple([WallTime, WallTime])
  .refine(([from, to]) => from < to, { message: "must start before it ends" });
const DayIntervals = z
  .array(Interval)
  .max(MAX_INTERVALS_PER_DAY)
  .refine((list) => list.every((iv, i) => i === 0 || (list[i - 1]?.[1] ?? "") <= iv[0]), {
    message: "intervals must be in order and must not overlap",
  });
const LocalDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: "must be a real date",
    },
  );

export const BusinessHoursSchema = z
  .object({
    timezone: z
      .string()
      .refine((zone) => IANAZone.isValidZone(zone), {
        message: "must be an IANA time zone such as Europe/Paris",
      })
      .openapi({ example: "Europe/Paris" }),
    schedule: z
      .object(Object.fromEntries(WEEKDAYS.map((d) => [d, DayIntervals.optional()])))
      .strict()
      .refine((week) => Object.values(week).some((day) => (day?.length ?? 0) > 0), {
        message: "must have working hours on at least one day",
      })
      .openapi({
        description: `Per weekday (\`mon\` … \`sun\`), up to ${MAX_INTERVALS_PER_DAY} \`["HH:MM", "HH:MM"]\` local intervals in order; \`24:00\` ends a day. A day left out has no working hours.`,
        example: {
          mon: [["09:00", "17:00"]],
          tue: [
            ["09:00", "12:00"],
            ["13:00", "17:00"],
          ],
        },
      }),
    holidays: z
      .array(LocalDate)
      .max(MAX_HOLIDAYS)
      .default([])
      .refine((days) => new Set(days).size === days.length, { message: "must not repeat a date" })
      .openapi({
        description: `Local dates with no working hours, at most ${MAX_HOLIDAYS}.`,
        example: ["2026-12-25"],
      }),
  })
  .strict()
  .openapi("SlaBusinessHours");

const Hours = z.union([z.literal("calendar"), BusinessHoursSchema]).openapi({
  description:
    '`"calendar"`: every minute counts. Or business hours: a weekly schedule in an IANA time zone (DST follows the zone\'s rules: wall times stay) with holidays as local dates. A schedule with no working hours is refused, so every due time exists.',
});

const PauseStatuses = z
  .array(z.enum(PAUSABLE_STATUSES))
  .refine((s) => new Set(s).size === s.length, { message: "must not repeat a status" })
  .openapi({
    description:
      "Statuses during which the running targets stop counting (waiting on the customer). `resolved` and `closed` meet the resolution target and stop the clocks; `spam` always pauses.",
  });

const WarningBefore = z.number().int().min(0).max(10_080).openapi({
  description:
    "Minutes (on the clock, not working time) before a due time when `ticket.sla_warning` fires, 0 to 10,080. With 0, or when a due time comes before its warning was fired, only `ticket.sla_breached` fires.",
});

const InboxIds = z
  .array(z.string().min(1))
  .max(MAX_POLICY_INBOXES)
  .refine((ids) => new Set(ids).size === ids.length, { message: "must not repeat an inbox" })
  .openapi({
    description: `The inboxes the policy covers (at most ${MAX_POLICY_INBOXES}), each of the workspace (404 otherwise). An inbox is covered by one policy at most: 409 \`inbox_has_sla_policy\` when another policy (enabled or not) holds it.`,
  });

export const CreateSlaPolicyBodySchema = z
  .object({
    name: singleLine(100),
    inbox_ids: InboxIds.default([]),
    targets: TargetsInputSchema,
    hours: Hours.default("calendar"),
    pause_statuses: PauseStatuses.default(["pending", "on_hold"]),
    warning_before: WarningBefore.default(30),
    enabled: z.boolean().default(true),
  })
  .strict()
  .openapi("CreateSlaPolicyRequest");

export const UpdateSlaPolicyBodySchema = z
  .object({
    name: singleLine(100),
    inbox_ids: InboxIds,
    targets: TargetsInputSchema,
    hours: Hours,
    pause_statuses: PauseStatuses,
    warning_before: WarningBefore,
    enabled: z.boolean(),
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateSlaPolicyRequest");

export type CreateSlaPolicyInput = z.infer<typeof CreateSlaPolicyBodySchema>;
export type UpdateSlaPolicyInput = z.infer<typeof UpdateSlaPolicyBodySchema>;
export type SlaTargets = CreateSlaPolicyInput["targets"];

const TargetsOut = z.object({
  first_response: z.number().nullable(),
  next_response: z.number().nullable(),
  resolution: z.number().nullable(),
});

export const SlaPolicySchema = z
  .object({
    id: z.string().openapi({ example: "sla_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    name: z.string(),
    inbox_ids: z.array(z.string()),
    targets: z.object({ low: TargetsOut, normal: TargetsOut, high: TargetsOut, urgent: TargetsOut }),
    hours: z.union([z.literal("calendar"), BusinessHoursSchema]),
    pause_statuses: z.array(z.enum(PAUSABLE_STATUSES)),
    warning_before: z.number(),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("SlaPolicy");

export const SlaPolicyListSchema = countedListSchema(SlaPolicySchema, "SlaPolicyList");

export const SlaPolicyParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "sla_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

const SlaTargetStateSchema = z
  .object({
    due_at: z.string().nullable().openapi({
      description: "When the target runs out; null while paused, before it starts, or without a target.",
    }),
    breached: z.boolean().openapi({ description: "Missed: met late, or its due time passed unmet." }),
    met_at: z.string().nullable(),
    remaining_minutes: z.number().int().nullable().openapi({
      description:
        "Running: minutes until `due_at` on the clock (negative once passed). Paused: the target's working minutes left, which it resumes with. Null when met, not started, or without a target.",
    }),
  })
  .openapi("TicketSlaTarget");

export const TicketSlaSchema = z
  .object({
    policy_id: z.string(),
    first_response: SlaTargetStateSchema,
    next_response: SlaTargetStateSchema,
    resolution: SlaTargetStateSchema,
    paused: z.boolean().openapi({ description: "The ticket's status pauses the clocks (or stopped them)." }),
  })
  .nullable()
  .openapi("TicketSla", {
    description:
      "The ticket's SLA (docs/sla.md): null when no enabled policy covered its inbox when it was created. First response and resolution start at creation; an agent reply meets first response (and next response); a customer message after the first response starts next response; the policy's pause statuses pause the clocks (working time used is kept; they resume from the status change); `resolved` or `closed` meets resolution; a priority change works out the due times again from the same start, less paused time.",
  });
