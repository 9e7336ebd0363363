import { domainOf } from "./address";
import { signedIdToken } from "./signed-id-token";

/** The local part of every bounce address; an inbox address of the same name is matched first. */
export const BOUNCE_LOCAL_PART = "bounces";

/** Names the email under its own "bounce-token" key: a reply token never passes for one. */
const token = signedIdToken("bounce-token", "eml");

/**
 * The Return-Path (VERP) of an email: `bounces+<token>@<its sender's domain>`, so a bounce or
 * complaint that comes back names the very email it is about, and a forged one names nothing.
 */
export async function bounceAddress(secret: string, emailId: string, fromAddress: string): Promise<string> {
  return `${BOUNCE_LOCAL_PART}+${await token.sign(secret, emailId)}@${domainOf(fromAddress)}`;
}

/** The email a bounce address's token names, when it verifies. */
export const verifyBounceToken = (secret: string, value: string) => token.verify(secret, value);
