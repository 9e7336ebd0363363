import { constantTimeEqual, signHex } from "../lib/crypto";
import { hmacKey } from "../lib/keys";

/**
 * The token of a reply address `<local>+<token>@<domain>`: the ticket's ULID and an HMAC of the
 * ticket id under the "reply-token" key, so a guessed or edited address cannot post into another
 * ticket. Lowercase letters and digits only, since mail systems may change a local part's case;
 * verification lowercases first. 26 + 20 characters: the ULID, and 80 bits of HMAC in hex.
 */
const PREFIX = "tkv_";
const ULID_LENGTH = 26;
const MAC_LENGTH = 20;
const TICKET_ID = /^tkv_[0-9A-HJKMNP-TV-Z]{26}$/;
const TOKEN = new RegExp(`^[0-9a-hjkmnp-tv-z]{${ULID_LENGTH}}[0-9a-f]{${MAC_LENGTH}}$`);

async function mac(secret: string, ticketId: string): Promise<string> {
  return (await signHex(await hmacKey(secret, "reply-token"), ticketId)).slice(0, MAC_LENGTH);
}

export async function replyToken(secret: string, ticketId: string): Promise<string> {
  if (!TICKET_ID.test(ticketId)) throw new Error(`not a ticket id: ${ticketId}`);
  return `${ticketId.slice(PREFIX.length).toLowerCase()}${await mac(secret, ticketId)}`;
}

/** The ticket id a token names, when its HMAC is right; null for anything else. */
export async function verifyReplyToken(secret: string, token: string): Promise<string | null> {
  const lower = token.toLowerCase();
  if (!TOKEN.test(lower)) return null;
  const ticketId = `${PREFIX}${lower.slice(0, ULID_LENGTH).toUpperCase()}`;
  return constantTimeEqual(await mac(secret, ticketId), lower.slice(ULID_LENGTH)) ? ticketId : null;
}
