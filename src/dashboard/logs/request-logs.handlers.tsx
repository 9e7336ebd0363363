import { createLogsDb } from "../../db/logs/client";
import { listKeys } from "../../features/keys/keys.repo";
import { toRequestLog } from "../../features/request-logs/request-logs.dto";
import { findRequestLog, listRequestLogs } from "../../features/request-logs/request-logs.repo";
import { notFound } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { renderPage } from "../page";
import { RequestLogPage, RequestLogsPage } from "./request-logs.page";
import { requestLogPageRoute, requestLogsPageRoute } from "./request-logs.routes";

export const requestLogsRouter = createRouter()
  .openapi(requestLogsPageRoute, async (c) => {
    const { db, env, accountId } = c.var.ctx;
    const filters = c.req.valid("query");
    const [{ rows, total }, keys] = await Promise.all([
      listRequestLogs(
        createLogsDb(env.LOGS),
        { accountId, status: filters.status, keyId: filters.key_id, pathContains: filters.path },
        filters.limit,
        filters.offset,
      ),
      listKeys(db, accountId),
    ]);
    const keyOptions = keys.map((key) => ({
      value: key.id,
      label: `${key.keyPrefix}… ${key.name}${key.isActive ? "" : " (revoked)"}`,
    }));
    return renderPage(
      c,
      { title: "Request logs", nav: "Request logs" },
      <RequestLogsPage logs={rows.map(toRequestLog)} total={total} filters={filters} keys={keyOptions} />,
    );
  })
  .openapi(requestLogPageRoute, async (c) => {
    const { id } = c.req.valid("param");
    const row = await findRequestLog(createLogsDb(c.var.ctx.env.LOGS), c.var.ctx.accountId, id);
    if (!row) throw notFound(`Request ${id}`);
    const log = toRequestLog(row);
    return renderPage(c, { title: `Request ${log.id}`, nav: "Request logs" }, <RequestLogPage log={log} />);
  });
