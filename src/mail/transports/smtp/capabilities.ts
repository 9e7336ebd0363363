import type { SmtpConnection } from "./connection";
import type { SmtpReply } from "./reply-reader";

/** EHLO keywords, upper-cased, to their parameters: `AUTH` → ["PLAIN", "LOGIN"], `SIZE` → ["35882577"]. */
export type Capabilities = Map<string, string[]>;

export async function ehlo(connection: SmtpConnection, heloName: string): Promise<Capabilities> {
  return parseCapabilities(await connection.command("ehlo", `EHLO ${heloName}`, 250));
}

/** The first line greets; each further line names one extension (RFC 5321 §4.1.1.1). */
export function parseCapabilities(reply: SmtpReply): Capabilities {
  const capabilities: Capabilities = new Map();
  for (const line of reply.lines.slice(1)) {
    // Some servers still write the pre-standard `AUTH=LOGIN PLAIN` as well as `AUTH LOGIN PLAIN`.
    const [keyword, ...params] = line
      .slice(4)
      .trim()
      .split(/[\s=]+/);
    if (!keyword) continue;
    const key = keyword.toUpperCase();
    capabilities.set(key, [...(capabilities.get(key) ?? []), ...params]);
  }
  return capabilities;
}

export function authMechanisms(capabilities: Capabilities): Set<string> {
  return new Set((capabilities.get("AUTH") ?? []).map((mechanism) => mechanism.toUpperCase()));
}
