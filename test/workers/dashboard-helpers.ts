import { nameTokenHashes } from "../../src/db/directory/token-hashes";
import { sessions } from "../../src/db/schema";
import { randomBase64Url, sha256Hex } from "../../src/lib/crypto";
import { call, db, directory, seedUser } from "./helpers";
import { postForm } from "./people-helpers";

export interface SignedIn {
  cookie: string;
  /** The CSRF token the dashboard's pages carry for this session. */
  csrf: string;
  user: Awaited<ReturnType<typeof seedUser>>;
}

/** A user of the workspace with a fresh session (named and written as POST /login/{token} does). */
export async function signIn(
  accountId: string,
  role: "owner" | "admin" | "agent" = "owner",
  email?: string,
): Promise<SignedIn> {
  const user = await seedUser(accountId, { role, ...(email ? { email } : {}) });
  const token = randomBase64Url(32);
  const now = Date.now();
  const named = { tokenHash: await sha256Hex(token), accountId, expiresAt: now + 86_400_000 };
  await nameTokenHashes(directory(), "session", [named]);
  await db()
    .insert(sessions)
    .values({ ...named, userId: user.id, createdAt: now });
  const cookie = `__Host-session=${token}`;
  const overview = await (await call("GET", "/dashboard", { headers: { Cookie: cookie } })).text();
  const csrf = /"X-CSRF-Token":"([0-9a-f]{64})"/.exec(overview.replaceAll("&quot;", '"'))?.[1];
  if (!csrf) throw new Error("the dashboard page carries no CSRF token");
  return { cookie, csrf, user };
}

/** A dashboard page as the signed-in person's browser asks for it. */
export const dashboardGet = (path: string, who: SignedIn) =>
  call("GET", path, { headers: { Cookie: who.cookie } });

/** A dashboard form post from the page: same origin, the session's cookie and CSRF token. */
export const dashboardPost = (path: string, who: SignedIn, fields: Record<string, string> = {}) =>
  postForm(path, { _csrf: who.csrf, ...fields }, { Cookie: who.cookie });
