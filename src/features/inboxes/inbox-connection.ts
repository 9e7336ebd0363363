import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { domainOf } from "../../mail/address";
import { findConnection, findConnectionByDomain } from "../connections/connections.repo";
import { verifyDomainHelp } from "../connections/domain-help";

const connectionProblem = (code: string, error: string, detail: string, message: string) =>
  new AppError(400, code, error, detail, { details: [{ path: "body.connection_id", message }] });

/**
 * The connection an inbox at `address` belongs to: the workspace's verified connection of the
 * address's domain. Checked before the address's uniqueness, so a workspace can neither claim nor
 * probe addresses on a domain it has not proved it controls. 403 (not 400) as for a sender domain in
 * POST /v1/emails: the request is well-formed, the workspace is not allowed that domain yet.
 * `requested`, the body's `connection_id`, may only repeat that connection.
 */
export async function inboxConnection(
  db: Db,
  accountId: string,
  address: string,
  requested: string | null | undefined,
): Promise<string> {
  const domain = domainOf(address);
  const connection = await findConnectionByDomain(db, accountId, domain);
  if (connection?.status !== "verified") {
    throw new AppError(
      403,
      "inbox_domain_not_verified",
      "Inbox domain not verified",
      `${domain} is not a verified domain of this workspace; an inbox address must be on one.`,
      { domain, help: verifyDomainHelp(domain, connection) },
    );
  }
  if (requested === undefined || requested === connection.id) return connection.id;
  if (requested && !(await findConnection(db, accountId, requested))) {
    throw connectionProblem(
      "connection_not_found",
      "Connection not found",
      `Connection ${requested} does not exist in this workspace.`,
      "must be a connection of this workspace",
    );
  }
  throw connectionProblem(
    "connection_mismatch",
    "Connection does not match the address",
    `An inbox belongs to the connection of its address's domain: ${connection.id} (${domain}). Leave connection_id out, or send that one.`,
    `must be ${connection.id}, the connection of ${domain}`,
  );
}
