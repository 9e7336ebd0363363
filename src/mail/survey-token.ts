import { constantTimeEqual, signHex } from "../lib/crypto";
import { hmacKey } from "../lib/keys";
import { inWorkspace } from "../lib/workspace-link";

/**
 * The token of a survey rating link `/s/{token}`: the ticket's ULID (its survey request is keyed
 * by the ticket), the rating as two digits, and an HMAC of both under the "survey-token" key, so
 * an edited link (another ticket, another rating) is refused. Lowercase letters and digits,
 * checked in constant time. 26 + 2 + 32 characters: 128 bits of HMAC, as unsubscribe links have,
 * since a link lives in mailboxes for years.
 */
const ULID = "[0-9a-hjkmnp-tv-z]{26}";
const MAC_LENGTH = 32;
const TOKEN = new RegExp(`^(${ULID})([0-9]{2})([0-9a-f]{${MAC_LENGTH}})$`);
const TICKET_ID = /^tkv_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface SurveyChoice {
  ticketId: string;
  rating: number;
}

async function mac(secret: string, choice: SurveyChoice): Promise<string> {
  const key = await hmacKey(secret, "survey-token");
  return (await signHex(key, `${choice.ticketId}.${choice.rating}`)).slice(0, MAC_LENGTH);
}

export async function surveyToken(secret: string, choice: SurveyChoice): Promise<string> {
  if (!TICKET_ID.test(choice.ticketId)) throw new Error("not a ticket id");
  if (!Number.isInteger(choice.rating) || choice.rating < 0 || choice.rating > 10)
    throw new Error("a rating is 0 to 10");
  const rating = String(choice.rating).padStart(2, "0");
  return `${choice.ticketId.slice(4).toLowerCase()}${rating}${await mac(secret, choice)}`;
}

/** The ticket and rating a token names, when its HMAC is right; null for anything else. */
export async function verifySurveyToken(secret: string, token: string): Promise<SurveyChoice | null> {
  const match = TOKEN.exec(token.toLowerCase());
  if (!match) return null;
  const choice = { ticketId: `tkv_${match[1]?.toUpperCase()}`, rating: Number(match[2]) };
  if (choice.rating > 10) return null;
  return constantTimeEqual(await mac(secret, choice), match[3] ?? "") ? choice : null;
}

/** A rating link on the service's public host, naming the ticket's workspace (workspace-link.ts). */
export async function surveyUrl(
  env: Pick<Env, "PUBLIC_BASE_URL" | "ENCRYPTION_KEY">,
  choice: SurveyChoice,
  accountId: string,
) {
  const token = await surveyToken(env.ENCRYPTION_KEY, choice);
  return inWorkspace(`${env.PUBLIC_BASE_URL.replace(/\/$/, "")}/s/${token}`, accountId);
}
