import { countedPage } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import {
  cancelEnrollmentRoute,
  getEnrollmentRoute,
  listEnrollmentsRoute,
  triggerAutomationRoute,
} from "./enrollments.routes";
import { cancelEnrollment, getEnrollment, listEnrollments, triggerAutomation } from "./enrollments.service";

export const enrollmentsRouter = createRouter()
  .openapi(triggerAutomationRoute, async (c) => {
    const key = c.req.valid("header")["idempotency-key"];
    const answer = await triggerAutomation(c.var.ctx, c.req.valid("json"), key);
    return c.json(answer.body, answer.status);
  })
  .openapi(listEnrollmentsRoute, async (c) => {
    const { limit, offset, status } = c.req.valid("query");
    const { enrollments, total } = await listEnrollments(
      c.var.ctx,
      c.req.valid("param").id,
      status,
      limit,
      offset,
    );
    return c.json(countedPage(enrollments, total, { limit, offset }), 200);
  })
  .openapi(getEnrollmentRoute, async (c) =>
    c.json(await getEnrollment(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(cancelEnrollmentRoute, async (c) =>
    c.json(await cancelEnrollment(c.var.ctx, c.req.valid("param").id), 200),
  );
