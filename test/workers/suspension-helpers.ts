import { env } from "cloudflare:workers";

/** What an operator does to suspend or reinstate a workspace: there is no API for it. */
export const setAccountStatus = (accountId: string, status: "active" | "suspended") =>
  env.DB_2.prepare("UPDATE accounts SET status = ? WHERE id = ?").bind(status, accountId).run();
