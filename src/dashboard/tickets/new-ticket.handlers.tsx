import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { CreateTicketBodySchema } from "../../features/tickets/tickets.schemas";
import { createTicket } from "../../features/tickets/tickets.service";
import { AppError } from "../../lib/errors";
import { createRouter, validationError } from "../../lib/router";
import { renderPage } from "../page";
import { workspaceChoices } from "./lookups";
import { NewTicketPage, type Problem } from "./new-ticket.page";
import { createTicketPageRoute, type NewTicketFormSchema, newTicketPageRoute } from "./tickets.routes";

type NewTicketForm = z.infer<typeof NewTicketFormSchema>;

/** The body POST /v1/tickets would get from this form: empty optional fields are left out. */
function createBodyOf(form: NewTicketForm) {
  const name = form.customer_name?.trim();
  return {
    inbox_id: form.inbox_id,
    customer: { email: form.customer_email.trim(), ...(name ? { name } : {}) },
    subject: form.subject,
    ...(form.body_text?.trim() ? { message: { body_text: form.body_text } } : {}),
    ...(form.priority ? { priority: form.priority } : {}),
  };
}

async function showForm(
  c: Context<AppEnv>,
  values: Partial<NewTicketForm>,
  problems: Problem[] = [],
  status: 200 | 400 = 200,
) {
  const { inboxes } = await workspaceChoices(c.var.ctx.db, c.var.ctx.accountId);
  return renderPage(
    c,
    { title: "New ticket", nav: "Tickets", status },
    <NewTicketPage inboxes={inboxes} values={values} problems={problems} csrfToken={c.var.csrfToken} />,
  );
}

export const newTicketRouter = createRouter()
  .openapi(newTicketPageRoute, (c) => showForm(c, { priority: "normal" }))
  .openapi(createTicketPageRoute, async (c) => {
    const form = c.req.valid("form");
    const parsed = CreateTicketBodySchema.safeParse(createBodyOf(form));
    // Mistakes are shown on the form again, with what was typed, rather than on an error page.
    if (!parsed.success) {
      const details = validationError(parsed.error.issues).extras.details as Problem[];
      return showForm(c, form, details, 400);
    }
    try {
      const ticket = await createTicket(c.var.ctx, parsed.data);
      return c.redirect(`/dashboard/tickets/${encodeURIComponent(ticket.id)}?done=created`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      return showForm(c, form, [{ path: "", message: error.detail ?? error.error }], 400);
    }
  });
