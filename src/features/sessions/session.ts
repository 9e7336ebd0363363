import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Db, Statement } from "../../db/client";
import type { AppEnv, Session } from "../../env";
import { constantTimeEqual, randomBase64Url, sha256Hex } from "../../lib/crypto";
import { mayAct } from "../../lib/workspace-gate";
import { clearSessionCookie, readSessionToken, SESSION_TTL_MS, setSessionCookie } from "./cookie";
import { deleteSession, findActiveSession, insertSessionStatement, touchLastLogin } from "./sessions.repo";

/** Link and session tokens are 32 random bytes in base64url; anything else needs no database trip. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new session for `userId`: its token for the cookie, and the statements that store its hash. */
export async function newSession(userId: string, now: number) {
  const token = randomBase64Url(32);
  const expiresAt = now + SESSION_TTL_MS;
  const statements: Statement[] = [
    insertSessionStatement(await sha256Hex(token), userId, expiresAt, now),
    touchLastLogin(userId, now),
  ];
  return { token, expiresAt, statements };
}

/**
 * Resolves the session cookie to `{ accountId, userId, role }` on `c.var.session`, re-reading the
 * user on every request: a disabled or removed user's session ends at once.
 */
export const withSession = createMiddleware<AppEnv>(async (c, next) => {
  c.set("session", await resolveSession(c.var.ctx.db, readSessionToken(c), c.var.ctx.now));
  await next();
});

export async function resolveSession(
  db: Db,
  token: string | undefined,
  now: number,
): Promise<Session | undefined> {
  if (!token || !TOKEN_SHAPE.test(token)) return undefined;
  const hash = await sha256Hex(token);
  const found = await findActiveSession(db, hash, now);
  // The index found the row by hash; the comparison is constant-time all the same, by rule.
  if (!found || !constantTimeEqual(found.tokenHash, hash)) return undefined;
  return {
    accountId: found.accountId,
    userId: found.userId,
    role: found.role,
    email: found.email,
    workspace: found.workspace,
    workspaceActive: mayAct(found.workspaceStatus),
    tokenHash: hash,
  };
}

export function startSession(c: Context<AppEnv>, session: { token: string; expiresAt: number }) {
  setSessionCookie(c, session.token, session.expiresAt);
}

/** POST /logout: the session row goes, and the cookie with it. */
export async function endSession(c: Context<AppEnv>) {
  const token = readSessionToken(c);
  if (token && TOKEN_SHAPE.test(token)) await deleteSession(c.var.ctx.db, await sha256Hex(token));
  clearSessionCookie(c);
}
