import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { AppError } from "./errors";

/**
 * The one place that decides whether a workspace may act. A workspace is `active` or `suspended`
 * (accounts.status, set by operators; no API changes it). A suspended workspace:
 * - is refused every call: API keys (auth/key-guard.ts) and dashboard sessions (sessions/session.ts)
 *   get 403 `account_suspended`; POST /login sends its people no link;
 * - sends nothing: an email already queued (transactional, ticket reply, survey, automation, sign-in
 *   link) ends `failed` with `account_suspended: ...` at its claim, so nothing leaves later unseen;
 *   a scheduled email stays `scheduled` and a sending or scheduled campaign holds where it is (the
 *   minute sweeps skip them), both going on by themselves once the workspace is reinstated; an
 *   automation run ends `failed` at its next step with the reason in its note; webhooks of both
 *   kinds hold, unclaimed and uncounted, and their sweeps send them once it is reinstated
 *   (webhooks/dispatch.ts, webhooks/email-delivery.ts, webhooks/fair-share.ts);
 * - still receives: inbound mail is stored as for any workspace, so nothing a customer sends is lost.
 * Every path reads the status with a read it makes anyway (a join, a batch), never in a trip of its own.
 */
export type WorkspaceStatus = "active" | "suspended";

export const SUSPENDED_CODE = "account_suspended";
const SUSPENDED_DETAIL = "This workspace is suspended; contact support.";

/** Whether a workspace of this status may act: call, sign in, send. */
export const mayAct = (status: WorkspaceStatus | string | null | undefined) => status === "active";

/** The answer to anything a suspended workspace asks for. */
export const workspaceSuspended = () =>
  new AppError(403, SUSPENDED_CODE, "Account suspended", SUSPENDED_DETAIL);

/** The reason recorded on what a suspension ended (an email's last_response, an enrolment's note). */
export const SUSPENDED_REASON = `${SUSPENDED_CODE}: ${SUSPENDED_DETAIL}`;

/**
 * SQL: the workspace named by `accountId` (a column or a value) may act; for sweeps and claims.
 * The subquery's table has its own name, so a caller's `accounts.id` still means the caller's row.
 */
export const mayActSql = (accountId: SQLWrapper | string): SQL =>
  sql`EXISTS (SELECT 1 FROM accounts AS gate WHERE gate.id = ${accountId} AND gate.status = 'active')`;
