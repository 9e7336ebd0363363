import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { getOwnAccount } from "../accounts/accounts.service";
import { toSmtpLog } from "./smtp-logs.dto";
import { listSmtpLogs } from "./smtp-logs.repo";
import { listSmtpLogsRoute, recordSmtpLogsRoute } from "./smtp-logs.routes";
import { recordSmtpLogs } from "./smtp-logs.service";

export const smtpLogsRouter = createRouter()
  .openapi(listSmtpLogsRoute, async (c) => {
    const db = c.var.ctx.db;
    const { id } = c.req.valid("param");
    const { limit, offset } = c.req.valid("query");
    await getOwnAccount(db, c.var.ctx.accountId, id);
    const { rows, total } = await listSmtpLogs(db, id, limit, offset);
    return c.json(standardList(rows.map(toSmtpLog), total, { limit, offset }), 200);
  })
  .openapi(recordSmtpLogsRoute, async (c) => {
    const recorded = await recordSmtpLogs(c.env, c.req.valid("json").logs);
    return c.json({ recorded }, 200);
  });
