import { createLogsDb } from "../../db/logs/client";
import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { getOwnAccount } from "../accounts/accounts.service";
import { toRequestLog } from "./request-logs.dto";
import { listRequestLogs } from "./request-logs.repo";
import { listRequestLogsRoute } from "./request-logs.routes";

export const requestLogsRouter = createRouter().openapi(listRequestLogsRoute, async (c) => {
  const { db, env, accountId } = c.var.ctx;
  const { id } = c.req.valid("param");
  const { limit, offset, status, key_id } = c.req.valid("query");
  await getOwnAccount(db, accountId, id);
  const logs = createLogsDb(env.LOGS);
  const { rows, total } = await listRequestLogs(
    logs,
    { accountId: id, status, keyId: key_id },
    limit,
    offset,
  );
  return c.json(standardList(rows.map(toRequestLog), total, { limit, offset }), 200);
});
