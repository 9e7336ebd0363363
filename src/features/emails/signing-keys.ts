import { decryptSecret } from "../../lib/crypto";
import { importDkimKey } from "../../mail/dkim/sign";

/** Enough for every sender domain an isolate signs for in practice; past it the cache starts over. */
const MAX_KEYS = 256;

/**
 * Imported DKIM keys of this isolate, by their encrypted form as the connection row holds it. The
 * row is read fresh for every send, so a deleted domain still fails at once and a rotated key
 * (a new ciphertext) is imported anew: the cache only spares the AES decryption and the RSA import
 * (PKCS#8 parsing), which cost more than signing itself.
 */
const keys = new Map<string, Promise<CryptoKey>>();

/** The signing key of a connection's encrypted private key; a failure is not kept, so it is tried again. */
export function connectionSigningKey(encryptionKey: string, encrypted: string): Promise<CryptoKey> {
  const cacheKey = `${encryptionKey.length}:${encryptionKey}:${encrypted}`;
  const cached = keys.get(cacheKey);
  if (cached) return cached;
  if (keys.size >= MAX_KEYS) keys.clear();
  const imported = decryptSecret(encryptionKey, encrypted).then(importDkimKey);
  keys.set(cacheKey, imported);
  imported.catch(() => keys.delete(cacheKey));
  return imported;
}
