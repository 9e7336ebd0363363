import { z } from "@hono/zod-openapi";

export const MAX_COMMENT_LENGTH = 2000;

export const SurveyTokenParams = z.object({
  token: z.string().openapi({
    param: { name: "token", in: "path" },
    description: "The link's token: the ticket and the rating, signed by the service.",
  }),
});

export const SurveyFormSchema = z.object({
  comment: z
    .string()
    .max(MAX_COMMENT_LENGTH)
    .optional()
    .openapi({
      description: `At most ${MAX_COMMENT_LENGTH} characters; blank clears it. Left out, the comment stays as it was.`,
    }),
});
