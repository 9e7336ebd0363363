import { shardD1Of } from "./helpers";

/** What an operator does to suspend or reinstate a workspace: there is no API for it. */
export const setAccountStatus = (accountId: string, status: "active" | "suspended") =>
  shardD1Of().prepare("UPDATE accounts SET status = ? WHERE id = ?").bind(status, accountId).run();
