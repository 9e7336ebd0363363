import { signedIdToken } from "./signed-id-token";

/**
 * The token of a reply address `<local>+<token>@<domain>`, naming the ticket under the
 * "reply-token" key, so a guessed or edited address cannot post into another ticket.
 */
const token = signedIdToken("reply-token", "tkv");

export const replyToken = (secret: string, ticketId: string) => token.sign(secret, ticketId);
export const verifyReplyToken = (secret: string, value: string) => token.verify(secret, value);
