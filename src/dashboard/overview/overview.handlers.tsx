import { accountUsage } from "../../features/accounts/accounts.service";
import { eventQueries } from "../../features/event-stream/event-stream.repo";
import { createRouter } from "../../lib/router";
import { renderPage } from "../page";
import { OverviewPage } from "./overview.page";
import { overviewRoute } from "./overview.routes";

export const overviewRouter = createRouter().openapi(overviewRoute, async (c) => {
  const { db, accountId, now } = c.var.ctx;
  const [usage, events] = await Promise.all([
    accountUsage(db, accountId, accountId, now),
    eventQueries(db, { accountId }, 10, 0).page,
  ]);
  return renderPage(
    c,
    { title: "Overview", nav: "Overview" },
    <OverviewPage usage={usage} events={events} />,
  );
});
