import { z } from "@hono/zod-openapi";
import { singleLine } from "../../lib/input";
import { TicketListQuerySchema } from "../tickets/tickets.schemas";

/** Custom views a workspace may hold (shared and personal together), besides the built-in ones. */
export const MAX_VIEWS = 100;

/**
 * A view's filters are the ticket list's query (GET /v1/tickets) without its page, checked by the
 * list's own schema; `assignee_id` may also be `me`, the user the view is read for.
 */
export const ViewFiltersSchema = TicketListQuerySchema.omit({ limit: true, offset: true })
  .strict()
  .openapi("ViewFilters", {
    description:
      "The query of GET /v1/tickets without `limit` and `offset`, as strings. `assignee_id` is a user (`usr_...`), `none` (unassigned) or `me` (the user the view is read for).",
    example: { status: "open", assignee_id: "me" },
  });
export type ViewFilters = z.infer<typeof ViewFiltersSchema>;

const ViewName = singleLine(100);
const OwnerUserId = z.string().max(64).nullable().openapi({
  description:
    "The user (`usr_...`, active, of this workspace) whose personal view this is, or null for a view shared with the workspace.",
});

export const ViewSchema = z
  .object({
    id: z.string().openapi({ example: "vw_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    name: z.string(),
    filters: ViewFiltersSchema,
    shared: z.boolean().openapi({ description: "True when every user of the workspace sees the view." }),
    owner_user_id: z.string().nullable(),
    builtin: z
      .boolean()
      .openapi({ description: "One of the views every workspace has; it cannot be changed." }),
    count: z.number().int().nullable().openapi({
      description:
        "Tickets the filters match now; null for a view of `me` read with no user (an API call without `user_id`).",
    }),
    created_at: z.string().nullable().openapi({ description: "Null for a built-in view." }),
    updated_at: z.string().nullable(),
  })
  .openapi("View");

export const ViewListSchema = z
  .object({ data: z.array(ViewSchema), count: z.number().int() })
  .openapi("ViewList");

export const CreateViewBodySchema = z
  .object({ name: ViewName, filters: ViewFiltersSchema, owner_user_id: OwnerUserId.optional() })
  .strict()
  .openapi("CreateViewRequest");

export const UpdateViewBodySchema = z
  .object({ name: ViewName, filters: ViewFiltersSchema, owner_user_id: OwnerUserId })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, "name at least one field to change")
  .openapi("UpdateViewRequest");

export const ViewUserQuerySchema = z.object({
  user_id: z.string().max(64).optional().openapi({
    description:
      "Read as this user (an active `usr_...` of the workspace): their personal views are listed too, and `me` is them.",
  }),
});

export const ViewTicketsQuerySchema = ViewUserQuerySchema.extend(
  TicketListQuerySchema.pick({ limit: true, offset: true }).shape,
);

export const ViewParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "vw_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});
