import { z } from "@hono/zod-openapi";
import { idPattern } from "../../lib/ids";
import { REPORT_INTERVALS } from "./report-period";

const DATE_HELP =
  "An ISO 8601 date (`2026-11-01`) or date-time in UTC; it is taken to the start of its interval (its UTC day, or the Monday of its week).";

export const EmailReportQuerySchema = z.object({
  from: z
    .string()
    .optional()
    .openapi({
      description: `The first interval's start, inclusive. ${DATE_HELP} Defaults to 30 days before \`to\`.`,
      example: "2026-11-01",
    }),
  to: z
    .string()
    .optional()
    .openapi({
      description: `The end of the period, exclusive; a time inside an interval takes in that whole interval. ${DATE_HELP.replace("start", "end")} Defaults to the end of today (UTC).`,
      example: "2026-12-01",
    }),
  interval: z.enum(REPORT_INTERVALS).default("day").openapi({
    description: "`day` (UTC days) or `week` (weeks starting Monday 00:00 UTC). At most 366 intervals.",
  }),
  inbox_id: z
    .string()
    .regex(new RegExp(idPattern("inb")), "must be an inbox id such as inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR")
    .optional()
    .openapi({ description: "Only the emails of this inbox: its ticket replies." }),
  tag: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}:[A-Za-z0-9_-]{1,256}$/, "must be a tag as name:value")
    .optional()
    .openapi({ description: "Only the emails with this tag, as `name:value`.", example: "category:welcome" }),
  template_id: z
    .string()
    .regex(new RegExp(idPattern("tpl")), "must be a template id such as tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR")
    .optional()
    .openapi({
      description:
        "Only the emails built from this template (`template` on POST /v1/emails), whichever of its versions; by id, not alias. A removed template's emails are still counted under its id.",
    }),
  template_version_id: z
    .string()
    .regex(
      new RegExp(idPattern("tpv")),
      "must be a template version id such as tpv_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
    )
    .optional()
    .openapi({ description: "Only the emails built from this published version of a template." }),
});

const count = (description: string) => z.number().int().openapi({ description });
const rate = (description: string) => z.number().nullable().openapi({ description });
const overDelivered = (counter: string) =>
  rate(`${counter} over \`delivered\` (0 to 1); null when nothing was delivered.`);

/** The counts of an interval or of the whole period, and the rates made of them. */
const CountsSchema = z.object({
  accepted: count("Emails the API accepted (created), on the day they were accepted."),
  sent: count("Emails handed to the transport (first hand-off)."),
  delivered: count(
    "Emails the transport accepted for at least one recipient (the last the service hears of delivery).",
  ),
  bounced_hard: count(
    "Emails that bounced permanently for at least one recipient (refused at send or by a later report), once per email, on the day of its first such bounce.",
  ),
  bounced_soft: count(
    "Emails that bounced temporarily (deferred, or a delay report) for at least one recipient, once per email.",
  ),
  complained: count("Emails a recipient reported as spam, once per email."),
  opened: count("Emails opened at least once (unique per email: the first open)."),
  clicked: count("Emails with at least one tracked click (unique per email: the first click)."),
  suppressed: count(
    "Emails not sent because a recipient is suppressed: a send refused with a 422 (each email of it naming a suppressed address; a ticket reply under its inbox), a campaign recipient or automation step skipped for a suppressed address (once each). No email exists for them, so they count in no other column.",
  ),
  failed: count("Emails that ended failed (never accepted by the transport)."),
  bounce_rate: rate(
    "`bounced_hard` over (`sent` + `failed`): permanent bounces over the emails the transport gave a verdict on, as mailbox providers reckon reputation (soft bounces are delays that may still deliver); null when there were none. A day's rate compares that day's facts, so an email sent on one day and bounced the next counts on each day it happened.",
  ),
  complaint_rate: overDelivered("`complained`"),
  open_rate: overDelivered("`opened`"),
  click_rate: overDelivered("`clicked`"),
});

const IntervalSchema = CountsSchema.extend({
  start: z.string().openapi({ example: "2026-11-02T00:00:00.000Z" }),
  end: z.string().openapi({ description: "Exclusive.", example: "2026-11-03T00:00:00.000Z" }),
});

export const EmailReportSchema = z
  .object({
    data: z.array(IntervalSchema.openapi("EmailReportInterval")),
    totals: CountsSchema.openapi("EmailReportCounts"),
    from: z.string().openapi({ description: "The first interval's start." }),
    to: z.string().openapi({ description: "The last interval's end (exclusive)." }),
    interval: z.enum(REPORT_INTERVALS),
  })
  .openapi("EmailReport");
