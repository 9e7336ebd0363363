import { resolve } from "../../lib/doh";
import { dkimRecordValue } from "../../mail/dkim/keys";

export type RecordStatus = "unchecked" | "verified" | "missing" | "mismatch";

export interface DnsRecord {
  purpose: "dkim" | "spf" | "dmarc" | "inbound";
  type: "TXT" | "MX";
  name: string;
  value: string;
  priority?: number;
  required: boolean;
}

export interface DnsConfig {
  spfInclude: string;
  inboundMxHost: string;
}

/** The records a customer publishes for a domain: DKIM and SPF to send, DMARC advised, MX to receive. */
export function recordsFor(
  domain: string,
  selector: string,
  publicKey: string,
  config: DnsConfig,
): DnsRecord[] {
  return [
    {
      purpose: "dkim",
      type: "TXT",
      name: `${selector}._domainkey.${domain}`,
      value: dkimRecordValue(publicKey),
      required: true,
    },
    {
      purpose: "spf",
      type: "TXT",
      name: domain,
      value: `v=spf1 include:${config.spfInclude} ~all`,
      required: true,
    },
    {
      purpose: "dmarc",
      type: "TXT",
      name: `_dmarc.${domain}`,
      value: `v=DMARC1; p=none; rua=mailto:dmarc@${domain}`,
      required: false,
    },
    {
      purpose: "inbound",
      type: "MX",
      name: domain,
      value: config.inboundMxHost,
      priority: 10,
      required: false,
    },
  ];
}

const squash = (text: string) => text.replace(/\s+/g, "").toLowerCase();

/** Whether what DNS holds satisfies one expected record. Customers may merge SPF or tune DMARC. */
function matches(record: DnsRecord, found: string[], config: DnsConfig): boolean {
  switch (record.purpose) {
    case "dkim": {
      const key = squash(record.value).split("p=")[1] ?? "";
      return found.some((value) => squash(value).includes(`p=${key}`));
    }
    case "spf":
      return found.some(
        (value) =>
          /^v=spf1\s/i.test(value) &&
          value.toLowerCase().includes(`include:${config.spfInclude.toLowerCase()}`),
      );
    case "dmarc":
      return found.some((value) => /^v=DMARC1\b/i.test(value.trim()));
    case "inbound":
      return found.some(
        (value) =>
          value.toLowerCase().split(/\s+/).pop()?.replace(/\.$/, "") === config.inboundMxHost.toLowerCase(),
      );
  }
}

/** Looks every record up through the DoH resolver; throws if the resolver itself fails. */
export async function checkRecords(
  resolverUrl: string,
  records: DnsRecord[],
  config: DnsConfig,
): Promise<RecordStatus[]> {
  return Promise.all(
    records.map(async (record) => {
      const found = await resolve(resolverUrl, record.name, record.type);
      if (found.length === 0) return "missing";
      return matches(record, found, config) ? "verified" : "mismatch";
    }),
  );
}
