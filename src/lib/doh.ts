/**
 * DNS over HTTPS, JSON flavour (RFC 8484 servers such as Cloudflare's and Google's answer
 * `application/dns-json`). Workers have no raw DNS, so domain checks go through this.
 */
export type RecordType = "TXT" | "MX" | "CNAME";

const TYPE_CODES: Record<RecordType, number> = { TXT: 16, MX: 15, CNAME: 5 };

interface DohAnswer {
  name: string;
  type: number;
  data: string;
}

/** TXT data comes as one or more quoted strings; a record is their concatenation. */
function unquoteTxt(data: string): string {
  const parts = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? "").replace(/\\(.)/g, "$1"));
  return parts.length > 0 ? parts.join("") : data;
}

/** The records of `type` at `name`; an empty list for NXDOMAIN or no data. Throws when the resolver fails. */
export async function resolve(resolverUrl: string, name: string, type: RecordType): Promise<string[]> {
  const url = new URL(resolverUrl);
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  const response = await fetch(url, {
    headers: { Accept: "application/dns-json" },
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) throw new Error(`DNS resolver answered ${response.status}`);
  const body = (await response.json()) as { Status: number; Answer?: DohAnswer[] };
  // 0 = NOERROR, 3 = NXDOMAIN; anything else (SERVFAIL...) is the resolver's failure, not an answer.
  if (body.Status !== 0 && body.Status !== 3) throw new Error(`DNS resolver status ${body.Status}`);
  return (body.Answer ?? [])
    .filter((answer) => answer.type === TYPE_CODES[type])
    .map((answer) => (type === "TXT" ? unquoteTxt(answer.data) : answer.data.replace(/\.$/, "")));
}
