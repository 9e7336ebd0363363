import { type Db, runBatch, type Statement } from "../../db/client";
import { loginTokens } from "../../db/schema";
import { randomBase64Url, sha256Hex } from "../../lib/crypto";
import { findAccount } from "../accounts/accounts.repo";
import type { EmailRow } from "../emails/emails.repo";
import { enqueueEmails } from "../emails/enqueue";
import { systemEmail } from "../emails/system-mail";
import { activeUsersByEmail } from "../users/users.repo";
import { LOGIN_TTL_MS, loginLink } from "./login-link";
import { loginMail } from "./login-mail";
import { newSession } from "./session";
import { consumeLoginToken } from "./sessions.repo";

export interface LoginContext {
  db: Db;
  env: Pick<Env, "EMAIL_QUEUE" | "PUBLIC_BASE_URL" | "SYSTEM_FROM">;
  now: number;
}

/**
 * Emails a one-time link to every active user with this email (one per workspace they belong to).
 * The caller answers the same page whether or not any exists, and runs this after the response,
 * so neither the answer nor its timing tells who is a user.
 */
export async function sendSignInLinks(ctx: LoginContext, email: string): Promise<void> {
  const people = await activeUsersByEmail(ctx.db, email);
  if (people.length === 0) return;
  const statements: Statement[] = [];
  const rows: EmailRow[] = [];
  for (const person of people) {
    const token = randomBase64Url(32);
    statements.push(
      ctx.db.insert(loginTokens).values({
        tokenHash: await sha256Hex(token),
        accountId: person.accountId,
        userId: person.id,
        expiresAt: ctx.now + LOGIN_TTL_MS,
        createdAt: ctx.now,
      }),
    );
    const workspace = await findAccount(ctx.db, person.accountId);
    const mail = loginMail(
      person.email,
      workspace?.name ?? "your workspace",
      loginLink(ctx.env.PUBLIC_BASE_URL, token),
    );
    const sent = systemEmail(ctx.db, ctx.env, person.accountId, mail, ctx.now);
    statements.push(...sent.statements);
    rows.push(sent.row);
  }
  // The link and its email commit together: no link exists that was not sent, and no email a dead link.
  await runBatch(ctx.db, statements);
  await enqueueEmails(ctx.env.EMAIL_QUEUE, rows, ctx.now);
}

/** POST /login/{token}: uses the link up and opens a session; null when the link cannot be used. */
export async function signInWithLink(db: Db, token: string, now: number) {
  const used = await consumeLoginToken(db, await sha256Hex(token), now);
  if (!used) return null;
  const session = await newSession(used.userId, now);
  const [inserted] = await runBatch(db, session.statements);
  // Disabled between the two writes: the session was not written.
  return inserted?.meta.changes ? session : null;
}
