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
    const { db, accountId } = c.var.ctx;
    const filters = c.req.valid("query");
    const [{ rows, total }, keys] = await Promise.all([
      listRequestLogs(
        db,
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
    const row = await findRequestLog(c.var.ctx.db, c.var.ctx.accountId, id);
    if (!row) throw notFound(`Request ${id}`);
    return renderPage(
      c,
      { title: `Request ${row.id}`, nav: "Request logs" },
      <RequestLogPage log={toRequestLog(row)} />,
    );
  });
