import type { Defer, RequestContext } from "../../lib/request-context";

/** What the automation service and its checks are called with: a request's context, or a job's. */
export type AutomationContext = Pick<RequestContext, "db" | "env" | "accountId" | "now"> & {
  /** Where work after the response goes (the release of held enrolments); awaited without it. */
  defer?: Defer;
};
