import type { Permission } from "./auth/permissions";
import type { RequestContext } from "./lib/request-context";

/** What a request knows about its caller once the key guard has admitted it. */
export interface Principal {
  keyId: string;
  keyPrefix: string;
  accountId: string;
  /** The D1 binding of the workspace's shard, as the directory named it (src/db/directory/). */
  shard: string;
  permission: Permission;
}

/** Who a dashboard request comes from. Never set on /v1: API keys alone authenticate the API. */
export interface Session {
  accountId: string;
  userId: string;
  role: "owner" | "admin" | "agent";
  email: string;
  /** The user's name, if they gave one (what presence shows others; else the email). */
  name: string | null;
  workspace: string;
  /** Whether the workspace may act (lib/workspace-gate.ts): the dashboard answers 403 when not. */
  workspaceActive: boolean;
  /** SHA-256 of the session token: what the dashboard's per-session CSRF token is derived from. */
  tokenHash: string;
}

/** Hono's environment: Worker bindings plus per-request variables. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    principal: Principal | undefined;
    /** The machine code of the error answered, for the request log. */
    errorCode: string | undefined;
    /** Built by the `requestContext` middleware: what services are called with. */
    ctx: RequestContext;
    /** The dashboard session, on page routes that resolve one (`withSession`); never on /v1. */
    session: Session | undefined;
    /** The session's CSRF token, for the dashboard's forms (set under /dashboard only). */
    csrfToken: string;
    /**
     * Set by a dashboard route answering HTML it did not write (a campaign's preview): its page
     * gets this Content-Security-Policy instead of the dashboard's.
     */
    documentPolicy: string | undefined;
  };
}

export type Environment = "development" | "test" | "production";

/** `ENVIRONMENT` parsed; anything unrecognised is treated as production, the strictest. */
export function environmentOf(env: Pick<Env, "ENVIRONMENT">): Environment {
  const value = env.ENVIRONMENT;
  return value === "development" || value === "test" ? value : "production";
}
