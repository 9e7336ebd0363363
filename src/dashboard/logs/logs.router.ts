import { createRouter, mount } from "../../lib/router";
import { requestLogsRouter } from "./request-logs.handlers";
import { smtpLogsRouter } from "./smtp-logs.handlers";

/** /dashboard/request-logs and /dashboard/smtp-logs: read by everyone signed in, agents too. */
export const logsRouter = createRouter();
mount(logsRouter, "/", requestLogsRouter);
mount(logsRouter, "/", smtpLogsRouter);
