import { constantTimeEqual, signHex } from "../lib/crypto";
import type { IdPrefix } from "../lib/ids";
import type { HmacPurpose } from "../lib/keys";
import { hmacKey } from "../lib/keys";

/**
 * A token naming one id, for the local part of an address the service hands out: the id's ULID
 * and an HMAC of the id under the purpose's own key, so a guessed or edited address names nothing.
 * Lowercase letters and digits only, since mail systems may change a local part's case;
 * verification lowercases first. 26 + 20 characters: the ULID, and 80 bits of HMAC in hex.
 */
const ULID_LENGTH = 26;
const MAC_LENGTH = 20;
const TOKEN = new RegExp(`^[0-9a-hjkmnp-tv-z]{${ULID_LENGTH}}[0-9a-f]{${MAC_LENGTH}}$`);

export function signedIdToken(purpose: HmacPurpose, prefix: IdPrefix) {
  const id = new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{${ULID_LENGTH}}$`);
  const mac = async (secret: string, value: string) =>
    (await signHex(await hmacKey(secret, purpose), value)).slice(0, MAC_LENGTH);
  return {
    async sign(secret: string, value: string): Promise<string> {
      if (!id.test(value)) throw new Error(`not a ${prefix} id: ${value}`);
      return `${value.slice(prefix.length + 1).toLowerCase()}${await mac(secret, value)}`;
    },
    /** The id a token names, when its HMAC is right; null for anything else. */
    async verify(secret: string, token: string): Promise<string | null> {
      const lower = token.toLowerCase();
      if (!TOKEN.test(lower)) return null;
      const value = `${prefix}_${lower.slice(0, ULID_LENGTH).toUpperCase()}`;
      return constantTimeEqual(await mac(secret, value), lower.slice(ULID_LENGTH)) ? value : null;
    },
  };
}
