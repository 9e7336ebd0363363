import { constantTimeEqual, signHex } from "../lib/crypto";
import { hmacKey } from "../lib/keys";
import { domainOf } from "./address";
import { signedIdToken } from "./signed-id-token";

/** The local part of every bounce address; an inbox address of the same name is matched first. */
export const BOUNCE_LOCAL_PART = "bounces";

/**
 * Tokens before per-recipient envelopes named the email only (46 characters); still verified, so
 * a report about mail already out is read, but they name no recipient (see `receive-report.ts`).
 */
const emailOnlyToken = signedIdToken("bounce-token", "eml");

const ULID_LENGTH = 26;
const TAG_LENGTH = 8;
const MAC_LENGTH = 20;
/** `<email ULID><recipient tag><MAC>`: 54 characters, so `bounces+<token>` stays within 64 octets. */
const RECIPIENT_TOKEN = new RegExp(
  `^([0-9a-hjkmnp-tv-z]{${ULID_LENGTH}})([0-9a-f]{${TAG_LENGTH}})([0-9a-f]{${MAC_LENGTH}})$`,
);

const hmac = async (secret: string, message: string) =>
  signHex(await hmacKey(secret, "bounce-token"), message);

/**
 * Which recipient a token is about: an HMAC of the address under the service's key, so the token
 * does not spell the address (Bcc recipients stay hidden) and nobody can make one for an address.
 */
export const recipientTag = async (secret: string, recipient: string) =>
  (await hmac(secret, `recipient:${recipient.toLowerCase()}`)).slice(0, TAG_LENGTH);

/** The MAC binds the tag to the email: a token cannot be moved to another email or recipient. */
const macOf = async (secret: string, emailId: string, tag: string) =>
  (await hmac(secret, `${emailId}/${tag}`)).slice(0, MAC_LENGTH);

/**
 * The Return-Path (VERP) of one recipient's copy of an email: `bounces+<token>@<its sender's
 * domain>`, the token naming the email and that recipient. A bounce or complaint that comes back
 * names the very recipient it is about, and a co-recipient who reads their own Return-Path holds a
 * token for themselves only; a forged one names nothing.
 */
export async function bounceAddress(
  secret: string,
  emailId: string,
  recipient: string,
  fromAddress: string,
): Promise<string> {
  const tag = await recipientTag(secret, recipient);
  const ulid = emailId.slice("eml_".length).toLowerCase();
  return `${BOUNCE_LOCAL_PART}+${ulid}${tag}${await macOf(secret, emailId, tag)}@${domainOf(fromAddress)}`;
}

/** What a verified bounce token names: the email, and the recipient's tag (null for an email-only token). */
export interface BounceToken {
  emailId: string;
  recipientTag: string | null;
}

/** The email (and recipient tag) a bounce address's token names, when it verifies; null otherwise. */
export async function verifyBounceToken(secret: string, value: string): Promise<BounceToken | null> {
  const match = RECIPIENT_TOKEN.exec(value.toLowerCase());
  if (!match) {
    const emailId = await emailOnlyToken.verify(secret, value);
    return emailId ? { emailId, recipientTag: null } : null;
  }
  const [, ulid = "", tag = "", mac = ""] = match;
  const emailId = `eml_${ulid.toUpperCase()}`;
  return constantTimeEqual(await macOf(secret, emailId, tag), mac) ? { emailId, recipientTag: tag } : null;
}
