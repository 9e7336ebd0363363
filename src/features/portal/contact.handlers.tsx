import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { idPattern } from "../../lib/ids";
import { createRouter } from "../../lib/router";
import { PublicMessagePage } from "../../ui/message-page";
import { RETRY_AFTER_SECONDS, TOO_MANY_POSTS } from "../../ui/public-error-page";
import { admitAttempt, clientIp } from "../sessions/rate-limit";
import { createTicket } from "../tickets/tickets.service";
import { ContactPage, ThankYouPage } from "./contact.pages";
import { acknowledgeContact } from "./contact-ack";
import { InboxNotFoundPage } from "./portal.components";
import { actingFor, fieldErrors, formValues, normalizeLineBreaks, postedData } from "./portal.forms";
import { CONTACT_POSTS } from "./portal.limits";
import { findPublicInbox } from "./portal.repo";
import { contactPageRoute, contactPostRoute } from "./portal.routes";

const INBOX_ID = new RegExp(idPattern("inb"));

/** The inbox behind the form's address; a malformed id cannot match a row, so no database trip. */
const inboxFor = (c: Context<AppEnv>, id: string) =>
  INBOX_ID.test(id) ? findPublicInbox(c.var.ctx.db, id) : Promise.resolve(null);

const isBlocked = (error: unknown) => error instanceof AppError && error.code === "customer_blocked";

/** Refused fields: the form again, as it was typed, with what to fix beside each field. */
async function refusedContact(
  c: Context<AppEnv>,
  posted: unknown,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }>,
) {
  const inbox = await inboxFor(c, c.req.param("inbox_id") ?? "");
  if (!inbox) return c.html(<InboxNotFoundPage />, 404);
  return c.html(<ContactPage inbox={inbox} values={formValues(posted)} errors={fieldErrors(issues)} />, 400);
}

/** Each inbox's public contact form (the router's middleware gives it the portal's headers and origin check). */
export const contactRouter = createRouter()
  .openapi(contactPageRoute, async (c) => {
    const inbox = await inboxFor(c, c.req.valid("param").inbox_id);
    if (!inbox) return c.html(<InboxNotFoundPage />, 404);
    return c.html(<ContactPage inbox={inbox} />, 200);
  })
  .openapi(
    contactPostRoute,
    async (c) => {
      const inbox = await inboxFor(c, c.req.valid("param").inbox_id);
      if (!inbox) return c.html(<InboxNotFoundPage />, 404);
      const form = c.req.valid("form");
      if (form.website) return c.html(<ThankYouPage />, 200);
      const ctx = c.var.ctx;
      const attempt = { ip: clientIp(c.req.header("CF-Connecting-IP")), email: form.email };
      if (!(await admitAttempt(ctx.db, CONTACT_POSTS, attempt, ctx.now))) {
        c.header("Retry-After", RETRY_AFTER_SECONDS);
        return c.html(<PublicMessagePage title="Slow down" text={TOO_MANY_POSTS} />, 429);
      }
      const acting = actingFor(ctx, inbox.accountId);
      try {
        const ticket = await createTicket(
          acting,
          {
            inbox_id: inbox.id,
            customer: { email: form.email, name: form.name },
            subject: form.subject,
            message: { body_text: normalizeLineBreaks(form.message) },
          },
          { announceMessage: true },
        );
        await acknowledgeContact(acting, ticket.id, ticket.client_id);
        return c.html(<ThankYouPage />, 200);
      } catch (error) {
        // A blocked address opens nothing and is told nothing: the page a honeypot gets.
        if (isBlocked(error)) return c.html(<ThankYouPage />, 200);
        throw error;
      }
    },
    (result, c) => (result.success ? undefined : refusedContact(c, postedData(result), result.error.issues)),
  );
