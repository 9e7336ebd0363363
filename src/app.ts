// The app also runs without src/index.ts (tests build it): it registers the outcome listeners itself.
import "./jobs/outcome-listeners";
import { authenticate } from "./auth/authenticate";
import { dashboardRouter } from "./dashboard/dashboard.router";
import { accountsRouter } from "./features/accounts/accounts.handlers";
import { automationsRouter } from "./features/automations/automations.handlers";
import { enrollmentsRouter } from "./features/automations/enrollments.handlers";
import { campaignsRouter } from "./features/campaigns/campaigns.handlers";
import { changelogRouter } from "./features/changelog/changelog.handlers";
import { connectionsRouter } from "./features/connections/connections.handlers";
import { contactGroupsRouter } from "./features/contact-groups/contact-groups.handlers";
import { customersRouter } from "./features/customers/customers.handlers";
import { devMailboxRouter } from "./features/dev-mailbox/dev-mailbox.handlers";
import { devRoundTripsRouter } from "./features/dev-round-trips/dev-round-trips.handlers";
import { droppedMailRouter } from "./features/dropped-mail/dropped-mail.handlers";
import { emailArchivesRouter } from "./features/email-archives/archives.handlers";
import { emailWebhooksRouter } from "./features/email-webhooks/email-webhooks.handlers";
import { emailsRouter } from "./features/emails/emails.handlers";
import { rawEmailsRouter } from "./features/emails/emails.raw.handlers";
import { eventsRouter } from "./features/event-stream/event-stream.handlers";
import { inboxesRouter } from "./features/inboxes/inboxes.handlers";
import { invitationPageRouter } from "./features/invitations/invitation-page.handlers";
import { invitationsRouter } from "./features/invitations/invitations.handlers";
import { keysRouter } from "./features/keys/keys.handlers";
import { mailReportsRouter } from "./features/mail-reports/mail-reports.handlers";
import { membersRouter } from "./features/members/members.handlers";
import { messagesRouter } from "./features/messages/messages.handlers";
import { portalRouter } from "./features/portal/portal.handlers";
import { emailReportRouter } from "./features/reports/email-report.handlers";
import { supportReportRouter } from "./features/reports/support-report.handlers";
import { recordRequest } from "./features/request-logs/record-request";
import { requestLogsRouter } from "./features/request-logs/request-logs.handlers";
import { savedRepliesRouter } from "./features/saved-replies/saved-replies.handlers";
import { loginRouter } from "./features/sessions/login.handlers";
import { slaPoliciesRouter } from "./features/sla/sla-policies.handlers";
import { smtpLogsRouter } from "./features/smtp-logs/smtp-logs.handlers";
import { suppressionsRouter } from "./features/suppressions/suppressions.handlers";
import { surveysRouter } from "./features/surveys/surveys.handlers";
import { systemRouter } from "./features/system/system.handlers";
import { openApiRoute, siteOpenApiRoute } from "./features/system/system.routes";
import { tagsRouter } from "./features/tags/tags.handlers";
import { templatesRouter } from "./features/templates/templates.handlers";
import { ticketsRouter } from "./features/tickets/tickets.handlers";
import { trackingRouter } from "./features/tracking/tracking.handlers";
import { unsubscribedListRouter, unsubscribeRouter } from "./features/unsubscribe/unsubscribe.handlers";
import { usersRouter } from "./features/users/users.handlers";
import { viewsRouter } from "./features/views/views.handlers";
import { workspaceMovesRouter } from "./features/workspace-moves/move.handlers";
import { requestBodyLimit } from "./lib/body-limit";
import { emptyBodyIsNoBody } from "./lib/empty-body";
import { notFoundOrMethodNotAllowed } from "./lib/method-not-allowed";
import { withPlainPathParams } from "./lib/openapi";
import { requestContext } from "./lib/request-context-middleware";
import { requestId } from "./lib/request-id";
import { createRouter, mount } from "./lib/router";
import { StaticRouteCache } from "./lib/static-route-cache";
import { splitDocument } from "./openapi/documents";
import { handleError } from "./ui/error-handler";

/** Routes under /v1 that answer without an API key. */
const PUBLIC_V1_PATHS = new Set(["/v1/openapi.json"]);

const API_DESCRIPTION = `Support ticketing and transactional email in one API.

Authenticate every /v1 call with \`Authorization: Bearer sk_...\`. Each operation names the key permission it needs in \`x-permission\` (read, write or admin).
Errors are JSON: \`error\` (read first), \`code\`, \`request_id\`, and \`message\` or context fields where useful; validation failures add \`details\`.
Every response carries \`X-Request-Id\`; authenticated responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (seconds until the oldest counted request leaves the rolling 60-second window). A 429 carries \`Retry-After\`: waiting that many seconds always admits the next request. The limit is exact across the Worker's isolates: an isolate serving concurrent requests of one key borrows slots from the key's counter (up to 64, spent within 0.9 s, counted as used until a minute after the latest moment they could be spent, unspent ones handed back), so \`X-RateLimit-Remaining\` is exact for requests one at a time and within the borrowed slots of other isolates otherwise. A revoked key is refused within a second.
Every response that reached the database carries \`X-Service-Bookmark\`. Without that header a request reads the primary, always current; a GET or HEAD that sends back an earlier response's value reads from a replica at least that fresh (your own writes included), and \`X-Service-Bookmark: any\` accepts any replica. Requests that change something always start on the primary. A bookmark names the database it came from (\`<database>:<D1 bookmark>\`, e.g. \`DB_2:0000002f-...\`; workspaces live in several databases): one naming another database than the request's workspace (it moved, or the bookmark came from another workspace's answer) reads the primary, and one without a name, as answered before bookmarks were named, counts as the first database's (\`DB\`). Send it back unchanged; a malformed value is a 400 \`invalid_bookmark\`.
Timestamps are ISO 8601 UTC with milliseconds; ids are \`<prefix>_<ULID>\` and sort by creation time.
Request bodies are capped per route: 40 MB where attachments or raw messages travel (POST /v1/emails, /v1/emails/batch, /v1/emails/raw, /v1/tickets/{id}/messages, /v1/tickets/compose), 4 MB everywhere else; a larger body answers 413 \`request_too_large\` with \`limit\` in bytes. Stored fields are bounded so that every record fits a database row (2 MB): sizes given "as JSON" count the UTF-8 bytes of the value's JSON encoding, where a quote, backslash or line break counts 2.`;

export function createApp() {
  const app = createRouter(new StaticRouteCache());

  app.use("*", requestId);
  app.use("*", emptyBodyIsNoBody);
  app.use("/v1/*", recordRequest);
  app.use("/v1/*", (c, next) => (PUBLIC_V1_PATHS.has(c.req.path) ? next() : authenticate(c, next)));
  app.use("*", requestContext);
  // After authentication, so that a refused body is answered to a known key and logged for it.
  app.use("*", requestBodyLimit);

  mount(app, "/", systemRouter);
  mount(app, "/", workspaceMovesRouter);
  mount(app, "/", trackingRouter);
  mount(app, "/", keysRouter);
  mount(app, "/", accountsRouter);
  mount(app, "/", usersRouter);
  mount(app, "/", membersRouter);
  mount(app, "/", invitationsRouter);
  mount(app, "/", requestLogsRouter);
  mount(app, "/", smtpLogsRouter);
  mount(app, "/", eventsRouter);
  mount(app, "/", connectionsRouter);
  // Before emails: /v1/emails/suppressions must not be read as an email id.
  mount(app, "/", suppressionsRouter);
  // Before emails: /v1/emails/raw/credentials must not be read as an email id and its content.
  mount(app, "/", rawEmailsRouter);
  // Before emails: /v1/emails/archives must not be read as an email id.
  mount(app, "/", emailArchivesRouter);
  mount(app, "/", emailsRouter);
  mount(app, "/", templatesRouter);
  mount(app, "/", mailReportsRouter);
  mount(app, "/", emailWebhooksRouter);
  mount(app, "/", emailReportRouter);
  mount(app, "/", inboxesRouter);
  mount(app, "/", droppedMailRouter);
  mount(app, "/", customersRouter);
  mount(app, "/", contactGroupsRouter);
  // Before campaigns: /v1/campaigns/unsubscribed must not be read as a campaign id.
  mount(app, "/", unsubscribedListRouter);
  mount(app, "/", campaignsRouter);
  mount(app, "/", automationsRouter);
  mount(app, "/", enrollmentsRouter);
  mount(app, "/", tagsRouter);
  mount(app, "/", viewsRouter);
  mount(app, "/", savedRepliesRouter);
  mount(app, "/", slaPoliciesRouter);
  mount(app, "/", changelogRouter);
  mount(app, "/", surveysRouter);
  mount(app, "/", supportReportRouter);
  mount(app, "/", portalRouter);
  mount(app, "/", unsubscribeRouter);
  mount(app, "/", loginRouter);
  mount(app, "/", invitationPageRouter);
  mount(app, "/", devMailboxRouter);
  mount(app, "/", devRoundTripsRouter);
  mount(app, "/", dashboardRouter);
  // Before tickets: /v1/tickets/compose must not be read as a ticket id.
  mount(app, "/", messagesRouter);
  mount(app, "/", ticketsRouter);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "An API key: `sk_` followed by 49 letters and digits, the last 6 a CRC-32 checksum of the rest (keys made before checksums have 43 and none). A token whose checksum does not match is refused with 401 without a lookup.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: "__Host-session",
    description:
      "A dashboard session from a sign-in link (`session` on plain-http loopback in development). Dashboard routes only; /v1 ignores it. Their form posts also need the page's CSRF token and this origin.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "opsToken", {
    type: "http",
    scheme: "bearer",
    description: "The deployment's OPS_TOKEN secret; operator routes only.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "relayToken", {
    type: "http",
    scheme: "bearer",
    description: "The deployment's RELAY_TOKEN secret, shared with the SMTP relay; relay routes only.",
  });

  // Built on the first request for either, from that request's origin (the deployment's).
  let documents: ReturnType<typeof splitDocument> | undefined;
  const documentsFor = (url: string) => {
    documents ??= splitDocument(
      withPlainPathParams(
        app.getOpenAPI31Document({
          openapi: "3.1.0",
          info: { title: "Support and Email Service API", version: "1.0.0", description: API_DESCRIPTION },
          servers: [{ url: new URL(url).origin, description: "This deployment" }],
        }),
      ),
    );
    return documents;
  };
  app.openapi(openApiRoute, (c) => c.json(documentsFor(c.req.url).api as Record<string, unknown>, 200));
  app.openapi(siteOpenApiRoute, (c) => c.json(documentsFor(c.req.url).site as Record<string, unknown>, 200));

  app.notFound(notFoundOrMethodNotAllowed(app.routes));
  app.onError(handleError);
  return app;
}

export type App = ReturnType<typeof createApp>;
