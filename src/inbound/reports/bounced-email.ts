import { createDb } from "../../db/client";
import { directoryDb } from "../../db/directory/client";
import { homeOf } from "../../db/directory/workspaces";
import { envFor, findInShards } from "../../db/shards";
import { workspaceMoving } from "../../lib/workspace-moving";
import { emailById, type ReportedEmail } from "./reports.repo";

/**
 * The email a verified bounce token names, and `env` as its workspace's shard sees it (`envFor`),
 * where the report is recorded and its events announced. The token names the email only (the
 * local part's 64 octets leave no room for the workspace), and an email id is unique in the
 * service: every shard is asked at once (one read each, in parallel). The workspace's shard is
 * the one the directory names (cached in the isolate): while an operator moves a workspace its
 * rows are in two shards for a while, and only the directory's is its own. An email found in no
 * shard answers null and `env` as given: the report is recorded as one about an unknown email.
 * While its workspace is being moved the report is refused for now (thrown: a temporary failure).
 */
export async function bouncedEmail(
  env: Env,
  emailId: string,
): Promise<{ env: Env; email: ReportedEmail | null }> {
  const located = await findInShards(env, (scoped) => emailById(createDb(scoped.DB), emailId));
  if (!located) return { env, email: null };
  const home = await homeOf(directoryDb(env), located.found.accountId);
  // Being moved: a temporary failure, as mail to its inboxes gets; the reporting server retries.
  if (home?.frozen) throw workspaceMoving();
  const shard = home?.shard ?? located.shard;
  const scoped = envFor(env, shard);
  if (shard === located.shard) return { env: scoped, email: located.found };
  return { env: scoped, email: await emailById(createDb(scoped.DB), emailId) };
}
