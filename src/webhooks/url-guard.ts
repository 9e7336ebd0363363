import type { Environment } from "../env";

/**
 * Where a webhook may point (product.md). Its own module because the webhook dispatcher is to
 * check again before each delivery, so that a rule change here also stops deliveries to old entries.
 *
 * Only literal addresses can be judged here: a public name that resolves to a private address is
 * out of reach of a check at write time. In production Workers' fetch cannot reach private networks
 * anyway; this check keeps the obvious cases out and the error explains them to the user.
 */

type AddressClass = "public" | "loopback" | "refused";

const MAX_URL_LENGTH = 2048;

/** IPv4 ranges that never belong to a public receiver, as [network, prefix length]. */
const REFUSED_V4: Array<[number, number]> = [
  [0x00000000, 8], // 0.0.0.0/8: "this network"; 0.0.0.0 reaches the host itself
  [0x0a000000, 8], // 10/8 private
  [0x64400000, 10], // 100.64/10 carrier-grade NAT
  [0xa9fe0000, 16], // 169.254/16 link-local (cloud metadata lives here)
  [0xac100000, 12], // 172.16/12 private
  [0xc0a80000, 16], // 192.168/16 private
  [0xe0000000, 3], // 224/3: multicast, reserved and broadcast
];

function inRange(value: number, base: number, prefix: number): boolean {
  const mask = (0xffffffff << (32 - prefix)) >>> 0;
  return (value & mask) >>> 0 === base;
}

function classifyV4(host: string): AddressClass | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  const value = parts.reduce((acc, p) => acc * 256 + Number(p), 0);
  if (inRange(value, 0x7f000000, 8)) return "loopback";
  return REFUSED_V4.some(([base, prefix]) => inRange(value, base, prefix)) ? "refused" : "public";
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, no zone). */
function groupsOf(address: string): number[] | null {
  const [head = "", tail] = address.split("::");
  const part = (text: string) => (text ? text.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.some((g) => Number.isNaN(g)) ? null : groups;
}

function classifyV6(address: string): AddressClass {
  const g = groupsOf(address);
  if (!g) return "refused";
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(7) && g7 === 1) return "loopback"; // ::1
  if (zeroUpTo(8)) return "refused"; // :: unspecified
  // IPv4-mapped (::ffff:a.b.c.d): judge the IPv4 address inside.
  if (zeroUpTo(5) && g5 === 0xffff) {
    return classifyV4(`${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`) ?? "refused";
  }
  if ((g0 & 0xffc0) === 0xfe80) return "refused"; // fe80::/10 link-local
  if ((g0 & 0xfe00) === 0xfc00) return "refused"; // fc00::/7 unique-local
  if ((g0 & 0xff00) === 0xff00) return "refused"; // ff00::/8 multicast
  return "public";
}

function classifyHost(hostname: string): AddressClass {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return classifyV6(host.slice(1, -1));
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  return classifyV4(host) ?? "public";
}

/**
 * Why `raw` cannot be a webhook URL, or null when it can. `https://` to a public host always;
 * loopback (127.0.0.0/8, localhost, [::1]), over http or https, only in development and test.
 */
export function webhookUrlProblem(raw: string, environment: Environment): string | null {
  if (raw.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  const url = URL.parse(raw);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    return "must be an absolute https:// URL";
  }
  if (url.username || url.password) return "must not carry credentials (user:password@)";
  const kind = classifyHost(url.hostname);
  const local = environment !== "production";
  if (kind === "refused") return "must not point to a private, link-local or reserved address";
  if (kind === "loopback" && !local) return "must not point to a loopback address";
  if (url.protocol === "http:" && kind !== "loopback") return "must use https://";
  return null;
}
