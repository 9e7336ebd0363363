import type { Context } from "hono";
import { directoryDb } from "../../db/directory/client";
import { workspaceOfInbox } from "../../db/directory/inbox-addresses";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { idPattern } from "../../lib/ids";
import type { RequestContext } from "../../lib/request-context";
import { enterWorkspace } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { PublicMessagePage } from "../../ui/message-page";
import { RETRY_AFTER_SECONDS, TOO_MANY_POSTS } from "../../ui/public-error-page";
import { admitAttempt, clientIp } from "../sessions/rate-limit";
import { createTicket } from "../tickets/tickets.service";
import { ContactPage, ThankYouPage } from "./contact.pages";
import { acknowledgeContact } from "./contact-ack";
import { InboxNotFoundPage } from "./portal.components";
import { fieldErrors, formValues, normalizeLineBreaks, postedData } from "./portal.forms";
import { CONTACT_POSTS } from "./portal.limits";
import { findPublicInbox, type PublicInbox } from "./portal.repo";
import { contactPageRoute, contactPostRoute } from "./portal.routes";

const INBOX_ID = new RegExp(idPattern("inb"));

/**
 * The inbox behind the form's address, with the request entered into its workspace: the directory
 * names the workspace (by the inbox's address claim), then the inbox is read in that workspace's
 * shard. Null for an inbox the directory does not name; a malformed id costs no round trip.
 */
async function inboxFor(
  c: Context<AppEnv>,
  id: string,
): Promise<{ inbox: PublicInbox; ctx: RequestContext } | null> {
  if (!INBOX_ID.test(id)) return null;
  const accountId = await workspaceOfInbox(directoryDb(c.env), id);
  const ctx = accountId ? await enterWorkspace(c, accountId) : null;
  const inbox = ctx && (await findPublicInbox(ctx.db, ctx.accountId, id));
  return inbox ? { inbox, ctx } : null;
}

const isBlocked = (error: unknown) => error instanceof AppError && error.code === "customer_blocked";

/** Refused fields: the form again, as it was typed, with what to fix beside each field. */
async function refusedContact(
  c: Context<AppEnv>,
  posted: unknown,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }>,
) {
  const found = await inboxFor(c, c.req.param("inbox_id") ?? "");
  if (!found) return c.html(<InboxNotFoundPage />, 404);
  return c.html(
    <ContactPage inbox={found.inbox} values={formValues(posted)} errors={fieldErrors(issues)} />,
    400,
  );
}

/** Each inbox's public contact form (the router's middleware gives it the portal's headers and origin check). */
export const contactRouter = createRouter()
  .openapi(contactPageRoute, async (c) => {
    const found = await inboxFor(c, c.req.valid("param").inbox_id);
    if (!found) return c.html(<InboxNotFoundPage />, 404);
    return c.html(<ContactPage inbox={found.inbox} />, 200);
  })
  .openapi(
    contactPostRoute,
    async (c) => {
      const found = await inboxFor(c, c.req.valid("param").inbox_id);
      if (!found) return c.html(<InboxNotFoundPage />, 404);
      const { inbox, ctx } = found;
      const form = c.req.valid("form");
      if (form.website) return c.html(<ThankYouPage />, 200);
      const attempt = { ip: clientIp(c.req.header("CF-Connecting-IP")), email: form.email };
      if (!(await admitAttempt(ctx.db, CONTACT_POSTS, attempt, ctx.now))) {
        c.header("Retry-After", RETRY_AFTER_SECONDS);
        return c.html(<PublicMessagePage title="Slow down" text={TOO_MANY_POSTS} />, 429);
      }
      try {
        const ticket = await createTicket(
          ctx,
          {
            inbox_id: inbox.id,
            customer: { email: form.email, name: form.name },
            subject: form.subject,
            message: { body_text: normalizeLineBreaks(form.message) },
          },
          { announceMessage: true },
        );
        await acknowledgeContact(ctx, ticket.id, ticket.client_id);
        return c.html(<ThankYouPage />, 200);
      } catch (error) {
        // A blocked address opens nothing and is told nothing: the page a honeypot gets.
        if (isBlocked(error)) return c.html(<ThankYouPage />, 200);
        throw error;
      }
    },
    (result, c) => (result.success ? undefined : refusedContact(c, postedData(result), result.error.issues)),
  );
