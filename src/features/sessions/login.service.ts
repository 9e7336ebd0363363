import { type Db, runBatch, type Statement } from "../../db/client";
import type { DirectoryDb } from "../../db/directory/client";
import { workspacesOfMemberEmail } from "../../db/directory/member-emails";
import { nameTokenHashes, workspaceOfTokenHash } from "../../db/directory/token-hashes";
import { loginTokens } from "../../db/schema";
import { randomBase64Url, sha256Hex } from "../../lib/crypto";
import type { WorkspaceDbOf } from "../../lib/request-context-middleware";
import { mayAct } from "../../lib/workspace-gate";
import { enqueueEmails } from "../emails/enqueue";
import { systemEmail } from "../emails/system-mail";
import { activeUserByEmail } from "../users/users.repo";
import { LOGIN_TTL_MS, loginLink } from "./login-link";
import { loginMail } from "./login-mail";
import { openSession } from "./session";
import { consumeLoginToken, findUsableLoginToken } from "./sessions.repo";

export interface LoginContext {
  directory: DirectoryDb;
  /** Each workspace's shard, the request's own workspace left as it is. */
  workspaceDb: WorkspaceDbOf;
  env: Pick<Env, "EMAIL_QUEUE" | "PUBLIC_BASE_URL" | "SYSTEM_FROM">;
  now: number;
}

type Person = NonNullable<Awaited<ReturnType<typeof activeUserByEmail>>>;

/**
 * Emails a one-time link to every active user with this email, one per workspace that may act:
 * the directory names the workspaces the email belongs to, each workspace's shard holds the user.
 * The caller answers the same page whether or not any exists, and runs this after the response,
 * so neither the answer nor its timing tells who is a user.
 */
export async function sendSignInLinks(ctx: LoginContext, email: string): Promise<void> {
  const found = await Promise.all(
    (await workspacesOfMemberEmail(ctx.directory, email)).map(async (accountId) => {
      const db = await ctx.workspaceDb(accountId);
      const person = db && (await activeUserByEmail(db, accountId, email));
      return db && person && mayAct(person.workspaceStatus) ? { accountId, db, person } : null;
    }),
  );
  const links = await Promise.all(
    found
      .flatMap((each) => (each ? [each] : []))
      .map(async (each) => {
        const token = randomBase64Url(32);
        return { ...each, token, tokenHash: await sha256Hex(token), expiresAt: ctx.now + LOGIN_TTL_MS };
      }),
  );
  // Every link named at once (one round trip), before any is written in its shard.
  await nameTokenHashes(
    ctx.directory,
    "signIn",
    links.map(({ tokenHash, accountId, expiresAt }) => ({ tokenHash, accountId, expiresAt })),
  );
  // Each workspace's link and email in its own shard's batch; the workspaces in parallel.
  await Promise.all(links.map((link) => sendLink(ctx, link)));
}

/** One workspace's link: the link and its email commit together, so no link exists that was not sent, and no email a dead link. */
async function sendLink(
  ctx: LoginContext,
  link: { accountId: string; db: Db; person: Person; token: string; tokenHash: string; expiresAt: number },
) {
  const { accountId, db, person } = link;
  const mail = loginMail(person.email, person.workspace, loginLink(ctx.env.PUBLIC_BASE_URL, link.token));
  const sent = systemEmail(db, ctx.env, accountId, mail, ctx.now);
  const statements: Statement[] = [
    db.insert(loginTokens).values({
      tokenHash: link.tokenHash,
      accountId,
      userId: person.id,
      expiresAt: link.expiresAt,
      createdAt: ctx.now,
    }),
    ...sent.statements,
  ];
  await runBatch(db, statements);
  await enqueueEmails(ctx.env.EMAIL_QUEUE, [sent.row], ctx.now);
}

/** The workspace a sign-in link names in the directory, and that workspace's shard; null when unknown. */
async function linkHome(directory: DirectoryDb, enter: WorkspaceDbOf, tokenHash: string) {
  const named = await workspaceOfTokenHash(directory, "signIn", tokenHash);
  const db = named && (await enter(named.accountId));
  return db && named ? { db, accountId: named.accountId } : null;
}

/** GET /login/{token}: what the link's page shows, while the link can be used; null otherwise. */
export async function usableLink(directory: DirectoryDb, enter: WorkspaceDbOf, token: string, now: number) {
  const tokenHash = await sha256Hex(token);
  const home = await linkHome(directory, enter, tokenHash);
  return home && findUsableLoginToken(home.db, home.accountId, tokenHash, now);
}

/**
 * POST /login/{token}: uses the link up in its workspace's shard and opens a session there; null
 * when the link cannot be used. The link's name stays in the directory until it expires (the
 * minute cron prunes it): a used link opens nothing.
 */
export async function signInWithLink(
  directory: DirectoryDb,
  enter: WorkspaceDbOf,
  token: string,
  now: number,
) {
  const tokenHash = await sha256Hex(token);
  const home = await linkHome(directory, enter, tokenHash);
  const used = home && (await consumeLoginToken(home.db, home.accountId, tokenHash, now));
  if (!home || !used) return null;
  // Disabled between the two writes: the session was not written.
  return openSession(directory, home.db, home.accountId, used.userId, now);
}
