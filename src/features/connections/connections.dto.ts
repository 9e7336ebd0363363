import { iso, isoOrNull } from "../../lib/time";
import type { ConnectionRow } from "./connections.repo";
import { type DnsConfig, type RecordStatus, recordsFor } from "./dns-records";

export function toConnection(row: ConnectionRow, config: DnsConfig) {
  const statuses = JSON.parse(row.checks) as RecordStatus[];
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    dns_records: recordsFor(row.domain, row.dkimSelector, row.dkimPublicKey, config).map((record, i) => ({
      ...record,
      status: statuses[i] ?? ("unchecked" as const),
    })),
    last_checked_at: isoOrNull(row.lastCheckedAt),
    verified_at: isoOrNull(row.verifiedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function dnsConfigOf(env: Pick<Env, "SPF_INCLUDE" | "INBOUND_MX_HOST">): DnsConfig {
  return { spfInclude: env.SPF_INCLUDE, inboundMxHost: env.INBOUND_MX_HOST };
}
