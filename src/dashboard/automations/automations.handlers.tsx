import { hasRole } from "../../auth/roles";
import { createRouter } from "../../lib/router";
import { renderPage, sessionOf } from "../page";
import { AutomationListPage } from "./automation-list.page";
import { automationOf, automationPage, enrollmentPage } from "./automation-reads";
import { renderAutomation, renderEnrollment, renderNew } from "./automation-render";
import {
  automationListRoute,
  automationRoute,
  enrollmentListRoute,
  enrollmentRoute,
  newAutomationRoute,
} from "./automations.routes";
import { emptyDraft } from "./editor-draft";
import { EnrollmentListPage } from "./enrollment-list.page";

/** The automation pages that only read; the forms' actions are in automation-actions.handlers. */
export const automationPagesRouter = createRouter()
  .openapi(automationListRoute, async (c) => {
    const { limit, offset, done } = c.req.valid("query");
    const { db, accountId } = c.var.ctx;
    const list = await automationPage(db, accountId, limit, offset);
    return renderPage(
      c,
      { title: "Automations", nav: "Automations" },
      <AutomationListPage
        {...list}
        limit={limit}
        offset={offset}
        canManage={hasRole(sessionOf(c), "admin")}
        done={done}
      />,
    );
  })
  // Before /dashboard/automations/{id}, which would otherwise read "new" as an id.
  .openapi(newAutomationRoute, async (c) => renderNew(c, emptyDraft()))
  .openapi(automationRoute, async (c) =>
    renderAutomation(c, c.req.valid("param").id, { done: c.req.valid("query").done }),
  )
  .openapi(enrollmentListRoute, async (c) => {
    const { id } = c.req.valid("param");
    const query = c.req.valid("query");
    const { db, accountId } = c.var.ctx;
    const automation = await automationOf(db, accountId, id);
    const list = await enrollmentPage(db, accountId, id, query);
    return renderPage(
      c,
      { title: `Enrolments: ${automation.name}`, nav: "Automations" },
      <EnrollmentListPage automation={automation} {...list} {...query} />,
    );
  })
  .openapi(enrollmentRoute, async (c) =>
    renderEnrollment(c, c.req.valid("param").id, { done: c.req.valid("query").done }),
  );
