/** DKIM key material: RSA key pairs as base64 DER, the DNS record that publishes them, selectors. */
import { base64Encode } from "../../lib/crypto";

/**
 * RSA rather than Ed25519 because every receiver verifies rsa-sha256, while Ed25519 (RFC 8463)
 * is still ignored by many; 2048 bits is the size RFC 8301 asks signers for.
 */
const RSA_KEY_PARAMS = {
  name: "RSASSA-PKCS1-v1_5",
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256",
};

export interface DkimKeyPair {
  /** base64 of the PKCS#8 DER private key; store it encrypted. */
  privateKey: string;
  /** base64 of the SPKI DER public key: the `p=` tag of the DNS record as is. */
  publicKey: string;
}

export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const pair = (await crypto.subtle.generateKey(RSA_KEY_PARAMS, true, ["sign", "verify"])) as CryptoKeyPair;
  const pkcs8 = (await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer;
  const spki = (await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer;
  return { privateKey: base64Encode(new Uint8Array(pkcs8)), publicKey: base64Encode(new Uint8Array(spki)) };
}

/** The TXT record value published at `<selector>._domainkey.<domain>`. */
export function dkimRecordValue(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}

export const DKIM_SELECTOR_PREFIX = "sm";
const SELECTOR_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const SELECTOR_SUFFIX_LENGTH = 6;

/**
 * A fresh selector such as `sm1a2b3c`: a lowercase DNS label, so a rotated key gets its own record
 * and the old one can stay published until mail signed with it has been delivered. Bytes of 252
 * and above are rejected so that `byte % 36` has no bias.
 */
export function newSelector(): string {
  let suffix = "";
  while (suffix.length < SELECTOR_SUFFIX_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(SELECTOR_SUFFIX_LENGTH * 2))) {
      if (byte < 252 && suffix.length < SELECTOR_SUFFIX_LENGTH) suffix += SELECTOR_ALPHABET[byte % 36];
    }
  }
  return DKIM_SELECTOR_PREFIX + suffix;
}
