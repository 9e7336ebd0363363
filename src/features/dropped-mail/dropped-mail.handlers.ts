import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { toDroppedMail } from "./dropped-mail.dto";
import { listDroppedMail } from "./dropped-mail.repo";
import { droppedMailRawRoute, listDroppedMailRoute } from "./dropped-mail.routes";
import { droppedMailRaw } from "./dropped-mail.service";

export const droppedMailRouter = createRouter()
  .openapi(listDroppedMailRoute, async (c) => {
    const { limit, offset, inbox_id, reason } = c.req.valid("query");
    const filter = { accountId: c.var.ctx.accountId, inboxId: inbox_id, reason };
    const { rows, total } = await listDroppedMail(c.var.ctx.db, filter, limit, offset);
    return c.json(standardList(rows.map(toDroppedMail), total, { limit, offset }), 200);
  })
  .openapi(droppedMailRawRoute, async (c) => {
    const raw = await droppedMailRaw(c.var.ctx, c.req.valid("param").id);
    return c.body(raw.body, 200, {
      "Content-Type": "message/rfc822",
      "Content-Length": String(raw.size),
      "X-Content-Type-Options": "nosniff",
    });
  });
