/**
 * Mailbox parsing and formatting. Validation is RFC 5321-ish on purpose: what real mailboxes and
 * SMTP servers accept, not the full RFC 5322 grammar (no comments, groups, quoted local parts,
 * address literals or non-ASCII addresses, since the MIME output is 7-bit clean).
 */
import { hasControlCharacter } from "../lib/text";
import { encodeWords, needsEncodedWords } from "./mime/words";

export interface MailAddress {
  name?: string;
  address: string;
}

const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`);
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
// At least two labels: a dotless domain is an internal host, never a deliverable recipient.
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);

/** `"quoted name" <addr>`, `bare name <addr>` or `<addr>`; unquoted names hold no quotes or brackets. */
const NAMED = /^(?:"((?:[^"\\]|\\.)*)"|([^"<>]*?))\s*<([^<>]*)>$/;

/** Whether `address` is a bare mailbox (`local@domain`) this service can send to and from. */
export function isValidAddress(address: string): boolean {
  if (address.length > MAX_ADDRESS) return false;
  const at = address.lastIndexOf("@");
  if (at <= 0) return false;
  const local = address.slice(0, at);
  return local.length <= MAX_LOCAL && LOCAL_PART.test(local) && DOMAIN.test(address.slice(at + 1));
}

/** `a@b.co`, `Name <a@b.co>` or `"Quoted, Name" <a@b.co>`; null when anything is off. */
export function parseAddress(text: string): MailAddress | null {
  if (/[\r\n]/.test(text)) return null;
  const trimmed = text.trim();
  // Any other control character in a name or address is garbage or an attack, never a real mailbox.
  if (hasControlCharacter(trimmed)) return null;
  const named = NAMED.exec(trimmed);
  const address = named ? (named[3] ?? "") : trimmed;
  if (!isValidAddress(address)) return null;
  const name = named?.[1] !== undefined ? named[1].replace(/\\(.)/g, "$1") : (named?.[2] ?? "");
  return name.trim() ? { name: name.trim(), address } : { address };
}

/** The domain part, lowercased (domains are case-insensitive); "" when there is no `@`. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf("@");
  return at < 0 ? "" : address.slice(at + 1).toLowerCase();
}

const SPECIALS = /[,;:<>@"()[\]\\.]/;

/** The display name as an RFC 5322 phrase: as is, quoted, or as encoded-words. */
function formatName(name: string): string {
  if (needsEncodedWords(name)) return encodeWords(name);
  if (SPECIALS.test(name)) return `"${name.replace(/["\\]/g, "\\$&")}"`;
  return name;
}

/**
 * A mailbox for a header: `Name <a@b.co>`, or the bare address when there is no name. Throws on
 * an invalid address or a name with a line break, since either could forge extra header lines.
 */
export function formatAddress(a: MailAddress): string {
  if (!isValidAddress(a.address)) throw new Error(`Invalid email address ${JSON.stringify(a.address)}.`);
  const name = a.name?.trim() ?? "";
  if (/[\r\n]/.test(name))
    throw new Error("A display name contains a line break (possible header injection).");
  return name ? `${formatName(name)} <${a.address}>` : a.address;
}
