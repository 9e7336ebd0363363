import { createRouter } from "../../lib/router";
import {
  cancelEmailRoute,
  emailContentRoute,
  getEmailRoute,
  listEmailsRoute,
  listScheduledRoute,
  rescheduleEmailRoute,
  sendBatchRoute,
  sendEmailRoute,
} from "./emails.routes";
import { sendBatch, sendEmail } from "./emails.send";
import {
  cancel,
  emailContent,
  getEmail,
  listAccountEmails,
  listScheduled,
  reschedule,
} from "./emails.service";

const tagFilter = (tag: string | undefined) => {
  if (!tag) return undefined;
  const [name = "", ...rest] = tag.split(":");
  return { name, value: rest.length > 0 ? rest.join(":") : undefined };
};

export const emailsRouter = createRouter()
  .openapi(sendEmailRoute, async (c) => {
    const answer = await sendEmail(c.var.ctx, c.req.valid("json"), c.req.valid("header")["idempotency-key"]);
    return c.json(answer.body as never, answer.status);
  })
  .openapi(sendBatchRoute, async (c) => {
    const answer = await sendBatch(c.var.ctx, c.req.valid("json"), c.req.valid("header")["idempotency-key"]);
    return c.json(answer.body as never, answer.status);
  })
  .openapi(listEmailsRoute, async (c) => {
    const { limit, offset, status, to, tag } = c.req.valid("query");
    return c.json(
      await listAccountEmails(c.var.ctx, { status, to, tag: tagFilter(tag) }, { limit, offset }),
      200,
    );
  })
  .openapi(listScheduledRoute, async (c) => c.json(await listScheduled(c.var.ctx, c.req.valid("query")), 200))
  .openapi(getEmailRoute, async (c) => c.json(await getEmail(c.var.ctx, c.req.valid("param").id), 200))
  .openapi(emailContentRoute, async (c) => {
    const body = await emailContent(c.var.ctx, c.req.valid("param").id);
    return c.body(body, 200, { "Content-Type": "message/rfc822" });
  })
  .openapi(rescheduleEmailRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await reschedule(c.var.ctx, id, c.req.valid("json").scheduled_at), 200);
  })
  .openapi(cancelEmailRoute, async (c) => c.json(await cancel(c.var.ctx, c.req.valid("param").id), 200));
