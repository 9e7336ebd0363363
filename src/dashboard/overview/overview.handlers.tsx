import { hasRole } from "../../auth/roles";
import { findAccount } from "../../features/accounts/accounts.repo";
import { UpdateAccountBodySchema } from "../../features/accounts/accounts.schemas";
import { accountUsage, patchAccount } from "../../features/accounts/accounts.service";
import { eventQueries } from "../../features/event-stream/event-stream.repo";
import { emailReport } from "../../features/reports/email-report.service";
import { supportReport } from "../../features/reports/support-report.service";
import { emailRetentionDays } from "../../lib/email-retention";
import { createRouter, validationError } from "../../lib/router";
import { periodBounds, periodDays } from "../../ui/charts/period-switch";
import { Notice } from "../../ui/components";
import { renderPage, sessionOf } from "../page";
import { OverviewPage } from "./overview.page";
import { overviewRoute } from "./overview.routes";
import { SettingsForm } from "./settings.form";
import { saveSettingsRoute } from "./settings.routes";

export const overviewRouter = createRouter()
  .openapi(overviewRoute, async (c) => {
    const { ctx } = c.var;
    const { db, accountId, now } = ctx;
    const admin = hasRole(sessionOf(c), "admin");
    const days = periodDays(c.req.valid("query").days);
    // The report services the API answers with, so the charts draw exactly what the API returns:
    // their rollups cost the days asked, never the mail or tickets.
    const period = { ...periodBounds(days, now), interval: "day" as const };
    const [usage, events, account, email, support] = await Promise.all([
      accountUsage(db, accountId, accountId, now),
      eventQueries(db, { accountId }, 10, 0).page,
      admin ? findAccount(db, accountId) : null,
      emailReport(ctx, period, now),
      supportReport(ctx, period),
    ]);
    return renderPage(
      c,
      { title: "Overview", nav: "Overview" },
      <>
        <Notice text={c.req.query("done") === "settings" ? "Settings saved." : undefined} />
        <OverviewPage usage={usage} events={events} charts={{ days, email, support }} />
        {account ? <SettingsForm account={account} csrfToken={c.var.csrfToken} /> : null}
      </>,
    );
  })
  .openapi(saveSettingsRoute, async (c) => {
    const form = c.req.valid("form");
    const { db, accountId } = c.var.ctx;
    // The retention the form showed is left alone (settingsRoute's description says why).
    const account = await findAccount(db, accountId);
    const shownDays = account ? emailRetentionDays(account.plan, account.emailRetentionDays) : null;
    const emailRetention =
      form.email_retention_days === String(shownDays) ? undefined : `${form.email_retention_days}d`;
    // The API's own body schema, so the dashboard accepts exactly what PATCH accepts.
    const parsed = UpdateAccountBodySchema.safeParse({
      name: form.name,
      ticket_prefix: form.ticket_prefix,
      request_log_retention: form.request_log_retention,
      email_retention: emailRetention,
      default_track_opens: form.default_track_opens === "on",
      default_track_clicks: form.default_track_clicks === "on",
    });
    if (!parsed.success) throw validationError(parsed.error.issues, "form");
    await patchAccount(db, accountId, accountId, parsed.data);
    return c.redirect("/dashboard?done=settings", 303);
  });
