import { z } from "@hono/zod-openapi";
import {
  MAX_SEARCH_CHARS,
  TicketParamsSchema,
  TicketPriority,
  TicketStatus,
  TicketSubject,
} from "../../features/tickets/tickets.schemas";
import { offsetQuery } from "../../lib/pagination";
import { dashboardRoute, formBody } from "../routes";
import { LIST_DONE, TICKET_DONE } from "./labels";

/** A select's "Any" option sends an empty value: the same as leaving the filter out. */
const anyOr = <T extends z.ZodType>(schema: T) => z.union([z.literal(""), schema]).optional();
const idFilter = z.string().max(100).optional();
const doneCode = <T extends Record<string, string>>(codes: T) =>
  z.enum(Object.keys(codes) as [keyof T & string]).optional();

export const TicketsQuerySchema = offsetQuery(50).extend({
  status: anyOr(TicketStatus),
  priority: anyOr(TicketPriority),
  inbox_id: idFilter,
  assignee_id: idFilter,
  customer_id: idFilter,
  tag: z.string().max(50).optional().openapi({ description: "A tag name (any case)." }),
  // As long as the API's q: a view saved through the API opens here with its words.
  q: z
    .string()
    .max(MAX_SEARCH_CHARS)
    .optional()
    .openapi({ description: "A full-text search, as GET /v1/tickets?q= takes it (docs/search.md)." }),
  view: z
    .string()
    .max(64)
    .optional()
    .openapi({ description: "The saved view open (`vw_...`), to manage it." }),
  done: doneCode(LIST_DONE),
});

export const TicketPageQuerySchema = offsetQuery(50).extend({
  done: doneCode(TICKET_DONE),
  saved_reply: z.string().max(64).optional().openapi({ description: "A saved reply to insert (`srp_...`)." }),
});

/** The Save form sends every field; the handler passes on to PATCH's service only those that changed. */
export const EditTicketFormSchema = z.object({
  subject: TicketSubject,
  status: TicketStatus,
  priority: TicketPriority,
  assignee_id: z
    .string()
    .max(64)
    .openapi({ description: "An active user of the workspace, or empty for Unassigned." }),
  tags: z.string().max(5000).openapi({ description: "Tag names separated by commas." }),
});

/** Checked again, whole, by the API's own schema (POST /v1/tickets/{id}/messages) before sending. */
export const MessageFormSchema = z.object({
  body_text: z.string().regex(/\S/, "write something first").openapi({ description: "The text." }),
  saved_reply_id: z.string().max(64).optional().openapi({
    description:
      "The saved reply inserted: its actions apply; the text unchanged is sent as the reply renders it (with its HTML), an edited one as written.",
  }),
  version: z.coerce.number().int().min(0).optional().openapi({
    description: "The ticket's version on the page the reply was written on (a reply is sent only at it).",
  }),
  loaded_at: z.coerce.number().int().min(0).optional().openapi({
    description: "The ticket's `updated_at` (ms) on that page: messages after it are the news shown.",
  }),
});

/** Mapped onto POST /v1/tickets' body and checked by the API's own schema, so the rules are the API's. */
export const NewTicketFormSchema = z.object({
  inbox_id: z.string().max(100),
  customer_email: z.string().max(1000),
  customer_name: z.string().max(1000).optional(),
  subject: z.string().max(5000),
  body_text: z.string().optional().openapi({ description: "The customer's first message (optional)." }),
  priority: TicketPriority.optional(),
});

export { TicketParamsSchema };

export const ticketsPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/tickets",
  summary: "Tickets",
  description:
    "The workspace's tickets, newest first, 50 a page (`limit`, `offset`), filtered exactly as GET /v1/tickets filters (`status`, `priority`, `inbox_id`, `assignee_id`, `customer_id`, `tag`, `q`; an empty value means any). Each row shows the client id, subject, customer, status, priority, assignee and last update, and links to the ticket. The filters are a plain GET form; with script, htmx swaps in only the table and keeps the address. Pickers of people stay small whatever the team's size: they offer the first 50 active users (oldest first) plus every user the page names (the assignee, authors, the selected filter). With filters applied, a Save as view form; with a saved view open (`view`, another user's personal view is a 404), forms to rename it, share it or keep it personal, save the current filters to it and delete it (see the /dashboard/tickets/views routes).",
  request: { query: TicketsQuerySchema },
});

export const newTicketPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/tickets/new",
  summary: "New ticket form",
  description:
    "A form for a ticket started on a customer's behalf: inbox, customer email and name, subject, the customer's first message (optional) and priority.",
});

export const createTicketPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets",
  summary: "Create a ticket",
  description:
    "Creates the ticket exactly as POST /v1/tickets does (same checks; the customer is found by email or created; the first message, when given, is the customer's) and fires `ticket.created`; redirects (303) to the new ticket. Invalid input shows the form again with the problems and the text typed (400).",
  request: { body: formBody(NewTicketFormSchema) },
  success: 303,
});

export const ticketPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/tickets/{id}",
  summary: "A ticket",
  description:
    "The ticket's facts (status, priority, inbox, customer, assignee, tags, times), its messages oldest first, 50 a page, each with author, time and text (an HTML-only message is shown as text, never as HTML), drafts and internal notes marked; the Save form (subject, status, priority, assignee, tags), a message box with Send reply and Add note and, when the ticket's inbox has saved replies, a picker of them (its own and unscoped ones, newest 100, a native select): Insert (`saved_reply`) comes back with the reply rendered for this ticket in the box, its preview and the changes it makes, or why it cannot be used here; and Delete. Pickers of people stay small whatever the team's size: they offer the first 50 active users (oldest first) plus every user the page names (the assignee, authors, the selected filter).",
  request: { params: TicketParamsSchema, query: TicketPageQuerySchema },
});

export const editTicketPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/{id}/edit",
  summary: "Save a ticket",
  description:
    "Subject, status, priority and assignee that differ from the ticket's go to PATCH /v1/tickets/{id}'s service and fire one `ticket.updated`, exactly as that PATCH would (an unknown or disabled assignee is a 400 page). Tags are then added and removed as POST /v1/tickets/{id}/manage `add_tags`/`remove_tags` do, which, as in the API, fires no `ticket.updated` of its own: a Save that changes only tags fires none. A Save that changes nothing changes nothing. Redirects (303) to the ticket.",
  request: { params: TicketParamsSchema, body: formBody(EditTicketFormSchema) },
  success: 303,
});

export const replyPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/{id}/reply",
  summary: "Reply to the customer",
  description:
    "Adds a reply exactly as POST /v1/tickets/{id}/messages with `type: reply` does: the customer is emailed from the inbox's address, the ticket takes the inbox's status after reply, and `message.created` fires. The message's author is the signed-in user (`author.type: user`). Redirects (303) to the ticket. The form carries the ticket's `version` as its page showed it, sent as that POST's If-Match: when the ticket changed since (a new message, a status...), nothing is sent and the ticket page comes back (409) with the new messages above the box, the reply still in it and the new version in the form, so that pressing Send reply again sends it over what the agent has now seen (docs/collision.md).",
  request: { params: TicketParamsSchema, body: formBody(MessageFormSchema) },
  success: 303,
});

export const notePageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/{id}/note",
  summary: "Add an internal note",
  description:
    "Adds an internal note as POST /v1/tickets/{id}/messages with `type: note` does, authored by the signed-in user, but fires no `message.created`: that event excludes internal notes added in the dashboard. Redirects (303) to the ticket.",
  request: { params: TicketParamsSchema, body: formBody(MessageFormSchema) },
  success: 303,
});

export const deleteTicketPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/tickets/{id}/delete",
  summary: "Delete a ticket",
  description:
    "Deletes the ticket, its messages, tag links and attachments exactly as DELETE /v1/tickets/{id} does and fires `ticket.deleted`; the button asks for confirmation first. Redirects (303) to the list.",
  request: { params: TicketParamsSchema },
  success: 303,
});
