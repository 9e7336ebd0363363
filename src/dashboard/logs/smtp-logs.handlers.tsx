import { toSmtpLog } from "../../features/smtp-logs/smtp-logs.dto";
import { findSmtpLog, listSmtpLogs } from "../../features/smtp-logs/smtp-logs.repo";
import { notFound } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { renderPage } from "../page";
import { SmtpLogPage, SmtpLogsPage } from "./smtp-logs.page";
import { smtpLogPageRoute, smtpLogsPageRoute } from "./smtp-logs.routes";

export const smtpLogsRouter = createRouter()
  .openapi(smtpLogsPageRoute, async (c) => {
    const { db, accountId } = c.var.ctx;
    const filters = c.req.valid("query");
    const { rows, total } = await listSmtpLogs(db, accountId, filters.limit, filters.offset, {
      outcome: filters.outcome,
    });
    return renderPage(
      c,
      { title: "SMTP logs", nav: "SMTP logs" },
      <SmtpLogsPage logs={rows.map(toSmtpLog)} total={total} filters={filters} />,
    );
  })
  .openapi(smtpLogPageRoute, async (c) => {
    const { id } = c.req.valid("param");
    const row = await findSmtpLog(c.var.ctx.db, c.var.ctx.accountId, id);
    if (!row) throw notFound(`SMTP log ${id}`);
    return renderPage(c, { title: "SMTP log", nav: "SMTP logs" }, <SmtpLogPage log={toSmtpLog(row)} />);
  });
