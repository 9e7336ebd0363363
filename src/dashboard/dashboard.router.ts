import { createRouter, mount } from "../lib/router";
import { automationActionsRouter } from "./automations/automation-actions.handlers";
import { automationPagesRouter } from "./automations/automations.handlers";
import { campaignsPagesRouter } from "./campaigns/campaigns.handlers";
import { changelogPagesRouter } from "./changelog/changelog.handlers";
import { contactsRouter } from "./contacts/contacts.handlers";
import { deliverabilityRouter } from "./deliverability/deliverability.handlers";
import { eventsPagesRouter } from "./events/events.handlers";
import { inboxesRouter } from "./inboxes/inboxes.handlers";
import { keysPagesRouter } from "./keys/keys.handlers";
import { logsRouter } from "./logs/logs.router";
import { overviewRouter } from "./overview/overview.handlers";
import { dashboardRoute } from "./routes";
import { dashboardSecurity } from "./security";
import { surveysPagesRouter } from "./surveys/surveys.handlers";
import { teamRouter } from "./team/team.handlers";
import { templatesPagesRouter } from "./templates/templates.handlers";
import { ticketsPagesRouter } from "./tickets/tickets.handlers";
import { webhooksPagesRouter } from "./webhooks/webhooks.handlers";

const rootRoute = {
  ...dashboardRoute({
    method: "get",
    path: "/",
    summary: "Home",
    description: "Redirects (302) to /dashboard, which redirects to /login without a session.",
  }),
  security: [],
  responses: { 302: { description: "To /dashboard." } },
};

/**
 * Every dashboard page. Each area's router holds its own routes; they all sit behind the same
 * headers, origin check, session, workspace and CSRF token (`dashboardSecurity`).
 */
export const dashboardRouter = createRouter();
dashboardRouter.use("/dashboard", ...dashboardSecurity);
dashboardRouter.use("/dashboard/*", ...dashboardSecurity);
dashboardRouter.openapi(rootRoute, (c) => c.redirect("/dashboard", 302));
mount(dashboardRouter, "/", overviewRouter);
mount(dashboardRouter, "/", ticketsPagesRouter);
mount(dashboardRouter, "/", inboxesRouter);
mount(dashboardRouter, "/", contactsRouter);
mount(dashboardRouter, "/", keysPagesRouter);
mount(dashboardRouter, "/", logsRouter);
mount(dashboardRouter, "/", eventsPagesRouter);
mount(dashboardRouter, "/", webhooksPagesRouter);
mount(dashboardRouter, "/", deliverabilityRouter);
mount(dashboardRouter, "/", teamRouter);
mount(dashboardRouter, "/", campaignsPagesRouter);
mount(dashboardRouter, "/", templatesPagesRouter);
mount(dashboardRouter, "/", automationPagesRouter);
mount(dashboardRouter, "/", automationActionsRouter);
mount(dashboardRouter, "/", changelogPagesRouter);
mount(dashboardRouter, "/", surveysPagesRouter);
