import { hasRole } from "../../auth/roles";
import { findAccount } from "../../features/accounts/accounts.repo";
import { UpdateAccountBodySchema } from "../../features/accounts/accounts.schemas";
import { accountUsage, patchAccount } from "../../features/accounts/accounts.service";
import { eventQueries } from "../../features/event-stream/event-stream.repo";
import { createRouter, validationError } from "../../lib/router";
import { Notice } from "../../ui/components";
import { renderPage, sessionOf } from "../page";
import { OverviewPage } from "./overview.page";
import { overviewRoute } from "./overview.routes";
import { SettingsForm } from "./settings.form";
import { saveSettingsRoute } from "./settings.routes";

export const overviewRouter = createRouter()
  .openapi(overviewRoute, async (c) => {
    const { db, accountId, now } = c.var.ctx;
    const admin = hasRole(sessionOf(c), "admin");
    const [usage, events, account] = await Promise.all([
      accountUsage(db, accountId, accountId, now),
      eventQueries(db, { accountId }, 10, 0).page,
      admin ? findAccount(db, accountId) : null,
    ]);
    return renderPage(
      c,
      { title: "Overview", nav: "Overview" },
      <>
        <Notice text={c.req.query("done") === "settings" ? "Settings saved." : undefined} />
        <OverviewPage usage={usage} events={events} />
        {account ? <SettingsForm account={account} csrfToken={c.var.csrfToken} /> : null}
      </>,
    );
  })
  .openapi(saveSettingsRoute, async (c) => {
    const form = c.req.valid("form");
    // The API's own body schema, so the dashboard accepts exactly what PATCH accepts.
    const parsed = UpdateAccountBodySchema.safeParse({
      name: form.name,
      ticket_prefix: form.ticket_prefix,
      request_log_retention: form.request_log_retention,
      default_track_opens: form.default_track_opens === "on",
      default_track_clicks: form.default_track_clicks === "on",
    });
    if (!parsed.success) throw validationError(parsed.error.issues, "form");
    const { db, accountId } = c.var.ctx;
    await patchAccount(db, accountId, accountId, parsed.data);
    return c.redirect("/dashboard?done=settings", 303);
  });
