import { z } from "@hono/zod-openapi";
import { tagNameKey } from "../../features/tags/tags.service";
import type { toTicket } from "../../features/tickets/tickets.dto";
import { TagName } from "../../features/tickets/tickets.schemas";
import { validationError } from "../../lib/router";
import type { EditTicketFormSchema } from "./tickets.routes";

type Ticket = ReturnType<typeof toTicket>;
type EditForm = z.infer<typeof EditTicketFormSchema>;

/**
 * The body a careful API client would PATCH: only the fields the person changed. An unchanged
 * field is left out, so a ticket assigned to a since-disabled user can still be saved.
 */
export function patchOf(ticket: Ticket, form: EditForm) {
  const assignee = form.assignee_id === "" ? null : form.assignee_id;
  return {
    ...(form.subject !== ticket.subject ? { subject: form.subject } : {}),
    ...(form.status !== ticket.status ? { status: form.status } : {}),
    ...(form.priority !== ticket.priority ? { priority: form.priority } : {}),
    ...(assignee !== ticket.assignee_id ? { assignee_id: assignee } : {}),
  };
}

/** The API's rules for a ticket's tags (POST /v1/tickets `tags`). */
const TagNames = z.array(TagName).max(50);

/** The comma-separated tags field as names, or a 400 naming the field. */
export function tagNamesOf(text: string): string[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const parsed = TagNames.safeParse(names);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ ...issue, path: ["tags", ...issue.path] }));
    throw validationError(issues, "form");
  }
  return parsed.data;
}

/** Tags to add and to remove; names compare in any case, as tags do. */
export function tagChanges(current: string[], wanted: string[]) {
  const had = new Set(current.map(tagNameKey));
  const keep = new Set(wanted.map(tagNameKey));
  return {
    add: wanted.filter((name) => !had.has(tagNameKey(name))),
    remove: current.filter((name) => !keep.has(tagNameKey(name))),
  };
}
