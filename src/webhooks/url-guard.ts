import ipaddr from "ipaddr.js";
import type { Environment } from "../env";

/**
 * Where a webhook may point (product.md). Inbox webhooks are checked when written, and the
 * dispatcher checks again before each delivery, so a rule change here also stops old entries.
 *
 * Only literal addresses can be judged here: a public name that resolves to a private address is
 * out of reach of a check at write time. In production Workers' fetch cannot reach private networks
 * anyway; this check keeps the obvious cases out and the error explains them to the user.
 *
 * Addresses are classified by ipaddr.js's range names (the IANA special-purpose registries), not by
 * hand: only `unicast` is public.
 */

type AddressClass = "public" | "loopback" | "refused";

interface Verdict {
  kind: AddressClass;
  /** An IPv6 address carrying an IPv4 one (mapped, translated, NAT64, 6to4, Teredo). */
  embedsV4: boolean;
}

const MAX_URL_LENGTH = 2048;

const PUBLIC: Verdict = { kind: "public", embedsV4: false };
const LOOPBACK: Verdict = { kind: "loopback", embedsV4: false };
const REFUSED: Verdict = { kind: "refused", embedsV4: false };

/** IANA's global unicast block: ipaddr.js calls every other unlisted IPv6 address `unicast` too. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
/** IPv4-compatible addresses (::a.b.c.d, RFC 4291, deprecated) have no range name in ipaddr.js. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR("::/96");
/** NAT64's well-known prefix puts the IPv4 address last; the local-use 64:ff9b:1::/48 may not. */
const WELL_KNOWN_NAT64 = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

function judgeV4(address: ipaddr.IPv4): AddressClass {
  const range = address.range();
  if (range === "loopback") return "loopback";
  return range === "unicast" ? "public" : "refused";
}

const v4Of = (high: number, low: number) =>
  new ipaddr.IPv4([(high >> 8) & 255, high & 255, (low >> 8) & 255, low & 255]);

/**
 * The IPv4 addresses an IPv6 address carries, where each standard puts them; null when it carries
 * none, an empty list when it carries one at a place this cannot know.
 */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const [, g1 = 0, g2 = 0, g3 = 0, , , g6 = 0, g7 = 0] = address.parts;
  const range = address.range();
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145":
      return [v4Of(g6, g7)];
    case "rfc6052":
      return address.match(WELL_KNOWN_NAT64) ? [v4Of(g6, g7)] : [];
    case "6to4":
      return [v4Of(g1, g2)];
    case "teredo": // the server, then the client, whose bits Teredo inverts
      return [v4Of(g2, g3), v4Of(~g6, ~g7)];
    default:
      return range === "unicast" && address.match(IPV4_COMPATIBLE) ? [v4Of(g6, g7)] : null;
  }
}

function judgeV6(address: ipaddr.IPv6): Verdict {
  const carried = embeddedV4(address);
  if (carried) {
    const kinds = carried.map(judgeV4);
    if (kinds.length === 0 || kinds.includes("refused")) return REFUSED;
    // Only the mapped form reaches this host's loopback; through a translator 127/8 is someone else's.
    if (kinds.includes("loopback")) {
      return address.range() === "ipv4Mapped" ? { kind: "loopback", embedsV4: true } : REFUSED;
    }
    return { kind: "public", embedsV4: true };
  }
  const range = address.range();
  if (range === "loopback") return LOOPBACK;
  return range === "unicast" && address.match(GLOBAL_UNICAST_V6) ? PUBLIC : REFUSED;
}

function judgeHost(hostname: string): Verdict {
  const host = hostname.toLowerCase().replace(/\.+$/, "");
  if (host.startsWith("[")) {
    const inner = host.slice(1, -1);
    return ipaddr.IPv6.isValid(inner) ? judgeV6(ipaddr.IPv6.parse(inner)) : REFUSED;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return LOOPBACK;
  // The URL parser has already rewritten decimal, octal and hex hosts (2130706433, 0x7f.1) as dotted
  // quads; ipaddr.js reads those notations too, should a runtime leave one as written.
  if (ipaddr.IPv4.isValid(host)) return { kind: judgeV4(ipaddr.IPv4.parse(host)), embedsV4: false };
  return PUBLIC;
}

/**
 * Why `raw` cannot be a webhook URL, or null when it can. `https://` to a public host always;
 * loopback (127.0.0.0/8, localhost, [::1]), over http or https, only in development and test.
 * In production an IPv6 address carrying an IPv4 one is refused whatever it carries: a public
 * receiver has its own address and no reason to be reached through a translation prefix.
 */
export function webhookUrlProblem(raw: string, environment: Environment): string | null {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  const url = URL.parse(raw);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    return "must be an absolute https:// URL";
  }
  if (url.username || url.password) return "must not carry credentials (user:password@)";
  const { kind, embedsV4 } = judgeHost(url.hostname);
  const production = environment === "production";
  if (kind === "refused") return "must not point to a private, link-local or reserved address";
  if (kind === "loopback" && production) return "must not point to a loopback address";
  if (embedsV4 && production) {
    return "must not use an IPv6 address that embeds an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo); use the receiver's own address";
  }
  if (url.protocol === "http:" && kind !== "loopback") return "must use https://";
  return null;
}
