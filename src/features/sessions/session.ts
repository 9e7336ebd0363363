import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { type Db, runBatch, type Statement } from "../../db/client";
import { type DirectoryDb, directoryDb } from "../../db/directory/client";
import { forgetSessionHash, workspaceOfSessionHash } from "../../db/directory/session-hashes";
import { type NamedToken, nameTokenHashes } from "../../db/directory/token-hashes";
import type { AppEnv, Session } from "../../env";
import { constantTimeEqual, randomBase64Url, sha256Hex } from "../../lib/crypto";
import { entering, enterWorkspace, type WorkspaceDbOf } from "../../lib/request-context-middleware";
import { mayAct } from "../../lib/workspace-gate";
import { clearSessionCookie, readSessionToken, SESSION_TTL_MS, setSessionCookie } from "./cookie";
import { deleteSession, findActiveSession, insertSessionStatement, touchLastLogin } from "./sessions.repo";

/** Link and session tokens are 32 random bytes in base64url; anything else needs no database trip. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A new session for the user `userId` of `accountId`: its token for the cookie, the directory entry
 * to name before anything is written (`named`), and the statements that store it in the shard.
 */
export async function newSession(userId: string, accountId: string, now: number) {
  const token = randomBase64Url(32);
  const expiresAt = now + SESSION_TTL_MS;
  const tokenHash = await sha256Hex(token);
  const named: NamedToken = { tokenHash, accountId, expiresAt };
  const statements: Statement[] = [
    insertSessionStatement(tokenHash, accountId, userId, expiresAt, now),
    touchLastLogin(accountId, userId, now),
  ];
  return { token, expiresAt, named, statements };
}

/**
 * Resolves the session cookie to `{ accountId, userId, role }` on `c.var.session`, re-reading the
 * user on every request: a disabled or removed user's session ends at once. The directory names
 * the session's workspace, which the request then enters: every query after this one, the
 * session's own included, goes to that workspace's shard.
 */
export const withSession = createMiddleware<AppEnv>(async (c, next) => {
  const token = readSessionToken(c);
  c.set("session", await resolveSession(directoryDb(c.env), entering(c), token, c.var.ctx.now));
  await next();
});

/**
 * The session a cookie's token opens: the directory names its workspace (from the isolate's cache
 * when read before), `enter` reaches that workspace's shard, and the shard has the last word (the
 * session unexpired, its user active, scoped by the workspace the directory named).
 */
export async function resolveSession(
  directory: DirectoryDb,
  enter: WorkspaceDbOf,
  token: string | undefined,
  now: number,
): Promise<Session | undefined> {
  if (!token || !TOKEN_SHAPE.test(token)) return undefined;
  const hash = await sha256Hex(token);
  const accountId = await workspaceOfSessionHash(directory, hash, now);
  const db = accountId && (await enter(accountId));
  const found = db ? await findActiveSession(db, accountId, hash, now) : null;
  // The index found the row by hash; the comparison is constant-time all the same, by rule.
  if (!found || !constantTimeEqual(found.tokenHash, hash)) return undefined;
  return {
    accountId: found.accountId,
    userId: found.userId,
    role: found.role,
    email: found.email,
    name: found.name,
    workspace: found.workspace,
    workspaceActive: mayAct(found.workspaceStatus),
    tokenHash: hash,
  };
}

/**
 * Opens a session for the user `userId` of `accountId`: named in the directory first (so a session
 * its shard holds is always found), then written in the shard, only while the user is active.
 * Null when it was not written (the user was disabled meanwhile): its name then opens nothing.
 */
export async function openSession(
  directory: DirectoryDb,
  db: Db,
  accountId: string,
  userId: string,
  now: number,
) {
  const session = await newSession(userId, accountId, now);
  await nameTokenHashes(directory, "session", [session.named]);
  const [inserted] = await runBatch(db, session.statements);
  return inserted?.meta.changes ? session : null;
}

export function startSession(c: Context<AppEnv>, session: { token: string; expiresAt: number }) {
  setSessionCookie(c, session.token, session.expiresAt);
}

/**
 * POST /logout: the session row goes from its workspace's shard, then its name from the directory
 * (in that order: a name whose row is gone opens nothing), and the cookie with them.
 */
export async function endSession(c: Context<AppEnv>) {
  const token = readSessionToken(c);
  if (token && TOKEN_SHAPE.test(token)) {
    const hash = await sha256Hex(token);
    const directory = directoryDb(c.env);
    const accountId = await workspaceOfSessionHash(directory, hash, c.var.ctx.now);
    const ctx = accountId ? await enterWorkspace(c, accountId) : null;
    if (ctx) await deleteSession(ctx.db, ctx.accountId, hash);
    if (accountId) await forgetSessionHash(directory, hash);
  }
  clearSessionCookie(c);
}
