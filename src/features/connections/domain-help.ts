import type { ConnectionRow } from "./connections.repo";

/** What to do so that `domain` becomes a verified connection of the workspace, for a 403's `help`. */
export function verifyDomainHelp(
  domain: string,
  connection: Pick<ConnectionRow, "id"> | null | undefined,
): string {
  return connection
    ? `Publish the DNS records of connection ${connection.id} (GET /v1/connections/${connection.id}), then POST /v1/connections/${connection.id}/verify.`
    : `Add the domain with POST /v1/connections {"domain":"${domain}"}, publish the DNS records it answers, then verify it.`;
}
