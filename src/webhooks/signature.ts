import { hmacSha256Hex } from "../lib/crypto";

/**
 * `X-Service-Signature` for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed
 * by the whole `whsec_...` string as UTF-8, as Stripe does, so Stripe's verifiers accept it as is.
 */
export async function signatureHeader(secret: string, body: string, unixSeconds: number): Promise<string> {
  return `t=${unixSeconds},v1=${await hmacSha256Hex(secret, `${unixSeconds}.${body}`)}`;
}
