import { z } from "@hono/zod-openapi";
import { singleLine } from "../../lib/input";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { TagNames, TicketStatus } from "../tickets/tickets.schemas";
import { FILTERS, MAX_BODY_CHARS, VARIABLES } from "./template";

const SAVED_REPLY_ID_EXAMPLE = "srp_01JD3Z6X8Y9ABCDEFGHJKMNPQR";

export const SYNTAX = `Liquid outputs only: \`{{ variable }}\`, optionally with filters (\`{{ customer.first_name | default: "there" }}\`). Variables: ${VARIABLES.map((v) => `\`${v}\``).join(", ")}. Filters: ${FILTERS.map((f) => `\`${f}\``).join(", ")}. No \`{% %}\` tags.`;

export const Actions = z
  .object({
    status: TicketStatus.optional().openapi({ description: "The ticket's status after the reply." }),
    add_tags: TagNames.optional().openapi({
      description: "Tag names added to the ticket (created in its inbox when new).",
    }),
    assignee_id: z
      .string()
      .max(64)
      .nullable()
      .optional()
      .openapi({ description: "An active user (`usr_...`) to assign, or null to unassign." }),
  })
  .strict()
  .openapi("SavedReplyActions");

export type SavedReplyActions = z.infer<typeof Actions>;

const Name = singleLine(100).openapi({ example: "Refund sent" });
const Body = z
  .string()
  .min(1)
  .max(MAX_BODY_CHARS)
  .openapi({
    description: `Markdown (CommonMark with GitHub's extensions; raw HTML is dropped when rendered), at most ${MAX_BODY_CHARS} characters. ${SYNTAX}`,
    example: 'Hi {{ customer.first_name | default: "there" }},\n\nYour refund is on its way.',
  });

export const SavedReplySchema = z
  .object({
    id: z.string().openapi({ example: SAVED_REPLY_ID_EXAMPLE }),
    name: z.string(),
    body: z.string(),
    inbox_id: z.string().nullable().openapi({
      description: "The one inbox whose tickets may use it; null: every inbox.",
    }),
    actions: Actions,
    created_by: z.string().nullable().openapi({ description: "The user who made it; null through the API." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("SavedReply");

export const SavedReplyListSchema = standardListSchema(SavedReplySchema, "SavedReplyList");
export const SavedReplyListQuerySchema = offsetQuery(50).extend({
  inbox_id: z.string().optional().openapi({
    description: "Only the replies usable on this inbox's tickets: its own and the unscoped ones.",
  }),
});

export const CreateSavedReplyBodySchema = z
  .object({
    name: Name,
    body: Body,
    inbox_id: z.string().nullable().optional(),
    actions: Actions.optional(),
  })
  .strict()
  .openapi("CreateSavedReplyRequest");

export const UpdateSavedReplyBodySchema = z
  .object({ name: Name, body: Body, inbox_id: z.string().nullable(), actions: Actions })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, "name at least one field to change")
  .openapi("UpdateSavedReplyRequest");

export const SavedReplyParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: SAVED_REPLY_ID_EXAMPLE }),
});

export const PreviewBodySchema = z
  .object({ ticket_id: z.string() })
  .strict()
  .openapi("SavedReplyPreviewRequest");

export const PreviewSchema = z
  .object({
    body_text: z
      .string()
      .openapi({ description: "The Markdown with the variables filled in: the text part." }),
    body_html: z.string().openapi({ description: "The rendered, sanitized HTML: the HTML part." }),
    actions: Actions.openapi({ description: "What using it would change on the ticket." }),
  })
  .openapi("SavedReplyPreview");

export type CreateSavedReplyInput = z.infer<typeof CreateSavedReplyBodySchema>;
export type UpdateSavedReplyInput = z.infer<typeof UpdateSavedReplyBodySchema>;
