import { constantTimeEqual, signHex } from "../lib/crypto";
import { hmacKey } from "../lib/keys";
import { inWorkspace } from "../lib/workspace-link";

/**
 * The token of an unsubscribe link `/u/{token}`: the customer's and the campaign's ULIDs and an
 * HMAC of both ids under the "unsubscribe-token" key, so an edited link unsubscribes nobody.
 * Lowercase letters and digits, checked in constant time. 26 + 26 + 32 characters: two ULIDs and
 * 128 bits of HMAC in hex (a link lives in mailboxes for years: a longer MAC than a reply token's).
 */
const ULID = "[0-9a-hjkmnp-tv-z]{26}";
const MAC_LENGTH = 32;
const TOKEN = new RegExp(`^(${ULID})(${ULID})([0-9a-f]{${MAC_LENGTH}})$`);
const CUSTOMER_ID = /^cus_[0-9A-HJKMNP-TV-Z]{26}$/;
const CAMPAIGN_ID = /^cmp_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface UnsubscribeTarget {
  customerId: string;
  campaignId: string;
}

async function mac(secret: string, target: UnsubscribeTarget): Promise<string> {
  const key = await hmacKey(secret, "unsubscribe-token");
  return (await signHex(key, `${target.customerId}.${target.campaignId}`)).slice(0, MAC_LENGTH);
}

export async function unsubscribeToken(secret: string, target: UnsubscribeTarget): Promise<string> {
  if (!CUSTOMER_ID.test(target.customerId) || !CAMPAIGN_ID.test(target.campaignId))
    throw new Error("not a customer and campaign id");
  const ulids = `${target.customerId.slice(4)}${target.campaignId.slice(4)}`.toLowerCase();
  return `${ulids}${await mac(secret, target)}`;
}

/** The customer and campaign a token names, when its HMAC is right; null for anything else. */
export async function verifyUnsubscribeToken(
  secret: string,
  token: string,
): Promise<UnsubscribeTarget | null> {
  const match = TOKEN.exec(token.toLowerCase());
  if (!match) return null;
  const target = {
    customerId: `cus_${match[1]?.toUpperCase()}`,
    campaignId: `cmp_${match[2]?.toUpperCase()}`,
  };
  return constantTimeEqual(await mac(secret, target), match[3] ?? "") ? target : null;
}

/**
 * The one-click link of RFC 8058, on the service's public host, naming the customer's workspace
 * (workspace-link.ts): the post goes to the URL as it is, query included.
 */
export async function unsubscribeUrl(
  env: Pick<Env, "PUBLIC_BASE_URL" | "ENCRYPTION_KEY">,
  target: UnsubscribeTarget,
  accountId: string,
) {
  const token = await unsubscribeToken(env.ENCRYPTION_KEY, target);
  return inWorkspace(`${env.PUBLIC_BASE_URL.replace(/\/$/, "")}/u/${token}`, accountId);
}

/** The two headers every campaign email carries (both in the DKIM signature's `h=` list). */
export const unsubscribeHeaders = (url: string) => ({
  "List-Unsubscribe": `<${url}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
});
