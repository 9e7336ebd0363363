import { z } from "@hono/zod-openapi";
import { SURVEY_KINDS, SURVEY_STATUSES } from "../../db/schema/surveys";
import { singleLine } from "../../lib/input";
import { namedListSchema, offsetQuery, standardListSchema } from "../../lib/pagination";

export const MAX_NAME_LENGTH = 200;
export const MAX_QUESTION_LENGTH = 500;
export const MAX_INBOXES = 100;

const SURVEY_ID = "srv_01JD3Z6X8Y9ABCDEFGHJKMNPQR";
const INBOX_ID = "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR";

const Kind = z.enum(SURVEY_KINDS).openapi({
  description: "`csat`: ratings 1 to 5; `nps`: ratings 0 to 10 (9–10 promoters, 0–6 detractors).",
  example: "csat",
});
const Status = z.enum(SURVEY_STATUSES).openapi({
  description: "Only `active` surveys are sent; a `disabled` one keeps its responses and links.",
  example: "active",
});

const Summary = z
  .object({
    responses: z.number().int(),
    average: z
      .number()
      .nullable()
      .openapi({ description: "Mean rating, rounded to 2 decimals; null without responses." }),
    nps: z.number().int().nullable().openapi({
      description:
        "NPS surveys: % promoters − % detractors, rounded to an integer (−100 to 100); null without responses and always null for `csat`.",
    }),
  })
  .openapi("SurveySummary");

export const SurveySchema = z
  .object({
    id: z.string().openapi({ example: SURVEY_ID }),
    name: z.string(),
    kind: Kind,
    question: z.string(),
    inbox_ids: z
      .array(z.string())
      .openapi({ description: "The inboxes it covers (deleted inboxes leave it)." }),
    status: Status,
    summary: Summary,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Survey");

export const SurveyListSchema = namedListSchema("surveys", SurveySchema, "SurveyList");
export const SurveyListQuerySchema = offsetQuery(50);

const InboxIds = z
  .array(z.string().min(1).max(64))
  .max(MAX_INBOXES)
  .openapi({
    description: `Inboxes of this workspace, at most ${MAX_INBOXES} (repeats count once). An id that is not one of the workspace's inboxes is 404, as elsewhere in the API. Replaced as a whole on PATCH.`,
    example: [INBOX_ID],
  });

const fields = {
  name: singleLine(MAX_NAME_LENGTH).openapi({ example: "Support CSAT" }),
  kind: Kind,
  question: singleLine(MAX_QUESTION_LENGTH).openapi({
    description: `One line, 1 to ${MAX_QUESTION_LENGTH} characters: the email's and the page's question.`,
    example: "How satisfied are you with our answer?",
  }),
  inbox_ids: InboxIds,
  status: Status,
};

export const CreateSurveyBodySchema = z
  .object({ ...fields, inbox_ids: InboxIds.default([]), status: Status.default("active") })
  .strict()
  .openapi("CreateSurveyRequest");

export const UpdateSurveyBodySchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateSurveyRequest");

export type CreateSurveyInput = z.infer<typeof CreateSurveyBodySchema>;
export type UpdateSurveyInput = z.infer<typeof UpdateSurveyBodySchema>;

export const SurveyParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: SURVEY_ID }),
});

export const SurveyResponseSchema = z
  .object({
    id: z.string().openapi({ example: "rsp_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    survey_id: z.string(),
    ticket_id: z.string(),
    customer_id: z.string(),
    assignee_id: z
      .string()
      .nullable()
      .openapi({ description: "The ticket's assignee when the survey was sent, not now." }),
    inbox_id: z.string(),
    rating: z.number().int(),
    comment: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("SurveyResponse");

export const SurveyResponseListSchema = standardListSchema(SurveyResponseSchema, "SurveyResponseList");

export const SurveyResponseQuerySchema = offsetQuery(50).extend({
  rating: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .optional()
    .openapi({ description: "Only responses with this rating." }),
  inbox_id: z.string().optional().openapi({ description: "Only responses to tickets of this inbox." }),
  created_after: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: "Only responses created strictly after this time (ISO 8601)." }),
});

export type SurveyResponseQuery = z.infer<typeof SurveyResponseQuerySchema>;
